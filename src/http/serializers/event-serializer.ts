import DataLoader from 'dataloader';
import type { Kysely } from 'kysely';
import { dateDetails } from '../../domain/dates/datetime-format.ts';
import { eventWebsite, occurrencePageUrl } from '../../domain/events/event-web.ts';
import { eventJsonLd } from '../../domain/events/json-ld.ts';
import { redactLockedEvent } from '../../domain/events/redaction.ts';
import { autop } from '../../domain/text/autop.ts';
import { costDetails, formatCost, type CurrencyPosition } from '../../domain/text/cost.ts';
import { embeddedLinkedPostsRead } from '../../services/linked-posts-service.ts';
import { embeddedTermsRead } from '../../services/terms-service.ts';
import { readTogether } from '../../storage/reads-together.ts';
import { MediaRepository } from '../../storage/repositories/media-repository.ts';
import type { Database, EventRow, MediaRow } from '../../storage/schema.ts';
import type { RestContext } from '../rest/context.ts';
import { SeriesRepository, type SeriesSummary } from '../../storage/repositories/series-repository.ts';
import { seriesRecurrence } from '../../services/series-service.ts';
import { recurrenceLines } from '../../domain/recurrence/series.ts';
import { defaultListStatuses } from '../../domain/status.ts';
import { formatWall } from '../../domain/dates/datetime-format.ts';
import { imageUrl, serializeImage } from './image-serializer.ts';
import type { CacheView } from '../../services/read-cache.ts';

export interface EventSerializeOptions {
  /** Single GET only, and only when the caller may see it (10-events §3.10). */
  jsonLd?: boolean;
  /** List items of password-protected events the request has not unlocked (§9). */
  locked?: (event: EventRow) => boolean;
  /** Where the parts other records make are kept: taken from it when there, loaded and kept when not. */
  parts?: CacheView<EventParts>;
}

/**
 * What other records make of an event's read model: its terms with their counts, its venue and
 * its organizers, in their embedded shape for the request.
 */
export interface EventParts {
  categories: Record<string, unknown>[];
  tags: Record<string, unknown>[];
  venue: Record<string, unknown> | [];
  organizer: Record<string, unknown>[];
}

interface Embedded extends EventParts {
  image: MediaRow | undefined;
  series: SeriesSummary | undefined;
}

/** The extension keys of series members (60 §5); standalone events get none. */
function seriesKeys(event: EventRow, summary: SeriesSummary | undefined, ctx: RestContext): Record<string, unknown> {
  if (event.post_parent !== 0) {
    return { post_parent: event.post_parent, recurrence_id: event.recurrence_id, recurrence_exception: event.overridden !== null || event.recurrence_id !== event.start_local };
  }
  if (event.is_series_master !== 1) return {};
  const series = seriesRecurrence(event);
  return {
    recurrence: { rrule: series.rrule, rdate: series.rdate, exdate: series.exdate, ical: recurrenceLines(series) },
    occurrences: {
      count: summary?.count ?? 0,
      first: summary?.first ?? null,
      last: summary?.last ?? null,
      open_ended: series.rrule !== '' && !/;(COUNT|UNTIL)=/.test(`;${series.rrule}`),
      truncated: event.recurrence_truncated === 1,
      horizon: event.recurrence_horizon,
      rest_url: ctx.urls.nsUrl('/events/', [['post_parent', String(event.id)]]),
    },
  };
}

function costValues(event: EventRow): string[] {
  const parsed: unknown = JSON.parse(event.cost);
  return Array.isArray(parsed) ? parsed.map(String) : [];
}

function flag(value: number | null): boolean {
  // show_map / show_map_link read as true while never stored (§3.1).
  return value === null ? true : value === 1;
}

function serializeOne(event: EventRow, embedded: Embedded, ctx: RestContext, jsonLd: boolean): Record<string, unknown> {
  const globalId = `${ctx.urls.globalIdPrefix}?id=${event.id}`;
  const url = occurrencePageUrl(ctx.urls.edition, event);
  const values = costValues(event);
  const position = event.currency_position as CurrencyPosition;
  const cost = formatCost(values, event.currency_symbol, position, ctx.t('cost_free'));
  const image = serializeImage(embedded.image, ctx.urls.site);
  const body: Record<string, unknown> = {
    id: event.id,
    global_id: globalId,
    global_id_lineage: [globalId],
    author: String(event.author),
    status: event.status,
    date: event.date_local,
    date_utc: event.date_utc,
    modified: event.modified_local,
    modified_utc: event.modified_utc,
    url,
    rest_url: ctx.urls.nsUrl(`/events/${event.id}`),
    title: event.title.trim(),
    description: autop(event.description),
    excerpt: autop(event.excerpt),
    slug: event.slug,
    image,
    all_day: event.all_day === 1,
    start_date: event.start_local,
    start_date_details: dateDetails(event.start_local),
    end_date: event.end_local,
    end_date_details: dateDetails(event.end_local),
    utc_start_date: event.start_utc,
    utc_start_date_details: dateDetails(event.start_utc),
    utc_end_date: event.end_utc,
    utc_end_date_details: dateDetails(event.end_utc),
    timezone: event.timezone,
    timezone_abbr: event.timezone_abbr,
    cost,
    cost_details: costDetails(values, event.currency_symbol, position),
    website: eventWebsite(event.website, url),
    show_map: flag(event.show_map),
    show_map_link: flag(event.show_map_link),
    hide_from_listings: event.hide_from_listings === 1,
    sticky: event.sticky === 1,
    featured: event.featured === 1,
    categories: embedded.categories,
    tags: embedded.tags,
    venue: embedded.venue,
    organizer: embedded.organizer,
    custom_fields: [],
    ...seriesKeys(event, embedded.series, ctx),
  };
  if (jsonLd) {
    const venue = embedded.venue;
    body.json_ld = eventJsonLd({
      ...event,
      title: body.title as string,
      imageUrl: embedded.image ? imageUrl(embedded.image, ctx.urls.site) : undefined,
      url,
      cost,
      currencySymbol: event.currency_symbol === '' ? '$' : event.currency_symbol,
      freeWord: ctx.t('cost_free'),
      location: Array.isArray(venue) ? undefined : venue.json_ld,
      organizer: embedded.organizer[0]?.json_ld,
    });
  }
  return body;
}

