import assert from 'node:assert/strict';
import { describe, it, before, after } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { listChangesAfter, FEED_START, type ChangeEntry } from '../../../src/storage/repositories/changes-repository.ts';
import { feedSettled } from './feed-settled.ts';

/** The change log (80 §3.3, migration 0009): every write records its entry in its own transaction. */
for (const dialect of DIALECTS) {
  describe(`change log (${dialect})`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect);
    });
    after(() => t?.close());

    const all = async (): Promise<ChangeEntry[]> => {
      await feedSettled(t);
      return (await listChangesAfter(t.storage.db, FEED_START, 10_000)).entries;
    };
    const since = async (count: number) => (await all()).slice(count).map((e) => `${e.kind}:${e.op}`);

    it('records one entry per record per write, with op and revision', async () => {
      const base = (await all()).length;
      const created = await t.request('POST', `${NS}/events`, { as: 'editor', body: { title: 'A', start_date: '2030-01-01 10:00', end_date: '2030-01-01 11:00', categories: 'music', venue: { venue: 'Hall' } } });
      assert.equal(created.status, 201);
      assert.deepEqual((await since(base)).sort(), ['category:create', 'event:create', 'venue:create']);
      const id = created.body.id;
      const revision = async () => Number((await t.storage.db.selectFrom('events').select('revision').where('id', '=', id).executeTakeFirstOrThrow()).revision);
      const first = await revision();
      const mark = (await all()).length;
      assert.equal((await t.request('POST', `${NS}/events/${id}`, { as: 'editor', body: { title: 'B', tags: 'x,y' } })).status, 200);
      assert.deepEqual((await since(mark)).sort(), ['event:update', 'tag:create', 'tag:create']);
      assert.ok((await revision()) > first);
      const r = await revision();
      // A no-op lock (the repository's portable row lock) is no write.
      await t.storage.db.updateTable('events').set((eb) => ({ modified_utc: eb.ref('modified_utc') })).where('id', '=', id).execute();
      assert.equal(await revision(), r);
      const mark2 = (await all()).length;
      assert.equal((await t.request('DELETE', `${NS}/events/${id}`, { as: 'editor' })).status, 200);
      assert.deepEqual(await since(mark2), ['event:trash']);
      assert.equal((await t.request('DELETE', `${NS}/events/${id}?force=true`, { as: 'editor' })).status, 200);
      assert.deepEqual(await since(mark2), ['event:trash', 'event:delete']);
    });

    it("moving an event's start moves its term links' copy of it (0018), which is no change of its own", async () => {
      const created = await t.request('POST', `${NS}/events`, { as: 'editor', body: { title: 'Moved', start_date: '2030-02-01 10:00', end_date: '2030-02-01 11:00', categories: 'moving', tags: 'moving-tag' } });
      assert.equal(created.status, 201);
      const id = created.body.id;
      const stored = async () => ({
        revision: Number((await t.storage.db.selectFrom('events').select('revision').where('id', '=', id).executeTakeFirstOrThrow()).revision),
        starts: (await t.storage.db.selectFrom('event_terms').select('start_local').where('event_id', '=', id).execute()).map((link) => link.start_local),
      });
      const before = await stored();
      assert.deepEqual(before.starts, ['2030-02-01 10:00:00', '2030-02-01 10:00:00']);
      const mark = (await all()).length;
      assert.equal((await t.request('POST', `${NS}/events/${id}`, { as: 'editor', body: { start_date: '2030-03-05 09:00', end_date: '2030-03-05 10:00' } })).status, 200);
      assert.deepEqual(await since(mark), ['event:update']);
      assert.deepEqual(await stored(), { revision: before.revision + 1, starts: ['2030-03-05 09:00:00', '2030-03-05 09:00:00'] });
    });
  });
}
