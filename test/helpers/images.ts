import { crc32 } from 'node:zlib';
import sharp from 'sharp';

/**
 * Images made by sharp for the media tests (no binary fixtures), and the hostile files of
 * 110-media §12 #3 built from them.
 */
export const solid = (width: number, height: number, background = '#336699') => sharp({ create: { width, height, channels: 3, background } });

export const jpeg = (width = 800, height = 600) => solid(width, height).jpeg().toBuffer();

/** A 400 × 200 JPEG whose left half is red, stored sideways with EXIF orientation 6. */
export const rotatedJpeg = () =>
  solid(400, 200, 'blue').composite([{ input: { create: { width: 200, height: 200, channels: 3, background: 'red' } }, left: 0, top: 0 }])
    .jpeg().withMetadata({ orientation: 6 }).toBuffer();

/** A camera-like JPEG carrying EXIF with GPS position and camera details. */
export const jpegWithGps = () =>
  solid(1200, 900).jpeg().withExif({
    IFD0: { Make: 'Camera', Model: 'Serial 12345', Copyright: 'Someone' },
    IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '55/1 40/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '12/1 34/1 0/1' },
  }).toBuffer();

/** An animated GIF of `frames` 2 × 2 frames (alternating colours, so none merge). */
export function animatedGif(frames: number, side = 2): Promise<Buffer> {
  const frameBytes = side * side * 3;
  const raw = Buffer.alloc(frameBytes * frames);
  for (let frame = 0; frame < frames; frame++) raw.fill(frame % 2 ? 255 : 0, frame * frameBytes, (frame + 1) * frameBytes);
  return sharp(raw, { raw: { width: side, height: side * frames, channels: 3, pageHeight: side } }).gif({ delay: 10 }).toBuffer();
}

/** A PNG whose IHDR claims width × height (a decompression bomb's header), CRC kept valid. */
export async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await solid(10, 10).png().toBuffer());
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

/** `bytes` with a JPEG COM segment holding `text` right after SOI. */
export function jpegWithComment(bytes: Buffer, text: string): Buffer {
  const comment = Buffer.from(text);
  const header = Buffer.from([0xff, 0xfe, 0, 0]);
  header.writeUInt16BE(comment.length + 2, 2);
  return Buffer.concat([bytes.subarray(0, 2), header, comment, bytes.subarray(2)]);
}

/** `png` with a `tEXt` chunk holding `text` before IEND. */
export function pngWithText(png: Buffer, text: string): Buffer {
  const data = Buffer.from(`Comment\0${text}`, 'latin1');
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write('tEXt', 4, 'latin1');
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  const iend = png.length - 12;
  return Buffer.concat([png.subarray(0, iend), chunk, png.subarray(iend)]);
}

/** A multipart/form-data body as a browser would send it. */
export async function multipart(parts: Record<string, string | { bytes: Buffer; name: string; type: string }>): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts)) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new Blob([new Uint8Array(value.bytes)], { type: value.type }), value.name);
  }
  const request = new Request('http://form.test/', { method: 'POST', body: form });
  return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}
