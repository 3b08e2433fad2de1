import type { ImageFormat } from './formats.ts';

/**
 * A file's format from its leading bytes only (110-media §3.1): names and declared types never
 * decide. AVIF is recognised by its `ftyp` brands; that its items are AV1 coded (not HEVC) is
 * confirmed by the decoder's header read.
 */
export function sniffFormat(bytes: Buffer): ImageFormat | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  const head = bytes.subarray(0, 12).toString('latin1');
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'gif';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'webp';
  if (head.slice(4, 8) === 'ftyp' && ftypBrands(bytes).some((brand) => brand === 'avif' || brand === 'avis')) return 'avif';
  return undefined;
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The major and compatible brands of a leading `ftyp` box. */
function ftypBrands(bytes: Buffer): string[] {
  if (bytes.length < 16) return [];
  const size = Math.min(bytes.readUInt32BE(0), bytes.length);
  const brands = [bytes.toString('latin1', 8, 12)];
  for (let offset = 16; offset + 4 <= size; offset += 4) brands.push(bytes.toString('latin1', offset, offset + 4));
  return brands;
}
