/** The five accepted image formats (110-media §3.1) and what each is stored as. */
export type ImageFormat = 'jpeg' | 'png' | 'gif' | 'webp' | 'avif';

export const EXTENSIONS: Record<ImageFormat, string> = { jpeg: 'jpg', png: 'png', gif: 'gif', webp: 'webp', avif: 'avif' };

export const MIME_TYPES: Record<ImageFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
};

const BY_EXTENSION = new Map(Object.entries(EXTENSIONS).map(([format, extension]) => [extension, format as ImageFormat]));

export function formatOfExtension(extension: string): ImageFormat | undefined {
  return BY_EXTENSION.get(extension);
}

/** A stored file's path (§5.2): nothing else is ever looked up. */
export const UPLOAD_PATH = /^\d{4}\/\d{2}\/[a-z0-9-]+\.(jpg|png|gif|webp|avif)$/;
