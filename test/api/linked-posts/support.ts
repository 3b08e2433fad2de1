import assert from 'node:assert/strict';
import type { Role } from '../../../src/domain/auth/capabilities.ts';
import { ObjectsRepository } from '../../../src/storage/repositories/objects-repository.ts';
import { NS, type Caller, type TestApp } from '../../helpers/test-app.ts';

/** What the tests need to know to run one scenario against venues and organizers alike. */
export interface LinkedCase {
  kind: 'venue' | 'organizer';
  /** Route segment and list envelope key. */
  path: 'venues' | 'organizers';
  postType: 'tribe_venue' | 'tribe_organizer';
}

export const VENUES: LinkedCase = { kind: 'venue', path: 'venues', postType: 'tribe_venue' };
export const ORGANIZERS: LinkedCase = { kind: 'organizer', path: 'organizers', postType: 'tribe_organizer' };
export const CASES: readonly LinkedCase[] = [VENUES, ORGANIZERS];

/** POST {ns}/venues (or organizers) as `as`, asserting 201; `name` fills the name field. */
export async function createLinked(t: TestApp, c: LinkedCase, as: Role, name: string, fields: Record<string, unknown> = {}): Promise<any> {
  const res = await t.request('POST', `${NS}/${c.path}`, { as, body: { [c.kind]: name, ...fields } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

export async function getLinked(t: TestApp, c: LinkedCase, id: number, as: Caller = 'administrator', query = ''): Promise<any> {
  const res = await t.request('GET', `${NS}/${c.path}/${id}${query}`, { as });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

export interface EventFixture {
  status?: string;
  /** UTC start `YYYY-MM-DD HH:MM:SS`. */
  startUtc?: string;
  venueId?: number | null;
  organizerIds?: number[];
}

/**
 * An event row written straight into storage: the event routes belong to another module, and
 * these tests only need the links and the columns the venue/organizer filters read.
 */
export async function insertEvent(t: TestApp, fixture: EventFixture = {}): Promise<number> {
  const db = t.storage.db;
  const id = await new ObjectsRepository(db).allocate('event');
  const start = fixture.startUtc ?? '2030-01-01 10:00:00';
  await db
    .insertInto('events')
    .values({
      id,
      author: t.users.administrator.id,
      status: fixture.status ?? 'publish',
      pre_trash_status: null,
      slug: `event-${id}`,
      pre_trash_slug: null,
      password: '',
      description: '',
      excerpt: '',
      date_local: '2024-01-01 00:00:00',
      date_utc: '2024-01-01 00:00:00',
      modified_local: '2024-01-01 00:00:00',
      modified_utc: '2024-01-01 00:00:00',
      image_id: null,
      title: `Event ${id}`,
      start_local: start,
      end_local: start,
      start_utc: start,
      end_utc: start,
      timezone: 'UTC',
      timezone_abbr: 'UTC',
      all_day: 0,
      cost: '[]',
      currency_symbol: '',
      currency_position: '',
      website: null,
      show_map: null,
      show_map_link: null,
      hide_from_listings: 0,
      sticky: 0,
      featured: 0,
      venue_id: fixture.venueId ?? null,
      post_parent: 0,
    })
    .execute();
  for (const [position, organizerId] of (fixture.organizerIds ?? []).entries()) {
    await db.insertInto('event_organizers').values({ event_id: id, organizer_id: organizerId, position }).execute();
  }
  return id;
}

/** Ids of a list response's items. */
export function ids(body: any, c: LinkedCase): number[] {
  return body[c.path].map((item: { id: number }) => item.id);
}

/** A clock the test moves by hand. */
export function manualClock(start: string): { clock: () => Date; set(iso: string): void } {
  let now = new Date(start);
  return { clock: () => now, set: (iso) => (now = new Date(iso)) };
}
