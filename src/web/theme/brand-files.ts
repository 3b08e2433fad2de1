import { readFileSync } from 'node:fs';
import { imageSize } from 'image-size';

/** The operator's logo, read once at start (content type judged from the bytes, not the name). */
export interface LogoFile {
  body: Buffer;
  /** The file name extension it is served under. */
  extension: 'png' | 'jpg' | 'webp' | 'svg';
  type: string;
  width: number;
  height: number;
}

const LOGO_TYPES = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  svg: 'image/svg+xml',
} as const;

/** Both files are held in memory and sent with every first visit: a megabyte is far more than either needs. */
const MAX_BYTES = 1024 * 1024;

/** The file's bytes, or why it cannot be used. */
function readSmallFile(path: string): Buffer | string {
  let body: Buffer;
  try {
    body = readFileSync(path);
  } catch (error) {
    return `"${path}" cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
  return body.length > MAX_BYTES ? `"${path}" is larger than 1 MiB` : body;
}

/** The logo with its intrinsic size (from the image's header), or why it cannot be used. */
export function readLogo(path: string): LogoFile | string {
  const body = readSmallFile(path);
  if (typeof body === 'string') return body;
  let size: ReturnType<typeof imageSize> | undefined;
  try {
    size = imageSize(body);
  } catch {
    size = undefined;
  }
  const extension = size?.type;
  if (size === undefined || (extension !== 'png' && extension !== 'jpg' && extension !== 'webp' && extension !== 'svg')) {
    return `"${path}" is not a PNG, JPEG, WebP or SVG image`;
  }
  if (!(size.width > 0 && size.height > 0)) return `"${path}" does not say its width and height`;
  return { body, extension, type: LOGO_TYPES[extension], width: size.width, height: size.height };
}

/** The operator's stylesheet as written, or why it cannot be used. */
export function readCustomCss(path: string): Buffer | string {
  return readSmallFile(path);
}
