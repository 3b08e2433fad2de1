import { canReadRecord } from '../../domain/auth/record-permissions.ts';
import { ownership, type LinkedPostType } from '../../domain/linked-posts/linked-post-type.ts';
import { autop } from '../../domain/text/autop.ts';
import { escapeSpecialChars } from '../../domain/text/entities.ts';
import { plainTextExcerpt } from '../../domain/text/html-filter.ts';
import type { LinkedRecord } from '../../storage/repositories/linked-posts-repository.ts';
import type { MediaRow } from '../../storage/schema.ts';
import type { RenderContext } from '../context.ts';
import { serializeImage } from './image-serializer.ts';

export interface LinkedSerializeOptions {
  /** Add `json_ld`: single GET, or copies embedded in a single-event GET. */
  jsonLd: boolean;
  /** Password-protected and not unlocked for this request: content keys are blanked. */
  locked: boolean;
  /** A copy inside an event object (10-events §3.7), which blanks a slightly different set. */
  embedded?: boolean;
}

export type JsonLdBuilder = (record: LinkedRecord, image: MediaRow | undefined, site: string) => Record<string, unknown>;

/** Keys kept even when empty (20 §2); coordinates are present whenever stored, 0 included (70 §2.2). */
const ALWAYS_PRESENT = new Set(['show_map', 'show_map_link', 'global_id', 'global_id_lineage', 'geo_lat', 'geo_lng']);

/** Blanked values of a locked record, per key (20 §7); keys not listed stay visible. */
const REDACTED: Readonly<Record<string, unknown>> = {
  description: '', excerpt: '', website: '', phone: '', email: '', address: '', city: '', country: '',
  province: '', zip: '', stateprovince: '', image: false, show_map: null, show_map_link: null,
  // As the reference shows the coordinates of a locked venue (70-geo §2.2).
  geo_lat: 0, geo_lng: 0,
};

/** Stored coordinates as [key, value] entries after the text fields (70-geo §2.2), or none. */
function coordinateEntries(type: LinkedPostType, record: LinkedRecord): Array<[string, unknown]> {
  if (!type.coordinates || record.geo_lat === null || record.geo_lat === undefined || record.geo_lng === null || record.geo_lng === undefined) return [];
  return [['geo_lat', record.geo_lat], ['geo_lng', record.geo_lng]];
}

/** The reference's empty(): these values drop their key. */
function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '' || value === false || value === 0 || value === '0' || (Array.isArray(value) && value.length === 0);
}

/** `{origin}{base}{edition}/venue/{slug}/` for public records, the plain `?post_type=…&p=` link otherwise (20 §4.1). */
export function linkedPostUrl(type: LinkedPostType, record: LinkedRecord, ctx: RenderContext): string {
  const pretty = record.status === 'publish' || (record.status === 'private' && canReadRecord(ctx.user, ownership(record)));
  return pretty ? `${ctx.urls.edition}/${type.kind}/${record.slug}/` : `${ctx.urls.edition}/?post_type=${type.postType}&p=${record.id}`;
}

/** The json_ld `description`: a short plain excerpt as one paragraph (20 §4.5). */
export function jsonLdDescription(description: string): string {
  const text = plainTextExcerpt(description);
  return text === '' ? '' : `<p>${escapeSpecialChars(text, false)}</p>`;
}

/**
 * A venue or organizer object (20 §2, §3) in the reference's key order: empty keys dropped,
 * then the keys still present blanked when the record is locked (20 §7, 10-events §3.7).
 */
export function serializeLinkedPost(
  type: LinkedPostType,
  record: LinkedRecord,
  image: MediaRow | undefined,
  ctx: RenderContext,
  options: LinkedSerializeOptions,
  jsonLd: JsonLdBuilder,
): Record<string, unknown> {
  const globalId = `${ctx.urls.globalIdPrefix}?id=${record.id}`;
  const fields: Array<[string, unknown]> = [
    ['id', record.id],
    ['author', record.author === 0 ? '' : String(record.author)],
    ['status', record.status],
    ['date', record.date_local],
    ['date_utc', record.date_utc],
    ['modified', record.modified_local],
    ['modified_utc', record.modified_utc],
    ['url', linkedPostUrl(type, record, ctx)],
    [type.nameKey, record.name.trim()],
    ['description', autop(record.description)],
    ['excerpt', autop(record.excerpt)],
    ['slug', record.slug],
    ['image', serializeImage(image, ctx.urls.site)],
    ...type.textFields.map((field): [string, unknown] => [field, record[field] ?? '']),
    ...coordinateEntries(type, record),
    ['json_ld', options.jsonLd && !options.locked ? jsonLd(record, image, ctx.urls.site) : undefined],
    ...type.flags.map((flag): [string, unknown] => [flag, record[flag] !== 0]),
    ['global_id', globalId],
    ['global_id_lineage', [globalId]],
  ];
  const out: Record<string, unknown> = {};
  for (const [key, value] of fields) {
    if (!isEmpty(value) || ALWAYS_PRESENT.has(key)) out[key] = value;
  }
  if (options.locked) {
    for (const key of Object.keys(out)) {
      if (key in REDACTED) out[key] = REDACTED[key];
    }
    // A standalone object hides the name as an empty array and leaks `state`; an embedded copy
    // keeps the name and blanks `state` (reference behaviour on both sides).
    if (options.embedded) {
      if ('state' in out) out.state = '';
    } else if (type.nameKey in out) {
      out[type.nameKey] = [];
    }
  }
  return out;
}
