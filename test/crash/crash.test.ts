import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openStorage, type Storage } from '../../src/storage/database.ts';
import { DIALECTS, freshDatabase, skipReason, type FreshDatabase } from '../helpers/databases.ts';
import { integrityViolations, snapshotDatabase } from '../reliability/db-snapshot.ts';
import { startService, type ServiceProcess } from './service-process.ts';

/**
 * Issue 8, crash safety: the real service as a child process, concurrent writers creating events
 * with an inline venue, an organizer, a category and a tag and updating them, SIGKILL in the
 * middle, restart on the same database. Every write acknowledged before the kill is there and
 * complete; nothing half-written is visible, through the API or in the tables.
 */

const ADMIN_PASSWORD = 'crash-test-administrator-secret-01234567';
const AUTH = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;
const NS = '/calendar/events/v1';
const WRITERS = 6;
/** Acknowledged creates after which the service is killed (writers keep going until it dies). */
const KILL_AFTER = 30;
const ROUNDS = 2;

interface Version {
  title: string;
  category: string;
}

/** What one created event must look like after the crash. */
interface Expectation {
  id: number;
  venue: string;
  organizer: string;
  tag: string;
  /** The last acknowledged version, then versions sent but not acknowledged (any may have landed). */
  acknowledged: Version;
  inFlight: Version[];
}

