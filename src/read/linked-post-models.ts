import type { Kysely } from 'kysely';
import { canReadRecord } from '../domain/auth/record-permissions.ts';
import { formatWall } from '../domain/dates/datetime-format.ts';
import { ORGANIZER, VENUE, ownership } from '../domain/linked-posts/linked-post-type.ts';
import type { RenderContext } from '../render/context.ts';
import { serializeOrganizer } from '../render/json/organizer-serializer.ts';
import { serializeVenue } from '../render/json/venue-serializer.ts';
import { LinkedPostsRepository, type LinkedRecord } from '../storage/repositories/linked-posts-repository.ts';
import { MediaRepository } from '../storage/repositories/media-repository.ts';
import type { Database, MediaRow } from '../storage/schema.ts';
import { readOf, type Read } from '../storage/reads-together.ts';

export function imagesOf(db: Kysely<Database>, records: readonly LinkedRecord[]): Promise<Map<number, MediaRow>> {
  return new MediaRepository(db).findByIds(imageIds(records));
}

function imageIds(records: readonly LinkedRecord[]): number[] {
  return records.flatMap((record) => (record.image_id === null ? [] : [record.image_id]));
}

export interface EmbeddedLinkedPosts {
  venue: Record<string, unknown> | [];
  organizer: Record<string, unknown>[];
}

/**
 * The venue and organizers of each event as embedded objects (10-events §3.7): one read of both
 * for any number of events, and one query more for their images if they have any. Shown whatever
 * their own status, except trashed ones (20 §8.2); protected ones are always blanked; `json_ld`
 * only with options.jsonLd and when readable.
 */
export function embeddedLinkedPostsRead(
  db: Kysely<Database>,
  events: ReadonlyArray<{ id: number; venue_id: number | null }>,
  ctx: RenderContext,
  options: { jsonLd: boolean },
): Read<Map<number, EmbeddedLinkedPosts>> {
  const venueIds = [...new Set(events.flatMap((event) => (event.venue_id === null ? [] : [event.venue_id])))];
  const eventIds = [...new Set(events.map((event) => event.id))];
  const venueRecords = new LinkedPostsRepository(db, VENUE, formatWall(ctx.now));
  const organizerRecords = new LinkedPostsRepository(db, ORGANIZER, formatWall(ctx.now));
  const build = (values: readonly number[]) => {
    const [venues, linkedFrom] = [values.slice(0, venueIds.length), values.slice(venueIds.length)];
    return {
      venues: venues.length === 0 ? undefined : venueRecords.byIdsQuery(venues),
      organizers: linkedFrom.length === 0 ? undefined : organizerRecords.linkedToEventsQuery(linkedFrom),
    };
  };
  // The values' count is part of the shape: with the venues' count, it says where the events' ids begin.
  return readOf(`linked posts ${venueIds.length}`, [...venueIds, ...eventIds], build, async (rows) => {
    const venues = venueRecords.recordsById(rows.venues);
    const organizerLinks = organizerRecords.linkedRecords(rows.organizers);
    const result = new Map<number, EmbeddedLinkedPosts>(events.map((event) => [event.id, { venue: [], organizer: [] }]));
    const images = await imagesOf(db, [...venues.values(), ...organizerLinks.map((link) => link.record)]);
    const embedOptions = (record: LinkedRecord) => ({
      jsonLd: options.jsonLd && canReadRecord(ctx.user, ownership(record)),
      locked: record.password !== '',
      embedded: true,
    });
    const imageOf = (record: LinkedRecord) => (record.image_id === null ? undefined : images.get(record.image_id));
    for (const event of events) {
      const venue = event.venue_id === null ? undefined : venues.get(event.venue_id);
      if (venue) result.get(event.id)!.venue = serializeVenue(venue, imageOf(venue), ctx, embedOptions(venue));
    }
    for (const { eventId, record } of organizerLinks) {
      result.get(eventId)?.organizer.push(serializeOrganizer(record, imageOf(record), ctx, embedOptions(record)));
    }
    return result;
  });
}
