import type { ImportKind } from '../../storage/schema.ts';

/** A record as the source lists it. */
export type SourceRecord = Record<string, unknown>;

/** Where each kind is listed and what its list envelope calls it (90 §2.2), in dependency order. */
export const KINDS: ReadonlyArray<{ kind: ImportKind; collection: string; query: string; statusAny: boolean }> = [
  { kind: 'category', collection: 'categories', query: 'per_page=50&hide_empty=0', statusAny: false },
  { kind: 'tag', collection: 'tags', query: 'per_page=50&hide_empty=0', statusAny: false },
  { kind: 'venue', collection: 'venues', query: 'per_page=50', statusAny: true },
  { kind: 'organizer', collection: 'organizers', query: 'per_page=50', statusAny: true },
  { kind: 'event', collection: 'events', query: 'per_page=50&start_date=1970-01-01&end_date=2100-12-31', statusAny: true },
];

export function sourceId(record: SourceRecord): number {
  return Number(record.id);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Empty text is "none" (null): an event create refuses empty texts, an update clears with null. */
function textOrNull(value: unknown): string | null {
  return text(value) === '' ? null : text(value);
}

/** A publication date the source has set (drafts may carry none or a zero date). */
function dateOrNull(value: unknown): string | null {
  return typeof value === 'string' && /^\d{4}-\d\d-\d\d/.test(value) && !value.startsWith('0000') ? value : null;
}

/** A record's name for messages. */
export function displayName(kind: ImportKind, record: SourceRecord): string {
  const name = kind === 'event' ? record.title : kind === 'venue' ? record.venue : kind === 'organizer' ? record.organizer : record.name;
  return typeof name === 'string' && name !== '' ? name : `#${sourceId(record)}`;
}

/**
 * What decides "unchanged" on a re-run: the source's `modified_utc`; terms carry none, so a
 * fingerprint of their copied fields stands in.
 */
export function modificationStamp(kind: ImportKind, record: SourceRecord): string {
  if (kind === 'category' || kind === 'tag') {
    return JSON.stringify([record.name, record.slug, record.description, kind === 'category' ? Number(record.parent ?? 0) : 0]);
  }
  return text(record.modified_utc);
}

/**
 * A list item blanked because it is password-protected (10-events §9, 20 §7): events show their
 * flags as null, standalone venues and organizers their name as an empty array.
 */
export function isBlanked(kind: ImportKind, record: SourceRecord): boolean {
  if (kind === 'event') return record.all_day === null || record.featured === null;
  if (kind === 'venue' || kind === 'organizer') return Array.isArray(record[kind]);
  return false;
}

/**
 * Categories with each parent before its children (90 §2.2); a parent the source does not list
 * makes the child top-level, reported through `orphan`.
 */
export function parentsFirst(categories: readonly SourceRecord[], orphan: (record: SourceRecord) => void): SourceRecord[] {
  const byId = new Map(categories.map((record) => [sourceId(record), record]));
  const ordered: SourceRecord[] = [];
  const placed = new Set<number>();
  const visiting = new Set<number>();
  const place = (record: SourceRecord) => {
    const id = sourceId(record);
    if (placed.has(id) || visiting.has(id)) return;
    visiting.add(id);
    const parent = Number(record.parent ?? 0);
    if (parent !== 0) {
      const above = byId.get(parent);
      if (above) place(above);
      else orphan(record);
    }
    visiting.delete(id);
    placed.add(id);
    ordered.push(record);
  };
  categories.forEach(place);
  return ordered;
}

/** The local id a source reference maps to, when the referenced record was copied. */
export type IdLookup = (kind: ImportKind, sourceId: number) => number | undefined;

function refId(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (value && typeof value === 'object' && !Array.isArray(value) && 'id' in value) return Number((value as { id: unknown }).id);
  return undefined;
}

function imageUrl(value: unknown): string | null {
  if (value && typeof value === 'object' && 'url' in value && typeof (value as { url: unknown }).url === 'string') return (value as { url: string }).url;
  return null;
}

/**
 * The event cost: the source's own text, which reads back the same here; `cost_details.values`
 * (with the currency symbol where it stood) only when the text is empty.
 */
function cost(record: SourceRecord): unknown {
  if (text(record.cost) !== '') return record.cost;
  const details = record.cost_details as { values?: unknown; currency_symbol?: unknown; currency_position?: unknown } | undefined;
  const values = Array.isArray(details?.values) ? details.values.map(String).filter((value) => value !== '') : [];
  if (values.length === 0) return null;
  const symbol = text(details?.currency_symbol);
  return values.map((value) => (symbol === '' || !/^\d/.test(value) ? value : details?.currency_position === 'postfix' ? `${value}${symbol}` : `${symbol}${value}`));
}

/**
 * The request body of a local event write (the API's own field names, so that the API's own
 * validation judges it). `null` marks "the source has none": it clears on update and is left out
 * on create.
 */
export function eventBody(record: SourceRecord, ids: IdLookup): Record<string, unknown> {
  const venue = refId(record.venue);
  const organizers = Array.isArray(record.organizer) ? record.organizer.map(refId).filter((id): id is number => id !== undefined) : [];
  const terms = (kind: 'category' | 'tag', value: unknown) =>
    (Array.isArray(value) ? value.map(refId) : []).map((id) => (id === undefined ? undefined : ids(kind, id))).filter((id): id is number => id !== undefined);
  const mappedVenue = venue === undefined ? undefined : ids('venue', venue);
  const mappedOrganizers = organizers.map((id) => ids('organizer', id)).filter((id): id is number => id !== undefined);
  const categories = terms('category', record.categories);
  const tags = terms('tag', record.tags);
  const website = text(record.website);
  const flag = (name: string) => (typeof record[name] === 'boolean' ? record[name] : null);
  return {
    title: record.title,
    description: textOrNull(record.description),
    excerpt: textOrNull(record.excerpt),
    ...(text(record.slug) === '' ? {} : { slug: record.slug }),
    status: record.status,
    date_utc: dateOrNull(record.date_utc),
    start_date: record.start_date,
    end_date: record.end_date,
    timezone: text(record.timezone),
    all_day: flag('all_day'),
    cost: cost(record),
    // An event without a website reads back its own page (10-events §3.8): that is no website.
    website: website === '' || website === record.url ? null : website,
    featured: flag('featured'),
    sticky: flag('sticky'),
    hide_from_listings: flag('hide_from_listings'),
    show_map: flag('show_map'),
    show_map_link: flag('show_map_link'),
    image: imageUrl(record.image),
    venue: mappedVenue ?? null,
    organizer: mappedOrganizers.length > 0 ? mappedOrganizers : null,
    categories: categories.length > 0 ? categories : null,
    tags: tags.length > 0 ? tags : null,
    ...(typeof record.password === 'string' ? { password: record.password } : {}),
    ...seriesRule(record),
  };
}

/** A series master of this service carries its rule (60 §5): copied so that the copy is a series too. */
function seriesRule(record: SourceRecord): Record<string, unknown> {
  const rule = record.recurrence;
  if (rule === null || typeof rule !== 'object' || Array.isArray(rule)) return {};
  const { rrule, rdate, exdate } = rule as Record<string, unknown>;
  return { recurrence: { rrule, rdate, exdate } };
}

const VENUE_TEXT = ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website', 'stateprovince'];
const ORGANIZER_TEXT = ['phone', 'website', 'email'];

/** The body of a local venue or organizer write (20 §6.1 field names). */
export function linkedBody(kind: 'venue' | 'organizer', record: SourceRecord): Record<string, unknown> {
  const body: Record<string, unknown> = {
    [kind]: record[kind],
    description: text(record.description),
    status: record.status,
    date_utc: dateOrNull(record.date_utc),
    image: imageUrl(record.image),
  };
  for (const field of kind === 'venue' ? VENUE_TEXT : ORGANIZER_TEXT) body[field] = text(record[field]);
  if (kind === 'venue') {
    for (const flag of ['show_map', 'show_map_link']) if (typeof record[flag] === 'boolean') body[flag] = record[flag];
  }
  if (typeof record.password === 'string') body.password = record.password;
  return body;
}
