import type { Kysely } from 'kysely';
import { can } from '../domain/auth/capabilities.ts';
import { formatWall } from '../domain/dates/datetime-format.ts';
import { ORGANIZER, VENUE, ownership, type LinkedPostType } from '../domain/linked-posts/linked-post-type.ts';
import { isUnlocked } from '../domain/posts/password.ts';
import { listedFor } from '../domain/sync/feed-visibility.ts';
import { loadEventModels } from '../read/event-models.ts';
import { imagesOf } from '../read/linked-post-models.ts';
import type { RenderContext } from '../render/context.ts';
import { renderEventObjects } from '../render/json/event-serializer.ts';
import type { LinkedSerializeOptions } from '../render/json/linked-post-serializer.ts';
import { serializeOrganizer } from '../render/json/organizer-serializer.ts';
import { serializeTerm } from '../render/json/term-serializer.ts';
import { serializeVenue } from '../render/json/venue-serializer.ts';
import { EventsRepository } from '../storage/repositories/events-repository.ts';
import type { LinkedRecord } from '../storage/repositories/linked-posts-repository.ts';
import type { ChangeKind, Database, MediaRow, Taxonomy } from '../storage/schema.ts';
import { eventOwnership } from './events-service.ts';
import { repository } from './linked-posts-service.ts';
import { listTerms } from './terms-service.ts';

/** An entry that may carry an object: its record and what the caller must do with its copy. */
export interface ObjectEntry {
  kind: ChangeKind;
  record_id: number;
  effect?: 'upsert' | 'remove';
}

type Objects = Map<number, Record<string, unknown>>;

/** The key of a record in the map `changeObjects` answers. */
export function objectKey(kind: ChangeKind, id: number): string {
  return `${kind}:${id}`;
}

/**
 * The objects of the upsert entries (80 §3.1 `include=object`, §4.2 `include_objects`): each record
 * as it stands now, rendered as the caller's list renders it — the object of a single GET without
 * `json_ld`, a password-protected record blanked, a term without `_links` — so that a copy made
 * from the lists and one made from the feed hold the same objects. A record that is gone, or that
 * the caller's lists no longer show, has none (a later entry removes it); with `unlisted` (the
 * feed's `include=hidden`) hidden events and series masters count as shown. One batch read per kind
 * of record, whatever the number of entries.
 */
export async function changeObjects(db: Kysely<Database>, entries: readonly ObjectEntry[], ctx: RenderContext, options: { unlisted?: boolean } = {}): Promise<Map<string, Record<string, unknown>>> {
  const wanted = new Map<ChangeKind, number[]>();
  for (const entry of entries) {
    if (entry.effect !== 'upsert') continue;
    const ids = wanted.get(entry.kind) ?? [];
    if (!ids.includes(entry.record_id)) ids.push(entry.record_id);
    wanted.set(entry.kind, ids);
  }
  const seesUnpublished = can(ctx.user, 'edit_posts');
  const ids = (kind: ChangeKind) => wanted.get(kind) ?? [];
  const [events, venues, organizers, categories, tags] = await Promise.all([
    eventObjects(db, ids('event'), ctx, seesUnpublished, options.unlisted === true),
    linkedObjects(db, VENUE, ids('venue'), ctx, seesUnpublished),
    linkedObjects(db, ORGANIZER, ids('organizer'), ctx, seesUnpublished),
    termObjects(db, 'tribe_events_cat', ids('category'), ctx),
    termObjects(db, 'post_tag', ids('tag'), ctx),
  ]);
  const byKind: Record<ChangeKind, Objects> = { event: events, venue: venues, organizer: organizers, category: categories, tag: tags };
  const objects = new Map<string, Record<string, unknown>>();
  for (const [kind, found] of Object.entries(byKind) as [ChangeKind, Objects][]) {
    for (const [id, object] of found) objects.set(objectKey(kind, id), object);
  }
  return objects;
}

/** Feed and webhook requests carry no password: a protected record stays blanked as in a list. */
const NO_UNLOCK = { contextEdit: false } as const;

async function eventObjects(db: Kysely<Database>, ids: readonly number[], ctx: RenderContext, seesUnpublished: boolean, unlisted: boolean): Promise<Objects> {
  if (ids.length === 0) return new Map();
  const rows = (await new EventsRepository(db, formatWall(ctx.now)).findByIds(ids))
    .filter((event) => listedFor({ status: event.status, hidden: event.hide_from_listings === 1, isSeriesMaster: event.is_series_master === 1 }, seesUnpublished, unlisted));
  const models = await loadEventModels(db, rows, ctx, { locked: (event) => !isUnlocked(eventOwnership(event), ctx.user, NO_UNLOCK) });
  const objects = renderEventObjects(models, ctx);
  return new Map(rows.map((event, index) => [event.id, objects[index]]));
}

type LinkedSerializer = (record: LinkedRecord, image: MediaRow | undefined, ctx: RenderContext, options: LinkedSerializeOptions) => Record<string, unknown>;

async function linkedObjects(db: Kysely<Database>, type: LinkedPostType, ids: readonly number[], ctx: RenderContext, seesUnpublished: boolean): Promise<Objects> {
  if (ids.length === 0) return new Map();
  const serialize: LinkedSerializer = type.kind === 'venue' ? serializeVenue : serializeOrganizer;
  const records = (await repository(db, type, ctx.now).findByIds(ids))
    .filter((record) => listedFor({ status: record.status, hidden: false, isSeriesMaster: false }, seesUnpublished));
  const images = await imagesOf(db, records);
  return new Map(records.map((record) => {
    const locked = !isUnlocked({ ...ownership(record), password: record.password }, ctx.user, NO_UNLOCK);
    const image = record.image_id === null ? undefined : images.get(record.image_id);
    return [record.id, serialize(record, image, ctx, { jsonLd: false, locked })];
  }));
}

/** Terms are visible to everyone while they exist (80 §3.4). */
async function termObjects(db: Kysely<Database>, taxonomy: Taxonomy, ids: readonly number[], ctx: RenderContext): Promise<Objects> {
  if (ids.length === 0) return new Map();
  const { views } = await listTerms(db, taxonomy, { page: 1, perPage: ids.length, include: [...ids], hideEmpty: false }, ctx.now);
  return new Map(views.map((view) => [view.term.id, serializeTerm(view.term, view.ancestors, ctx.urls, { links: false })]));
}
