import assert from 'node:assert/strict';
import { NS, type Caller, type TestApp } from '../../helpers/test-app.ts';

export type Collection = 'categories' | 'tags';

/** Creates a term through the API (as administrator unless told otherwise) and returns its body. */
export async function createTerm(t: TestApp, collection: Collection, body: Record<string, unknown>, as: Caller = 'administrator'): Promise<any> {
  const res = await t.request('POST', `${NS}/${collection}`, { as, body });
  assert.equal(res.status, 201, `create ${collection} ${JSON.stringify(body)}: ${res.text}`);
  return res.body;
}

let eventCounter = 0;

/**
 * Writes an event straight into storage (the events routes belong to another module), linked to
 * the given term ids in that order.
 */
export async function insertEvent(t: TestApp, termIds: readonly number[], options: { status?: string; dateUtc?: string } = {}): Promise<number> {
  const db = t.storage.db;
  const { id } = await db.insertInto('objects').values({ kind: 'event' }).returning('id').executeTakeFirstOrThrow();
  eventCounter += 1;
  const date = options.dateUtc ?? '2025-01-01 10:00:00';
  await db
    .insertInto('events')
    .values({
      id,
      author: 0,
      status: options.status ?? 'publish',
      pre_trash_status: null,
      slug: `event-${id}-${eventCounter}`,
      pre_trash_slug: null,
      password: '',
      description: '',
      excerpt: '',
      date_local: date,
      date_utc: date,
      modified_local: date,
      modified_utc: date,
      image_id: null,
      title: `Event ${id}`,
      start_local: '2025-06-01 10:00:00',
      end_local: '2025-06-01 12:00:00',
      start_utc: '2025-06-01 10:00:00',
      end_utc: '2025-06-01 12:00:00',
      timezone: 'UTC',
      timezone_abbr: 'UTC',
      website: null,
      show_map: null,
      show_map_link: null,
      all_day: 0,
      cost: '[]',
      currency_symbol: '',
      currency_position: '',
      hide_from_listings: 0,
      sticky: 0,
      featured: 0,
      venue_id: null,
      post_parent: 0,
    })
    .execute();
  if (termIds.length > 0) {
    await db.insertInto('event_terms').values(termIds.map((termId, position) => ({ event_id: id, term_id: termId, position }))).execute();
  }
  return id;
}

export async function setEventStatus(t: TestApp, eventId: number, status: string): Promise<void> {
  await t.storage.db.updateTable('events').set({ status }).where('id', '=', eventId).execute();
}

/** Removes every term and event, so each test starts from an empty taxonomy. */
export async function clearTerms(t: TestApp): Promise<void> {
  const db = t.storage.db;
  await db.deleteFrom('event_terms').execute();
  await db.deleteFrom('events').execute();
  await db.deleteFrom('terms').execute();
  await db.deleteFrom('objects').where('kind', '=', 'event').execute();
}

export function ids(list: Array<{ id: number }>): number[] {
  return list.map((term) => term.id);
}

export function names(list: Array<{ name: string }>): string[] {
  return list.map((term) => term.name);
}
