import type sharpModule from 'sharp';
import type { Metadata, OutputInfo, Sharp } from 'sharp';
import { RestError } from '../../domain/errors.ts';
import type { ImageFormat } from '../../domain/media/formats.ts';
import { isPolyglot } from '../../domain/media/polyglot.ts';
import { sniffFormat } from '../../domain/media/signature.ts';
import { fullDimensions, plannedSizes, sizeFileKey, type Dimensions, type PlannedSize } from '../../domain/media/sizes.ts';
import { lazyModule } from '../../lazy-module.ts';

/** libvips is loaded with the first image (about 20 MB of RSS a process without uploads never needs). */
const sharp = lazyModule<typeof sharpModule>('sharp', (library) => {
  // No decoded image is kept between uploads, and only the five loaders we feed are reachable
  // (110-media §3.1): a sniffing mistake can never reach the SVG, PDF or TIFF loaders.
  library.cache(false);
  // One libvips thread per image: uploads run side by side up to CALENDAR_UPLOAD_CONCURRENCY, and
  // on a small machine a core stays free for the event loop (§4.5: no stall over 50 ms).
  library.concurrency(1);
  library.block({ operation: ['VipsForeignLoad'] });
  library.unblock({
    operation: ['VipsForeignLoadJpegBuffer', 'VipsForeignLoadPngBuffer', 'VipsForeignLoadNsgifBuffer', 'VipsForeignLoadWebpBuffer', 'VipsForeignLoadHeifBuffer'],
  });
});

const MAX_FRAMES = 1000;
const MAX_SIDE = 65_535;
const SHARP_FORMAT: Record<ImageFormat, string> = { jpeg: 'jpeg', png: 'png', gif: 'gif', webp: 'webp', avif: 'heif' };

/** An upload that passed the checks made before decoding (§2.2 #7, #8). */
export interface InspectedImage {
  bytes: Buffer;
  format: ImageFormat;
  /** One frame's, oriented as it will be stored. */
  dimensions: Dimensions;
  frames: number;
  palette: boolean;
  maxPixels: number;
}

export interface EncodedFile extends Dimensions {
  format: ImageFormat;
  bytes: Buffer;
}

export interface ProcessedImage {
  full: EncodedFile;
  /** Every size made, in R's creation order; sizes of equal dimensions share one file object. */
  sizes: Array<{ size: PlannedSize; file: EncodedFile }>;
}

const invalidType = () => new RestError(415, 'rest_upload_invalid_type');
const invalidImage = () => new RestError(400, 'rest_upload_invalid_image');

/**
 * The type judged from the content and confirmed by the decoder's header read; polyglots and
 * decompression bombs refused before any pixel is decoded.
 */
export async function inspectImage(bytes: Buffer, maxPixels: number): Promise<InspectedImage> {
  const format = sniffFormat(bytes);
  if (format === undefined || isPolyglot(bytes, format)) throw invalidType();
  let metadata: Metadata;
  try {
    metadata = await sharp()(bytes, { animated: true, limitInputPixels: false }).metadata();
  } catch {
    throw invalidImage();
  }
  if (metadata.format !== SHARP_FORMAT[format]) throw invalidType();
  if (format === 'avif' && metadata.compression !== 'av1') throw invalidType();
  const frames = metadata.pages ?? 1;
  const width = metadata.width ?? 0;
  const height = metadata.pageHeight ?? metadata.height ?? 0;
  if (frames > MAX_FRAMES || width * height * frames > maxPixels) throw new RestError(413, 'rest_upload_image_too_large');
  if (width === 0 || height === 0 || width > MAX_SIDE || height > MAX_SIDE) throw invalidImage();
  const dimensions = frames === 1 ? (metadata.autoOrient ?? { width, height }) : { width, height };
  return { bytes, format, dimensions, frames, palette: metadata.isPalette === true, maxPixels };
}

function decoder(image: InspectedImage, animated: boolean): Sharp {
  return sharp()(image.bytes, { failOn: 'warning', limitInputPixels: image.maxPixels, animated, sequentialRead: true });
}

/** The encoder of §4.3 for a file of `format` (sizes of a GIF are PNG). */
function encode(pipeline: Sharp, format: ImageFormat, palette: boolean): Sharp {
  switch (format) {
    case 'jpeg':
      return pipeline.jpeg({ quality: 82 });
    case 'png':
      return pipeline.png({ palette, compressionLevel: 9 });
    case 'webp':
      return pipeline.webp({ quality: 86 });
    case 'avif':
      return pipeline.avif({ quality: 82, effort: 2 });
    case 'gif':
      return pipeline.gif();
  }
}

async function encoded(pipeline: Sharp, format: ImageFormat, dimensions: Dimensions): Promise<EncodedFile> {
  try {
    return { format, ...dimensions, bytes: await pipeline.toBuffer() };
  } catch {
    throw invalidImage();
  }
}

/**
 * Decodes once (orientation applied, colour to sRGB through the embedded profile), writes the
 * full image within the big-image threshold and every size smaller than it, all without
 * metadata (sharp keeps none unless asked). Runs on sharp's threads, off the event loop.
 */
export async function processImage(image: InspectedImage): Promise<ProcessedImage> {
  const full = fullDimensions(image.dimensions);
  const animated = image.frames > 1;
  const sizeFormat: ImageFormat = image.format === 'gif' ? 'png' : image.format;
  let pixels: { data: Buffer; info: OutputInfo };
  try {
    pixels = await decoder(image, false)
      .rotate()
      .toColourspace('srgb')
      .resize(full.width, full.height, { fit: 'fill' })
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw invalidImage();
  }
  const raw = () => sharp()(pixels.data, { raw: { width: pixels.info.width, height: pixels.info.height, channels: pixels.info.channels } });
  const fullFile = animated
    ? await encoded(encode(decoder(image, true).resize(full.width, full.height, { fit: 'fill' }), image.format, false), image.format, full)
    : await encoded(encode(raw(), image.format, image.palette), image.format, full);
  // One file at a time: an upload holds one of libuv's threads, never the whole pool.
  const files = new Map<string, EncodedFile>();
  const sizes: ProcessedImage['sizes'] = [];
  for (const size of plannedSizes(full)) {
    const key = sizeFileKey(size);
    let file = files.get(key);
    if (file === undefined) {
      const resized = raw().resize(size.width, size.height, size.crop ? { fit: 'cover', position: 'centre' } : { fit: 'fill' });
      file = await encoded(encode(resized, sizeFormat, image.palette), sizeFormat, size);
      files.set(key, file);
    }
    sizes.push({ size, file });
  }
  return { full: fullFile, sizes };
}
