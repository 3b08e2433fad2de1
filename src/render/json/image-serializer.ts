import type { MediaRow, StoredSize } from '../../storage/schema.ts';

export interface ImageSize {
  width: number;
  height: number;
  'mime-type': string;
  filesize: number;
  url: string;
}

export interface ImageObject {
  url: string;
  id: number;
  extension?: string;
  width?: number;
  height?: number;
  filesize?: number;
  sizes?: Record<string, ImageSize>;
}

/** The absolute URL of a stored file (110-media §7.1): `{site}/uploads/{path}`, no edition prefix. */
export function uploadUrl(site: string, path: string): string {
  return `${site}/uploads/${path}`;
}

/** The sizes an upload's record lists, in R's creation order. */
export function storedSizes(media: MediaRow): StoredSize[] {
  return media.source === 'url' ? [] : (JSON.parse(media.sizes) as StoredSize[]);
}

/** The full image's URL: the registered URL, or the stored file's. */
export function imageUrl(media: MediaRow, site: string): string {
  return media.source === 'url' ? media.url : uploadUrl(site, media.file);
}

/**
 * The `image` object of events, venues and organizers (10-events §3.5, 20 §4.3, 110-media §7.1):
 * TEC's shape, with the sizes an upload was given; a registered URL has only url, id, extension
 * and what is known of it. Empty members are omitted, `sizes` too when none was made.
 */
export function serializeImage(media: MediaRow | undefined | null, site: string): ImageObject | false {
  if (!media) return false;
  const image: ImageObject = { url: imageUrl(media, site), id: media.id };
  if (media.extension) image.extension = media.extension;
  if (media.width) image.width = media.width;
  if (media.height) image.height = media.height;
  if (media.filesize) image.filesize = media.filesize;
  const sizes = storedSizes(media);
  if (sizes.length > 0) {
    image.sizes = Object.fromEntries(sizes.map((size) => [size.name, {
      width: size.width, height: size.height, 'mime-type': size.mime_type, filesize: size.filesize, url: uploadUrl(site, size.file),
    }]));
  }
  return image;
}
