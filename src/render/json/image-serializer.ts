import type { MediaRow } from '../../storage/schema.ts';

export interface ImageObject {
  url: string;
  id: number;
  extension?: string;
  width?: number;
  height?: number;
  filesize?: number;
}

/**
 * The `image` object of events, venues and organizers (10-events §3.5, 20 §4.3): no resized
 * copies exist, so only url, id, extension and the dimensions when known; empty members omitted.
 */
export function serializeImage(media: MediaRow | undefined | null): ImageObject | false {
  if (!media) return false;
  const image: ImageObject = { url: media.url, id: media.id };
  if (media.extension) image.extension = media.extension;
  if (media.width) image.width = media.width;
  if (media.height) image.height = media.height;
  if (media.filesize) image.filesize = media.filesize;
  return image;
}
