import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { feedSettled } from './feed-settled.ts';

/**
 * 80 §3.7, the core problem: several instances write to one database, transactions commit in
 * another order than they took their sequence numbers, and a reader polling the feed with its
 * cursor meanwhile must end with every entry exactly once — no gap, no duplicate. (Writers
 * interleave: migration 0008 removed the data-version row every writer used to queue on.)
 */

const DATES = { start_date: '2031-05-01 10:00', end_date: '2031-05-01 12:00' };

interface FeedEntry {
  type: string;
  id: number;
  op: string;
  cursor: string;
}

/** Reads the feed to its current end from `cursor`; returns the entries and the cursor to go on with. */
async function drain(app: TestApp, cursor: string): Promise<{ entries: FeedEntry[]; cursor: string }> {
  const entries: FeedEntry[] = [];
  for (;;) {
    const page = await app.request('GET', `${NS}/changes?limit=7&cursor=${cursor}`, { as: 'administrator' });
    assert.equal(page.status, 200, page.text);
    entries.push(...page.body.changes);
    cursor = page.body.next_cursor;
    if (!page.body.has_more) return { entries, cursor };
  }
}

/** Every entry in the log, in the order the feed must give them. */
async function logOrder(app: TestApp, dialect: string): Promise<string[]> {
  const query = dialect === 'postgres'
    ? sql<{ key: string }>`select kind || ':' || record_id || ':' || seq as key from changes order by txid, seq`
    : sql<{ key: string }>`select kind || ':' || record_id || ':' || seq as key from changes order by seq`;
  return (await query.execute(app.storage.db)).rows.map((row) => row.key);
}

for (const dialect of DIALECTS) {
  describe(`change feed ordering, two instances on one database (${dialect})`, { skip: skipReason(dialect) }, () => {
    let a: TestApp;
    let b: TestApp;
    before(async () => {
      a = await startTestApp(dialect);
      // SQLite is one process with one connection: the "second instance" is the same one.
      b = dialect === 'postgres' ? await startTestApp(dialect, { sharing: a }) : a;
    });
    after(async () => {
      if (b !== a) await b?.close();
      await a?.close();
    });

    // (SQLite has one connection per process, running one transaction at a time: nothing interleaves.)
    if (dialect === 'postgres') it('a transaction still open holds back later commits instead of being skipped (a seq-only reader loses it)', async () => {
      const venue = await a.request('POST', `${NS}/venues`, { as: 'editor', body: { venue: 'Slow hall' } });
      assert.equal(venue.status, 201, venue.text);
      // Another test file's open transaction would hold the horizon below the venue's creation.
      await feedSettled(a);
      let cursor = (await a.request('GET', `${NS}/changes`, { as: 'administrator' })).body.next_cursor as string;
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let written!: () => void;
      const wrote = new Promise<void>((resolve) => (written = resolve));
      const seqBefore = Number((await sql<{ n: string }>`select coalesce(max(seq), 0) as n from changes`.execute(a.storage.db)).rows[0].n);
      // Instance A: a write that takes its sequence number first and commits last.
      const slow = a.storage.db.transaction().execute(async (trx) => {
        await trx.updateTable('venues').set({ name: 'Slow hall, renamed' }).where('id', '=', venue.body.id).execute();
        written();
        await released;
      });
      await wrote;
      // Instance B: a write that commits while A's is open.
      const fast = await b.request('POST', `${NS}/events`, { as: 'editor', body: { title: 'Fast', ...DATES } });
      assert.equal(fast.status, 201, fast.text);
      const early = await drain(b, cursor);
      assert.deepEqual(early.entries, [], 'the committed later entry is withheld while an earlier transaction is open');
      // What a bigserial-only reader would have done now: it sees the event, and moves past the venue's number.
      const naive = (await sql<{ seq: string; kind: string }>`select seq, kind from changes where seq > ${seqBefore} order by seq`.execute(b.storage.db)).rows;
      assert.deepEqual(naive.map((row) => row.kind), ['event'], 'the interleaving happened: only the later entry is visible');
      release();
      await slow;
      await feedSettled(a);
      const late = await drain(a, early.cursor);
      assert.deepEqual(late.entries.map((entry) => `${entry.type}:${entry.id}:${entry.op}`), [`venue:${venue.body.id}:update`, `event:${fast.body.id}:create`]);
      cursor = late.cursor;
      assert.deepEqual((await drain(b, cursor)).entries, []);
    });

    it('concurrent writers through both instances and a polling reader: every entry exactly once, in log order', async () => {
      const start = await a.request('GET', `${NS}/changes`, { as: 'administrator' });
      const before = (await logOrder(a, dialect)).length;
      const seen: FeedEntry[] = [];
      let cursor = start.body.next_cursor as string;
      let writing = true;
      const reader = (async () => {
        let turn = 0;
        while (writing) {
          const page = await drain(turn++ % 2 === 0 ? a : b, cursor);
          seen.push(...page.entries);
          cursor = page.cursor;
          // Injected GETs on SQLite complete in microtasks: let the writers' I/O run between polls.
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      // One writer holds its transaction open (rows written, commit later) while the others go on.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const held = async () => {
        await a.storage.db.transaction().execute(async (trx) => {
          await trx.insertInto('terms').values({ taxonomy: 'post_tag', name: 'held', slug: 'held', description: '', parent: 0 }).execute();
          await released;
        });
      };
      // (On SQLite a held transaction would hold the one connection: it writes after the others.)
      const holder = dialect === 'postgres' ? held() : released.then(held);
      const writes = Array.from({ length: 24 }, async (_, index) => {
        const app = index % 2 === 0 ? a : b;
        const created = await app.request('POST', `${NS}/events`, { as: 'editor', body: { title: `W${index}`, ...DATES } });
        assert.equal(created.status, 201, created.text);
        if (index === 12) release();
        const updated = await app.request('PATCH', `${NS}/events/${created.body.id}`, { as: 'editor', body: { title: `W${index}b` } });
        assert.equal(updated.status, 200, updated.text);
        return created.body.id as number;
      });
      let ids: number[];
      try {
        ids = await Promise.all(writes);
        await holder;
      } finally {
        release();
        writing = false;
        await reader;
      }
      await feedSettled(a);
      const rest = await drain(b, cursor);
      seen.push(...rest.entries);
      const keys = seen.map((entry) => `${entry.type}:${entry.id}:${Buffer.from(entry.cursor, 'base64url').toString()}`);
      assert.equal(new Set(keys).size, keys.length, 'no duplicate');
      const expected = (await logOrder(a, dialect)).slice(before);
      const got = seen.map((entry) => {
        const position = JSON.parse(Buffer.from(entry.cursor, 'base64url').toString());
        return `${entry.type}:${entry.id}:${position.s}`;
      });
      assert.deepEqual(got, expected, 'no gap, in (txid, seq) order');
      for (const id of ids) {
        assert.deepEqual(seen.filter((entry) => entry.id === id && entry.type === 'event').map((entry) => entry.op), ['create', 'update']);
      }
      assert.ok(seen.some((entry) => entry.type === 'tag'), 'the held transaction appears once it commits');
    });
  });
}
