import { utcToWall } from '../../domain/dates/time-zone.ts';
import { escapeSpecialChars } from '../../domain/text/entities.ts';
import type { UsedBy } from '../../storage/repositories/media-repository.ts';
import type { MediaRow } from '../../storage/schema.ts';
import type { RenderContext } from '../context.ts';
import { imageUrl, serializeImage, storedSizes, uploadUrl } from './image-serializer.ts';

const NOT_USED: UsedBy = { events: [], venues: [], organizers: [] };

/** The media object of the `{admin}` routes (110-media §6.1): TEC's image members first. */
export function serializeMedia(media: MediaRow, usedBy: UsedBy | undefined, ctx: RenderContext, siteZone: string): Record<string, unknown> {
  const modified = media.modified_utc ?? media.created_utc;
  return {
    ...(serializeImage(media, ctx.urls.site) as object),
    slug: media.slug,
    title: media.title,
    alt_text: media.alt_text,
    mime_type: media.mime_type,
    file: media.file,
    source: media.source,
    original_url: media.original_url,
    author: media.author,
    date: utcToWall(media.created_utc, siteZone),
    date_utc: media.created_utc,
    modified: utcToWall(modified, siteZone),
    modified_utc: modified,
    used_by: usedBy ?? NOT_USED,
    rest_url: ctx.urls.nsUrl(`/media/${media.id}`),
  };
}

const restDate = (wall: string) => wall.replace(' ', 'T');

const bareName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** WordPress core's attachment (§8.1), the subset S has, keys in R's order. */
export function serializeAttachment(media: MediaRow, ctx: RenderContext, siteZone: string, edit: boolean): Record<string, unknown> {
  const modified = media.modified_utc ?? media.created_utc;
  const url = imageUrl(media, ctx.urls.site);
  const title: Record<string, string> = { rendered: escapeSpecialChars(media.title, true) };
  if (edit) title.raw = media.title;
  return {
    id: media.id,
    author: media.author,
    date: restDate(utcToWall(media.created_utc, siteZone)),
    date_gmt: restDate(media.created_utc),
    modified: restDate(utcToWall(modified, siteZone)),
    modified_gmt: restDate(modified),
    slug: media.slug,
    status: 'inherit',
    type: 'attachment',
    link: url,
    title,
    alt_text: media.alt_text,
    media_type: 'image',
    mime_type: media.mime_type,
    media_details: media.source === 'url' ? {} : {
      width: media.width,
      height: media.height,
      file: media.file,
      filesize: media.filesize,
      sizes: {
        ...Object.fromEntries(storedSizes(media).map((size) => [size.name, {
          file: bareName(size.file), width: size.width, height: size.height, filesize: size.filesize, mime_type: size.mime_type, source_url: uploadUrl(ctx.urls.site, size.file),
        }])),
        full: { file: bareName(media.file), width: media.width, height: media.height, mime_type: media.mime_type, source_url: url },
      },
    },
    post: null,
    source_url: url,
  };
}
