import { utcToWall } from '../dates/time-zone.ts';
import { slugify } from '../text/slug.ts';
import { stripAllTagsAndScripts } from '../text/strip-tags.ts';
import type { Dimensions } from './sizes.ts';

/** The file name without its extension (R: the title and slug come from it). */
export function baseName(fileName: string): string {
  const name = fileName.split(/[\\/]/).pop() ?? '';
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/**
 * The slug of an upload's files (110-media §4.6): the post slug rule, then only what a stored
 * path may hold (`[a-z0-9-]`: percent-encoded letters and underscores go), at most 100 characters.
 */
export function fileSlug(fileName: string): string {
  const slug = slugify(baseName(fileName), 100)
    .replace(/%[0-9a-f]{2}/g, '')
    .replaceAll('_', '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  return slug === '' ? 'image' : slug;
}

/** `YYYY/MM` of the upload time in the site zone (R `wp_upload_dir()`). */
export function uploadFolder(nowUtc: string, siteZone: string): string {
  const wall = utcToWall(nowUtc, siteZone);
  return `${wall.slice(0, 4)}/${wall.slice(5, 7)}`;
}

export function fullPath(folder: string, slug: string, extension: string): string {
  return `${folder}/${slug}.${extension}`;
}

export function sizePath(folder: string, slug: string, size: Dimensions, extension: string): string {
  return `${folder}/${slug}-${size.width}x${size.height}.${extension}`;
}

/** `slug`, then `slug-1`, `slug-2`, … (R `wp_unique_filename()`). */
export function* slugCandidates(slug: string): Generator<string> {
  yield slug;
  for (let n = 1; ; n++) yield `${slug}-${n}`;
}

/** The default title: the file name without extension, tags stripped, trimmed (R). */
export function defaultTitle(fileName: string): string {
  return stripAllTagsAndScripts(baseName(fileName)).trim();
}
