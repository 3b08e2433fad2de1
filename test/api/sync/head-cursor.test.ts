import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { pruneChanges } from '../../../src/services/feed-jobs.ts';
import { feedSettled } from './feed-settled.ts';

/**
 * 80 §3.5 `start=now`: a fresh cursor sits after every entry already written, including the last
 * ones of a write that recorded several. On PostgreSQL the head was once ordered by the text of
 * txid and seq, so "9" came after "10" and a fresh cursor repeated the end of such a write.
 */
const NOW = new Date('2031-08-01T12:00:00Z');

for (const dialect of DIALECTS) {
  describe(`change feed head cursor (${dialect})`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      // Pinned: the series lies within its horizon (60 §4.1), so all four occurrences exist.
      t = await startTestApp(dialect, { clock: () => NOW });
    });
    after(() => t?.close());

    it('after five events and a weekly series of four, reading from a fresh cursor gives no entry', async () => {
      for (let day = 1; day <= 5; day++) {
        const created = await t.request('POST', `${NS}/events`, { as: 'editor', body: { title: `Single ${day}`, status: 'publish', start_date: `2031-09-0${day} 10:00`, end_date: `2031-09-0${day} 11:00` } });
        assert.equal(created.status, 201, created.text);
      }
      const series = await t.request('POST', `${NS}/events`, {
        as: 'editor',
        body: { title: 'Weekly', status: 'publish', start_date: '2031-10-06 18:00', end_date: '2031-10-06 19:00', recurrence: 'FREQ=WEEKLY;COUNT=4' },
      });
      assert.equal(series.status, 201, series.text);
      // What exposes a text order: the series' own entries run from one digit to two.
      const seqs = (await sql<{ seq: string }>`select seq from changes where record_id = ${series.body.id} or record_id in (select id from events where post_parent = ${series.body.id})`.execute(t.storage.db)).rows.map((row) => Number(row.seq));
      assert.ok(Math.min(...seqs) <= 9 && Math.max(...seqs) >= 10, `the series' entries cross from 9 to 10: ${seqs.join(', ')}`);

      await feedSettled(t);
      const fresh = await t.request('GET', `${NS}/changes`, { as: 'administrator' });
      assert.equal(fresh.status, 200, fresh.text);
      assert.deepEqual(fresh.body.changes, []);
      const next = await t.request('GET', `${NS}/changes?cursor=${fresh.body.next_cursor}`, { as: 'administrator' });
      assert.equal(next.status, 200, next.text);
      assert.deepEqual(next.body.changes, []);
    });

    it('pruning every entry older than the retention deletes them all, the last of a write included', async () => {
      assert.ok((await pruneChanges(t.storage.db, 1, new Date('2100-01-01T00:00:00Z'))) > 0);
      assert.deepEqual(await t.storage.db.selectFrom('changes').select('seq').execute(), []);
    });
  });
}
