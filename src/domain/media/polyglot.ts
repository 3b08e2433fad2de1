import type { ImageFormat } from './formats.ts';
import { PNG_SIGNATURE } from './signature.ts';

/**
 * Polyglot detection (110-media §3.2): markup or script text where a browser or another parser
 * would find it — the first 1,445 bytes (the window browsers sniff), every metadata segment or
 * chunk, and whatever follows the image's end. Compressed pixel data is skipped: random bytes
 * would match by chance.
 */
const MARKERS = ['<script', '<html', '<body', '<iframe', '<object', '<embed', '<svg', '<?php', '<!doctype', 'javascript:'];
const SNIFF_WINDOW = 1445;

export function containsMarkup(bytes: Buffer): boolean {
  const text = bytes.toString('latin1').toLowerCase();
  return MARKERS.some((marker) => text.includes(marker));
}

/** True when the file carries markup in a place §3.2 looks at. */
export function isPolyglot(bytes: Buffer, format: ImageFormat): boolean {
  if (containsMarkup(bytes.subarray(0, SNIFF_WINDOW))) return true;
  return REGIONS[format](bytes).some(containsMarkup);
}

type RegionFinder = (bytes: Buffer) => Buffer[];

const REGIONS: Record<ImageFormat, RegionFinder> = { jpeg: jpegRegions, png: pngRegions, gif: gifRegions, webp: webpRegions, avif: isoBmffRegions };

/** JPEG: every marker segment (APPn, COM, tables) and the bytes after EOI; entropy-coded scans skipped. */
function jpegRegions(bytes: Buffer): Buffer[] {
  const regions: Buffer[] = [];
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return [...regions, bytes.subarray(offset)];
    const marker = bytes[offset + 1];
    if (marker === 0xff) {
      offset++;
      continue;
    }
    if (marker === 0xd9) return [...regions, bytes.subarray(offset + 2)];
    const length = bytes.readUInt16BE(offset + 2);
    regions.push(bytes.subarray(offset + 4, offset + 2 + length));
    offset += 2 + length;
    if (marker === 0xda) offset = endOfEntropyData(bytes, offset);
  }
  return [...regions, bytes.subarray(offset)];
}

/** The next marker after a scan's entropy-coded data (stuffed `FF 00` and restart markers belong to it). */
function endOfEntropyData(bytes: Buffer, offset: number): number {
  // indexOf runs natively: a 12-megapixel photo's scan data is megabytes long.
  for (let i = bytes.indexOf(0xff, offset); i >= 0 && i + 1 < bytes.length; i = bytes.indexOf(0xff, i + 1)) {
    const next = bytes[i + 1];
    if (next !== 0x00 && !(next >= 0xd0 && next <= 0xd7) && next !== 0xff) return i;
  }
  return bytes.length;
}

const PNG_PIXEL_CHUNKS = new Set(['IDAT', 'fdAT']);

/** PNG: every chunk but the compressed pixels, and the bytes after IEND. */
function pngRegions(bytes: Buffer): Buffer[] {
  const regions: Buffer[] = [];
  let offset = PNG_SIGNATURE.length;
  while (offset + 8 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (!PNG_PIXEL_CHUNKS.has(type)) regions.push(bytes.subarray(offset + 8, Math.min(end - 4, bytes.length)));
    offset = end;
    if (type === 'IEND') break;
  }
  regions.push(bytes.subarray(offset));
  return regions;
}

/** GIF: every extension block's data (comment, application, plain text), and the bytes after the trailer. */
function gifRegions(bytes: Buffer): Buffer[] {
  const regions: Buffer[] = [];
  let offset = 13;
  const flags = bytes[10] ?? 0;
  if (flags & 0x80) offset += 3 * 2 ** ((flags & 0x07) + 1);
  while (offset < bytes.length) {
    const introducer = bytes[offset];
    if (introducer === 0x3b) return [...regions, bytes.subarray(offset + 1)];
    if (introducer === 0x21) {
      const blocks = subBlocks(bytes, offset + 2);
      regions.push(blocks.data);
      offset = blocks.end;
    } else if (introducer === 0x2c) {
      const local = bytes[offset + 9] ?? 0;
      offset += 10;
      if (local & 0x80) offset += 3 * 2 ** ((local & 0x07) + 1);
      offset = subBlocks(bytes, offset + 1).end;
    } else {
      return [...regions, bytes.subarray(offset)];
    }
  }
  return regions;
}

function subBlocks(bytes: Buffer, start: number): { data: Buffer; end: number } {
  const parts: Buffer[] = [];
  let offset = start;
  while (offset < bytes.length && bytes[offset] !== 0) {
    const length = bytes[offset];
    parts.push(bytes.subarray(offset + 1, offset + 1 + length));
    offset += 1 + length;
  }
  return { data: Buffer.concat(parts), end: offset + 1 };
}

const WEBP_PIXEL_CHUNKS = new Set(['VP8 ', 'VP8L', 'ALPH', 'ANMF']);

/** WebP: every chunk but the coded frames, and the bytes beyond the RIFF size. */
function webpRegions(bytes: Buffer): Buffer[] {
  const regions: Buffer[] = [];
  const riffEnd = Math.min(bytes.length, 8 + bytes.readUInt32LE(4));
  let offset = 12;
  while (offset + 8 <= riffEnd) {
    const type = bytes.toString('latin1', offset, offset + 4);
    const length = bytes.readUInt32LE(offset + 4);
    if (!WEBP_PIXEL_CHUNKS.has(type)) regions.push(bytes.subarray(offset + 8, offset + 8 + length));
    offset += 8 + length + (length % 2);
  }
  regions.push(bytes.subarray(riffEnd));
  return regions;
}

/** AVIF (ISO-BMFF): every top-level box but `mdat`, and the bytes beyond the last box. */
function isoBmffRegions(bytes: Buffer): Buffer[] {
  const regions: Buffer[] = [];
  let offset = 0;
  while (offset + 8 <= bytes.length) {
    let size = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    if (size === 1 && offset + 16 <= bytes.length) size = Number(bytes.readBigUInt64BE(offset + 8));
    if (size === 0) size = bytes.length - offset;
    if (size < 8) break;
    if (type !== 'mdat') regions.push(bytes.subarray(offset + 8, offset + size));
    offset += size;
  }
  regions.push(bytes.subarray(offset));
  return regions;
}
