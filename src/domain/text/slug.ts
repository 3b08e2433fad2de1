import { removeAccents } from './remove-accents.ts';
import { stripTags } from './strip-tags.ts';

// Port of WordPress sanitize_title() in "save" context (remove_accents, then
// sanitize_title_with_dashes), so slugs equal the ones the reference stores.

// Work happens on the percent-encoded form, as in WordPress, so octets the
// caller typed (`%e2%80%93`) are treated like the characters they encode.
const TO_HYPHEN = [
  '%c2%a0', '%e2%80%93', '%e2%80%94', // no-break space, en dash, em dash
  '&nbsp;', '&#160;', '&ndash;', '&#8211;', '&mdash;', '&#8212;',
  '/',
];

const TO_REMOVE = [
  '%c2%ad', // soft hyphen
  '%c2%a1', '%c2%bf', // ¡ ¿
  '%c2%ab', '%c2%bb', '%e2%80%b9', '%e2%80%ba', // angle quotes
  '%e2%80%98', '%e2%80%99', '%e2%80%9c', '%e2%80%9d', // curly quotes
  '%e2%80%9a', '%e2%80%9b', '%e2%80%9e', '%e2%80%9f',
  '%e2%80%a2', // bullet
  '%c2%a9', '%c2%ae', '%c2%b0', '%e2%80%a6', '%e2%84%a2', // © ® ° … ™
  '%c2%b4', '%cb%8a', '%cc%81', '%cd%81', // acute accents
  '%cc%80', '%cc%84', '%cc%8c', // grave, macron, caron
  // zero-width and direction marks, byte order mark, object replacement
  '%e2%80%8b', '%e2%80%8c', '%e2%80%8d', '%e2%80%8e', '%e2%80%8f',
  '%e2%80%aa', '%e2%80%ab', '%e2%80%ac', '%e2%80%ad', '%e2%80%ae',
  '%ef%bb%bf', '%ef%bf%bc',
];

// Spaces that have a width (en quad … hair space, line/paragraph separators,
// narrow no-break space) separate words.
const WIDE_SPACES = [
  '%e2%80%80', '%e2%80%81', '%e2%80%82', '%e2%80%83', '%e2%80%84', '%e2%80%85',
  '%e2%80%86', '%e2%80%87', '%e2%80%88', '%e2%80%89', '%e2%80%8a',
  '%e2%80%a8', '%e2%80%a9', '%e2%80%af',
];

export function slugify(text: string, maxLength?: number): string {
  let slug = stripTags(removeAccents(text));
  // Keep typed percent-octets, drop any other "%".
  slug = slug
    .replace(/%([a-fA-F0-9]{2})/g, '---$1---')
    .replaceAll('%', '')
    .replace(/---([a-fA-F0-9]{2})---/g, '%$1');
  slug = percentEncodeNonAscii(slug.toLowerCase());
  for (const sequence of TO_HYPHEN) slug = slug.replaceAll(sequence, '-');
  for (const sequence of TO_REMOVE) slug = slug.replaceAll(sequence, '');
  for (const sequence of WIDE_SPACES) slug = slug.replaceAll(sequence, '-');
  slug = slug
    .replaceAll('%c3%97', 'x') // multiplication sign
    .replace(/&.+?;/g, '')
    .replaceAll('.', '-')
    .replace(/[^%a-z0-9 _-]/g, '')
    .replace(/ +/g, '-')
    .replace(/-+/g, '-');
  slug = trimHyphens(slug);
  return maxLength === undefined ? slug : truncateSlug(slug, maxLength);
}

/**
 * The slug a `by-slug/{slug}` path segment asks for: decoded, then normalised
 * like a stored slug, so `Zürich-Café` and `ZURICH-CAFE` find `zurich-cafe`.
 */
export function normalizeSlugLookup(pathSegment: string): string {
  return slugify(safeDecode(pathSegment));
}

/**
 * `base`, `base-2`, `base-3`, … for the caller to try until one is free. With
 * `maxLength`, the base is shortened so that every candidate fits, as
 * WordPress does for post slugs.
 */
export function* uniqueSlugCandidates(base: string, maxLength?: number): Generator<string, never, undefined> {
  yield maxLength === undefined ? base : truncateSlug(base, maxLength);
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const head = maxLength === undefined ? base : truncateSlug(base, maxLength - suffix.length);
    yield head + suffix;
  }
}

const utf8 = new TextEncoder();

function percentEncodeNonAscii(text: string): string {
  let encoded = '';
  for (const char of text) {
    if (char.charCodeAt(0) < 0x80) {
      encoded += char;
      continue;
    }
    for (const byte of utf8.encode(char)) encoded += `%${byte.toString(16)}`;
  }
  return encoded;
}

// Cuts at a character boundary: never inside a `%xx` octet nor between the
// octets of one UTF-8 character.
function truncateSlug(slug: string, maxLength: number): string {
  if (slug.length <= maxLength) return slug;
  const units = slug.match(/%[0-9a-f]{2}(?:%[89ab][0-9a-f])*|[^]/g) ?? [];
  let cut = '';
  for (const unit of units) {
    if (cut.length + unit.length > maxLength) break;
    cut += unit;
  }
  return trimHyphens(cut);
}

function trimHyphens(text: string): string {
  return text.replace(/^-+|-+$/g, '');
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    // A lone "%" (e.g. in `100%`) is not an escape; WordPress would drop it.
    return segment;
  }
}
