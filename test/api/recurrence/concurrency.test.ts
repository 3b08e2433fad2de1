import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { clock, createSeries, EVENTS, occurrencesOf } from './support.ts';

// 60 §10: concurrent `all` and `this` edits of one series end consistent (on PostgreSQL the pool
// runs them on several connections at once; the master's row lock orders them).
for (const dialect of DIALECTS) {
  describe(`recurrence: concurrent series edits [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock });
    });
    after(() => t.close());

    test('all and this at once: no duplicate keys, no lost override', async () => {
      const master = await createSeries(t, { start_date: '2025-04-07 19:30', end_date: '2025-04-07 21:00', timezone: 'Europe/Rome', status: 'publish', recurrence: { rrule: 'FREQ=WEEKLY;COUNT=8' } });
      const occ = await occurrencesOf(t, master.id);
      const writes = [];
      for (let round = 0; round < 4; round++) {
        writes.push(t.request('POST', `${EVENTS}/${master.id}`, { as: 'editor', body: { title: `Series ${round}`, start_date: `2025-04-07 ${19 + (round % 2)}:30`, end_date: '2025-04-07 22:00' } }));
        writes.push(t.request('POST', `${EVENTS}/${occ[round + 1].id}`, { as: 'editor', body: { title: `Own ${round}` } }));
      }
      const answers = await Promise.all(writes);
      for (const res of answers) assert.equal(res.status, 200, JSON.stringify(res.body));
      const after = await occurrencesOf(t, master.id);
      assert.equal(after.length, 8);
      assert.equal(new Set(after.map((e) => e.recurrence_id.slice(0, 10))).size, 8);
      assert.deepEqual(after.map((e) => e.id).sort(), occ.map((e) => e.id).sort());
      for (let round = 0; round < 4; round++) assert.equal(after.find((e) => e.id === occ[round + 1].id)!.title, `Own ${round}`);
      const series = after.filter((e) => !e.title.startsWith('Own'));
      assert.equal(new Set(series.map((e) => e.title)).size, 1);
      const rows = await t.storage.db.selectFrom('events').select(['recurrence_key']).where('post_parent', '=', master.id).execute();
      assert.equal(new Set(rows.map((row) => row.recurrence_key)).size, rows.length);
    });
  });
}
