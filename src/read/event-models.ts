import DataLoader from 'dataloader';
import type { Kysely } from 'kysely';
import { formatWall } from '../domain/dates/datetime-format.ts';
import { defaultListStatuses } from '../domain/status.ts';
import type { RenderContext } from '../render/context.ts';
import { renderEventObjects, type EventModel, type EventParts } from '../render/json/event-serializer.ts';
import type { CacheView } from './read-cache.ts';
import { readTogether } from '../storage/reads-together.ts';
import { MediaRepository } from '../storage/repositories/media-repository.ts';
import { SeriesRepository } from '../storage/repositories/series-repository.ts';
import type { Database, EventRow } from '../storage/schema.ts';
import { embeddedLinkedPostsRead } from './linked-post-models.ts';
import { embeddedTermsRead } from './term-models.ts';

export interface EventSerializeOptions {
  /** Single GET only, and only when the caller may see it (10-events §3.10). */
  jsonLd?: boolean;
  /** List items of password-protected events the request has not unlocked (§9). */
  locked?: (event: EventRow) => boolean;
  /** Where the parts other records make are kept: taken from it when there, loaded and kept when not. */
  parts?: CacheView<EventParts>;
}

/**
 * The read models of many events with images, terms, venue and organizers loaded in batches:
 * a fixed number of queries for any number of events.
 */
export async function loadEventModels(
  db: Kysely<Database>,
  events: readonly EventRow[],
  ctx: RenderContext,
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
async function loadEventParts(db: Kysely<Database>, events: readonly EventRow[], ctx: RenderContext, jsonLd: boolean): Promise<Map<number, EventParts>> {
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
async function keptEventParts(db: Kysely<Database>, events: readonly EventRow[], ctx: RenderContext, jsonLd: boolean, view: CacheView<EventParts>): Promise<Map<number, EventParts>> {
  const byId = new Map(events.map((event) => [event.id, event]));
  const missing = new DataLoader<number, EventParts>(async (ids) => {
    const loaded = await loadEventParts(db, ids.map((id) => byId.get(id)!), ctx, jsonLd);
    return ids.map((id) => loaded.get(id)!);
  }, { cache: false });
  const variant = JSON.stringify([ctx.lang, ctx.urls.ns, jsonLd && [ctx.user?.id ?? 0, ctx.user?.role ?? '']]);
  const parts = await Promise.all(events.map((event) => view.get(`${event.id} ${event.venue_id ?? 0} ${variant}`, () => missing.load(event.id))));
  return new Map(events.map((event, index) => [event.id, parts[index]]));
}

/** Event objects (10-events §3) in the reference's key order. */
export async function serializeEvents(
  db: Kysely<Database>,
  events: readonly EventRow[],
  ctx: RenderContext,
  options: EventSerializeOptions = {},
): Promise<Record<string, unknown>[]> {
  return renderEventObjects(await loadEventModels(db, events, ctx, options), ctx, options);
}

export async function serializeEvent(
  db: Kysely<Database>,
  event: EventRow,
  ctx: RenderContext,
  options: EventSerializeOptions = {},
): Promise<Record<string, unknown>> {
  const [body] = await serializeEvents(db, [event], ctx, options);
  return body;
}