/**
 * What every renderer of events (JSON objects, iCalendar) is a pure function of: the stored event
 * with its image, terms, venue and organizers (already in their embedded, access-blanked shape),
 * and whether the request left it locked behind its password.
 */
export interface EventModel extends Embedded {
  event: EventRow;
  locked: boolean;
}

/**
 * The read models of many events with images, terms, venue and organizers loaded in batches:
 * a fixed number of queries for any number of events.
 */
export async function loadEventModels(
  db: Kysely<Database>,
  events: readonly EventRow[],
  ctx: RestContext,
  options: EventSerializeOptions = {},
): Promise<EventModel[]> {
  if (events.length === 0) return [];
  const masters = events.filter((event) => event.is_series_master === 1).map((event) => event.id);
  const jsonLd = options.jsonLd === true;
  const [images, parts, series] = await Promise.all([
    new MediaRepository(db).findByIds(events.flatMap((event) => (event.image_id === null ? [] : [event.image_id]))),
    options.parts === undefined ? loadEventParts(db, events, ctx, jsonLd) : keptEventParts(db, events, ctx, jsonLd, options.parts),
    new SeriesRepository(db).summaries(masters, defaultListStatuses(ctx.user), formatWall(ctx.now)),
  ]);
  return events.map((event) => ({
    event,
    locked: options.locked?.(event) ?? false,
    image: event.image_id === null ? undefined : images.get(event.image_id),
    ...parts.get(event.id)!,
    series: series.get(event.id),
  }));
}

/** The parts of many events (terms, venues, organizers): one query per kind, one statement on PostgreSQL. */
async function loadEventParts(db: Kysely<Database>, events: readonly EventRow[], ctx: RestContext, jsonLd: boolean): Promise<Map<number, EventParts>> {
  const { terms, linked } = await readTogether(db, {
    terms: embeddedTermsRead(db, events.map((event) => event.id), ctx),
    linked: embeddedLinkedPostsRead(db, events, ctx, { jsonLd }),
  });
  return new Map(events.map((event) => [event.id, {
    categories: terms.get(event.id)?.categories ?? [],
    tags: terms.get(event.id)?.tags ?? [],
    venue: linked.get(event.id)?.venue ?? [],
    organizer: linked.get(event.id)?.organizer ?? [],
  }]));
}

/**
 * The parts of many events from `view`, those missing loaded together and kept. A part's key
 * names what its rendering depends on: the event and its venue link, the request's language and
 * address, and with json_ld the caller (embedded records carry it for who may read them).
 */
async function keptEventParts(db: Kysely<Database>, events: readonly EventRow[], ctx: RestContext, jsonLd: boolean, view: CacheView<EventParts>): Promise<Map<number, EventParts>> {
  const byId = new Map(events.map((event) => [event.id, event]));
  const missing = new DataLoader<number, EventParts>(async (ids) => {
    const loaded = await loadEventParts(db, ids.map((id) => byId.get(id)!), ctx, jsonLd);
    return ids.map((id) => loaded.get(id)!);
  }, { cache: false });
  const variant = JSON.stringify([ctx.lang, ctx.urls.ns, jsonLd && [ctx.user?.id ?? 0, ctx.user?.role ?? '']]);
  const parts = await Promise.all(events.map((event) => view.get(`${event.id} ${event.venue_id ?? 0} ${variant}`, () => missing.load(event.id))));
  return new Map(events.map((event, index) => [event.id, parts[index]]));
}

/**
 * Event objects (10-events §3) of loaded read models, in the reference's key order: a pure
 * function of the models (pages render from these too). A locked model is blanked and never
 * carries `json_ld`, as the API's single read gives it only to who may see the event.
 */
export function renderEventObjects(models: readonly EventModel[], ctx: RestContext, options: { jsonLd?: boolean } = {}): Record<string, unknown>[] {
  return models.map((model) => {
    const body = serializeOne(model.event, model, ctx, options.jsonLd === true && !model.locked);
    return model.locked ? redactLockedEvent(body) : body;
  });
}

/** Event objects (10-events §3) in the reference's key order. */
export async function serializeEvents(
  db: Kysely<Database>,
  events: readonly EventRow[],
  ctx: RestContext,
  options: EventSerializeOptions = {},
): Promise<Record<string, unknown>[]> {
  return renderEventObjects(await loadEventModels(db, events, ctx, options), ctx, options);
}

export async function serializeEvent(
  db: Kysely<Database>,
  event: EventRow,
  ctx: RestContext,
  options: EventSerializeOptions = {},
): Promise<Record<string, unknown>> {
  const [body] = await serializeEvents(db, [event], ctx, options);
  return body;
}
