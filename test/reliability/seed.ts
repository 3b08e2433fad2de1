import { sql } from 'kysely';
import type { Caller, TestApp } from '../helpers/test-app.ts';
import { NS } from '../helpers/test-app.ts';

let counter = 0;

async function create(t: TestApp, as: Caller, path: string, body: Record<string, unknown>): Promise<any> {
  const res = await t.request('POST', `${NS}${path}`, { as, body });
  if (res.status !== 201) throw new Error(`seeding POST ${path} as ${as} answered ${res.status}: ${res.text}`);
  return res.body;
}

async function routeExists(t: TestApp, collection: string): Promise<boolean> {
  const index = await t.request('GET', NS);
  return `/calendar/events/v1/${collection}` in index.body.routes;
}

/**
 * A small, varied data set made through the API, so that generated ids and slugs hit real
 * records of every kind and status: published and draft venues, a protected organizer, a
 * category and a tag, published, draft, protected and trashed events, a trashed venue.
 */
export async function seedRecords(t: TestApp): Promise<void> {
  const n = ++counter;
  const venue = await create(t, 'editor', '/venues', { venue: `Seed Hall ${n}`, city: 'Pisa', address: 'Via Roma 1' });
  await create(t, 'contributor', '/venues', { venue: `Draft Hall ${n}`, status: 'draft' });
  const trashedVenue = await create(t, 'author', '/venues', { venue: `Gone Hall ${n}` });
  await t.request('DELETE', `${NS}/venues/${trashedVenue.id}`, { as: 'author' });
  const organizer = await create(t, 'editor', '/organizers', { organizer: `Seed Society ${n}`, email: 'seed@example.org' });
  await create(t, 'author', '/organizers', { organizer: `Locked Society ${n}`, password: 'sesame' });
  const category = await create(t, 'editor', '/categories', { name: `Seed Music ${n}` });
  const tag = await create(t, 'editor', '/tags', { name: `seed-tag-${n}` });
  if (!(await routeExists(t, 'events'))) return;
  const dates = { start_date: '2030-05-01 19:00', end_date: '2030-05-01 22:00' };
  await create(t, 'editor', '/events', {
    title: `Seed Concert ${n}`,
    ...dates,
    venue: venue.id,
    organizer: [organizer.id],
    categories: [category.id],
    tags: [tag.id],
    cost: '10',
  });
  await create(t, 'contributor', '/events', { title: `Draft Concert ${n}`, ...dates, status: 'draft' });
  await create(t, 'author', '/events', { title: `Locked Concert ${n}`, ...dates, password: 'sesame' });
  const trashed = await create(t, 'author', '/events', { title: `Gone Concert ${n}`, ...dates });
  await t.request('DELETE', `${NS}/events/${trashed.id}`, { as: 'author' });
}

/** Existing identifiers of every kind, for path segments that hit real records. */
export interface Pool {
  /** Record and term ids (events namespace). */
  ids: number[];
  /** User ids that generated requests may change or delete (admin namespace). */
  userIds: number[];
  slugs: string[];
}

export async function identifierPool(t: TestApp): Promise<Pool> {
  const db = t.storage.db;
  const objects = await db.selectFrom('objects').select('id').execute();
  const terms = await db.selectFrom('terms').select('id').execute();
  const slugs = await sql<{ slug: string }>`select slug from events union select slug from venues union select slug from organizers`.execute(db);
  return {
    ids: [...objects.map((row) => row.id), ...terms.map((row) => row.id)],
    // Only the second user of each role: the first ones sign the generated requests and must survive them.
    userIds: Object.values(t.others).map((user) => user.id),
    slugs: slugs.rows.map((row) => row.slug).filter((slug) => slug !== ''),
  };
}