async function call(origin: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(origin + path, {
    method,
    headers: { authorization: AUTH, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, body: await response.json() };
}

/** Creates and updates until the service stops answering; records what it acknowledged. */
async function writer(service: ServiceProcess, round: number, worker: number, ledger: Expectation[], acknowledged: { creates: number }): Promise<void> {
  const mine: Expectation[] = [];
  // A request cut by the kill is unacknowledged; any other failure is a failure of the test.
  const send = async (method: string, path: string, body: unknown) => {
    try {
      return await call(service.origin, method, path, body);
    } catch (error) {
      if (service.killed) return undefined;
      throw error;
    }
  };
  for (let index = 0; ; index++) {
    const name = `${round}-${worker}-${index}`;
    const target = mine.length > 0 && index % 3 === 2 ? mine[index % mine.length] : undefined;
    if (target) {
      const version: Version = { title: `${target.acknowledged.title} v${index}`, category: `crash-category-${name}-v` };
      target.inFlight.push(version);
      const res = await send('PATCH', `${NS}/events/${target.id}`, { title: version.title, categories: [version.category] });
      if (!res) return;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      target.acknowledged = version;
      target.inFlight = [];
    } else {
      const version: Version = { title: `Crash concert ${name}`, category: `crash-category-${name}` };
      const res = await send('POST', `${NS}/events`, {
        title: version.title,
        start_date: '2030-06-01 19:00',
        end_date: '2030-06-01 22:00',
        venue: { venue: `Crash Hall ${name}`, city: 'Pisa' },
        organizer: [{ organizer: `Crash Society ${name}` }],
        categories: [version.category],
        tags: [`crash-tag-${name}`],
      });
      if (!res) return;
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const expectation: Expectation = { id: res.body.id, venue: `Crash Hall ${name}`, organizer: `Crash Society ${name}`, tag: `crash-tag-${name}`, acknowledged: version, inFlight: [] };
      mine.push(expectation);
      ledger.push(expectation);
      acknowledged.creates += 1;
      if (acknowledged.creates === KILL_AFTER) void service.kill();
    }
  }
}

function same(version: Version, title: string, categories: string[]): boolean {
  return version.title === title && categories.length === 1 && categories[0] === version.category;
}

async function assertAcknowledgedWritesComplete(origin: string, ledger: Expectation[]): Promise<void> {
  for (const expected of ledger) {
    const res = await call(origin, 'GET', `${NS}/events/${expected.id}`);
    assert.equal(res.status, 200, `acknowledged event ${expected.id} is missing: ${JSON.stringify(res.body)}`);
    const event = res.body;
    assert.equal(event.venue.venue, expected.venue, `event ${expected.id} lost its venue`);
    assert.deepEqual(event.organizer.map((organizer: { organizer: string }) => organizer.organizer), [expected.organizer], `event ${expected.id} lost its organizer`);
    assert.deepEqual(event.tags.map((tag: { name: string }) => tag.name), [expected.tag], `event ${expected.id} lost its tag`);
    const categories = event.categories.map((category: { name: string }) => category.name);
    const possible = [expected.acknowledged, ...expected.inFlight];
    assert.ok(
      possible.some((version) => same(version, event.title, categories)),
      `event ${expected.id} is "${event.title}" with ${JSON.stringify(categories)}; expected one of ${JSON.stringify(possible)}`,
    );
  }
}

/** Nothing half-written in the tables: every event has all it was created with, every id its record. */
async function assertNothingHalfWritten(storage: Storage): Promise<void> {
  const snapshot = await snapshotDatabase(storage);
  assert.deepEqual(integrityViolations(snapshot), []);
  const db = storage.db;
  const events = await db.selectFrom('events').select(['id', 'venue_id']).execute();
  const organizerLinks = await db.selectFrom('event_organizers').select('event_id').execute();
  const termLinks = await db.selectFrom('event_terms').innerJoin('terms', 'terms.id', 'event_terms.term_id').select(['event_id', 'taxonomy']).execute();
  for (const event of events) {
    assert.notEqual(event.venue_id, null, `event ${event.id} has no venue`);
    assert.equal(organizerLinks.filter((link) => link.event_id === event.id).length, 1, `event ${event.id} organizers`);
    assert.equal(termLinks.filter((link) => link.event_id === event.id && link.taxonomy === 'tribe_events_cat').length, 1, `event ${event.id} categories`);
    assert.equal(termLinks.filter((link) => link.event_id === event.id && link.taxonomy === 'post_tag').length, 1, `event ${event.id} tags`);
  }
  // Every venue and organizer here was created inline with an event: alone, it is the remains of a half-done create.
  const linkedVenues = new Set(events.map((event) => event.venue_id));
  for (const venue of await db.selectFrom('venues').select('id').execute()) assert.ok(linkedVenues.has(venue.id), `venue ${venue.id} without its event`);
  const linkedOrganizers = new Set((await db.selectFrom('event_organizers').select('organizer_id').execute()).map((link) => link.organizer_id));
  for (const organizer of await db.selectFrom('organizers').select('id').execute()) assert.ok(linkedOrganizers.has(organizer.id), `organizer ${organizer.id} without its event`);
}

for (const dialect of DIALECTS) {
  describe(`a killed service loses no acknowledged write [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let database: FreshDatabase;
    let service: ServiceProcess | undefined;
    before(async () => {
      database = await freshDatabase(dialect);
    });
    after(async () => {
      await service?.kill();
      await database.dispose();
    });

    test(`${ROUNDS} rounds of concurrent writers, SIGKILL, restart`, async (context) => {
      const env = { DATABASE_URL: database.url, CALENDAR_ADMIN_PASSWORD: ADMIN_PASSWORD };
      const ledger: Expectation[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        service = await startService(env);
        // A configured administrator password is never echoed (only a generated one is printed, once).
        assert.ok(!service.output().includes(ADMIN_PASSWORD));
        const acknowledged = { creates: 0 };
        await Promise.all(Array.from({ length: WRITERS }, (_, worker) => writer(service!, round, worker, ledger, acknowledged)));
        await service.kill();
        assert.equal(service.child.signalCode, 'SIGKILL', 'the service was killed in the middle, not stopped');
        const cut = ledger.filter((expected) => expected.inFlight.length > 0).length;
        context.diagnostic(`round ${round}: ${acknowledged.creates} creates acknowledged, ${ledger.length} events so far, ${cut} updates cut by the kill`);
        assert.ok(acknowledged.creates >= KILL_AFTER);

        service = await startService(env);
        await assertAcknowledgedWritesComplete(service.origin, ledger);
        const storage = await openStorage(database.url);
        try {
          await assertNothingHalfWritten(storage);
        } finally {
          await storage.close();
        }
        await service.kill();
      }
      // After all that, the service still takes writes.
      service = await startService(env);
      const res = await call(service.origin, 'POST', `${NS}/venues`, { venue: 'After the crashes' });
      assert.equal(res.status, 201);
    });
  });
}
