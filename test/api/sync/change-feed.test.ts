import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type Caller, type TestApp } from '../../helpers/test-app.ts';
import { pruneChanges, resetFeed } from '../../../src/services/feed-jobs.ts';
import { feedSettled } from './feed-settled.ts';

/** 80 §3: the change feed as each caller sees it, cursors and their 410s. */
const DATES = { start_date: '2031-07-01 10:00', end_date: '2031-07-01 12:00' };

for (const dialect of DIALECTS) {
  describe(`change feed (${dialect})`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect);
    });
    after(() => t?.close());

    const head = async (as: Caller) => {
      const page = await t.request('GET', `${NS}/changes`, { as });
      assert.equal(page.status, 200, page.text);
      assert.deepEqual(page.body.changes, []);
      return page.body.next_cursor as string;
    };
    const read = async (as: Caller, cursor: string) => {
      await feedSettled(t);
      const page = await t.request('GET', `${NS}/changes?cursor=${cursor}`, { as });
      assert.equal(page.status, 200, page.text);
      return page.body;
    };

    it('caller-relative effects: a visitor gets remove when a published event becomes draft or trash, nothing for drafts it never saw', async () => {
      const visitor = await head('visitor');
      const editor = await head('editor');
      const published = await t.request('POST', `${NS}/events`, { as: 'editor', body: { title: 'Public', status: 'publish', ...DATES } });
      const draft = await t.request('POST', `${NS}/events`, { as: 'editor', body: { title: 'Secret', status: 'draft', ...DATES } });
      await t.request('PATCH', `${NS}/events/${published.body.id}`, { as: 'editor', body: { status: 'draft' } });
      await t.request('PATCH', `${NS}/events/${draft.body.id}`, { as: 'editor', body: { title: 'Secret 2' } });
      await t.request('PATCH', `${NS}/events/${published.body.id}`, { as: 'editor', body: { status: 'publish' } });
      await t.request('DELETE', `${NS}/events/${published.body.id}`, { as: 'editor' });
      const seen = (body: { changes: Array<{ id: number; op: string; effect: string }> }) => body.changes.map((c) => `${c.id}:${c.op}:${c.effect}`);
      const p = published.body.id;
      const d = draft.body.id;
      assert.deepEqual(seen(await read('visitor', visitor)), [`${p}:create:upsert`, `${p}:update:remove`, `${p}:update:upsert`, `${p}:trash:remove`]);
      assert.deepEqual(seen(await read('editor', editor)), [`${p}:create:upsert`, `${d}:create:upsert`, `${p}:update:upsert`, `${d}:update:upsert`, `${p}:update:upsert`, `${p}:trash:remove`]);
      const page = await read('visitor', visitor);
      assert.equal(page.changes[0].type, 'event');
      assert.equal(page.changes[0].rest_url, `http://calendar.test${NS}/events/${p}`);
      assert.equal(page.has_more, false);
      // Entry cursors are checkpoints inside a page; limit pages with has_more and next_rest_url.
      await feedSettled(t);
      const limited = await t.request('GET', `${NS}/changes?cursor=${visitor}&limit=2`);
      assert.equal(limited.body.changes.length, 2);
      assert.equal(limited.body.has_more, true);
      assert.ok(String(limited.body.next_rest_url).includes('limit=2'));
      assert.deepEqual(seen(await read('visitor', page.changes[1].cursor)), [`${p}:update:upsert`, `${p}:trash:remove`]);
      const types = await t.request('GET', `${NS}/changes?cursor=${editor}&types=venue,tag`, { as: 'editor' });
      assert.deepEqual(types.body.changes, []);
    });

    it('a client syncing only through the feed ends with exactly what a full list read shows, for each role', async () => {
      await t.request('POST', `${NS}/events`, { as: 'editor', body: { title: 'Listed', ...DATES } });
      await t.request('POST', `${NS}/events`, { as: 'contributor', body: { title: 'Pending', status: 'pending', ...DATES } });
      await t.request('POST', `${NS}/events`, { as: 'editor', body: { title: 'Hidden', hide_from_listings: true, ...DATES } });
      await feedSettled(t);
      for (const as of ['visitor', 'subscriber', 'contributor', 'editor', 'administrator'] as const) {
        const start = await t.request('GET', `${NS}/changes?start=earliest&limit=500`, { as });
        assert.equal(start.status, 200);
        const statuses = as === 'visitor' || as === 'subscriber' ? '' : '&status=any';
        // The client applies upserts by reading the record; a contributor lists others' drafts it may not
        // read one by one (40 §7 vs §5), so its copy keeps ids only.
        const copy = new Map<number, unknown>();
        for (const entry of start.body.changes.filter((c: { type: string }) => c.type === 'event')) {
          if (entry.effect === 'remove') copy.delete(entry.id);
          else copy.set(entry.id, as === 'contributor' ? entry.id : (await t.request('GET', new URL(entry.rest_url).pathname, { as })).body.title);
        }
        const list = await t.request('GET', `${NS}/events?per_page=50&start_date=2000-01-01&end_date=2100-01-01${statuses}`, { as });
        const listed = new Map((list.body.events as Array<{ id: number; title: string }>).map((event) => [event.id, as === 'contributor' ? event.id : event.title]));
        const byId = (map: Map<number, unknown>) => [...map.entries()].sort((a, b) => a[0] - b[0]);
        assert.ok(listed.size > 0, as);
        assert.deepEqual(byId(copy), byId(listed), as);
      }
    });

    it('410: another principal or a changed access epoch, a pruned position, a reset feed; 400 for a malformed cursor', async () => {
      const cursor = await head('author');
      assert.equal((await t.request('GET', `${NS}/changes?cursor=${cursor}`, { as: 'editor' })).body.data?.reason, 'access-changed');
      await sql`update users set access_epoch = access_epoch + 1 where id = ${t.users.author.id}`.execute(t.storage.db);
      const changed = await t.request('GET', `${NS}/changes?cursor=${cursor}`, { as: 'author' });
      assert.equal(changed.status, 410);
      assert.equal(changed.body.code, 'changes-cursor-expired');
      assert.equal(changed.body.data.reason, 'access-changed');
      await feedSettled(t);
      const early = await t.request('GET', `${NS}/changes?start=earliest&limit=1`);
      const old = early.body.next_cursor;
      await t.request('POST', `${NS}/events`, { as: 'editor', body: { title: 'After', ...DATES } });
      await feedSettled(t);
      assert.ok((await pruneChanges(t.storage.db, 1, new Date(Date.now() + 3 * 86_400_000))) > 0);
      const pruned = await t.request('GET', `${NS}/changes?cursor=${old}`);
      assert.equal(pruned.status, 410);
      assert.equal(pruned.body.data.reason, 'expired');
      const current = await head('visitor');
      await resetFeed(t.storage.db);
      const reset = await t.request('GET', `/da${NS}/changes?cursor=${current}`);
      assert.equal(reset.status, 410);
      assert.equal(reset.body.data.reason, 'reset');
      for (const bad of ['nope!', Buffer.from('{"v":2}').toString('base64url')]) {
        const refused = await t.request('GET', `${NS}/changes?cursor=${bad}`);
        assert.equal(refused.status, 400);
        assert.equal(refused.body.data.details.cursor.code, 'rest_invalid_cursor');
      }
      assert.equal((await t.request('GET', `${NS}/changes?cursor=${current}&start=now`)).status, 400);
      assert.equal((await t.request('GET', `${NS}/changes?types=event,nothing`)).status, 400);
    });
  });
}
