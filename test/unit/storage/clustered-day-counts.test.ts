import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { openStorage } from '../../../src/storage/database.ts';
import { forgetMigrationsFrom } from '../../helpers/migrations.ts';
import { clock, createEvent, list } from '../../api/events/fixtures.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';

const KEY = 'clock, status, start_day, end_day, hidden';

// Migration 0020: on SQLite the day counts of 0011 are stored in the order of their key.
describe('SQLite: the day counts a list total adds up are stored in their key order', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp('sqlite', { clock });
  });
  after(() => t.close());

  const layout = async () => (await sql<{ sql: string }>`select sql from sqlite_master where name = 'event_day_counts'`.execute(t.storage.db)).rows[0].sql;
  // A text of its own each time: a kept EXPLAIN statement would show the plan of the schema it was prepared on.
  let explained = 0;
  const totalPlan = async () =>
    (
      await sql.raw<{ detail: string }>(`explain query plan select sum(n) /* ${++explained} */ from event_day_counts
        where clock = 'local' and status in ('publish') and start_day >= '2025-05-01' and end_day <= '2025-05-31' and hidden = 0`).execute(t.storage.db)
    ).rows.map((row) => row.detail).join('\n');
  const counts = () => sql.raw(`select ${KEY}, n from event_day_counts order by ${KEY}`).execute(t.storage.db).then((result) => result.rows);
  const mayTotal = async () => (await list(t, '?start_date=2025-05-01&end_date=2025-05-31')).total;

  test('an existing database has them rebuilt under the same name, same rows, kept by the same triggers', async () => {
    for (const day of ['03', '17']) await createEvent(t, 'editor', { start_date: `2025-05-${day} 20:00:00`, end_date: `2025-05-${day} 22:00:00` });
    const { db } = t.storage;
    // The table as 0011 made it and 0019 left it: rows by rowid, the key an index beside them.
    await sql`pragma legacy_alter_table = on`.execute(db);
    await sql.raw(`create table rowid_day_counts (clock text not null, status text not null, start_day text not null, end_day text not null, hidden integer not null,
      n integer not null, constraint event_day_counts_pk primary key (${KEY}))`).execute(db);
    await sql.raw(`insert into rowid_day_counts select ${KEY}, n from event_day_counts`).execute(db);
    await sql`drop table event_day_counts`.execute(db);
    await sql`alter table rowid_day_counts rename to event_day_counts`.execute(db);
    await sql`pragma legacy_alter_table = off`.execute(db);
    await forgetMigrationsFrom(db, 'sqlite', '0020-clustered-day-counts');
    assert.match(await totalPlan(), /USING INDEX sqlite_autoindex_event_day_counts/);
    const before = await counts();
    assert.equal(await mayTotal(), 2);

    const upgraded = await openStorage(t.databaseUrl);
    await upgraded.close();

    assert.match(await layout(), /\) without rowid$/);
    assert.match(await totalPlan(), /SEARCH event_day_counts USING PRIMARY KEY \(clock=\? AND status=\? AND start_day>\?\)/);
    assert.deepEqual(await counts(), before);
    const added = await createEvent(t, 'editor', { start_date: '2025-05-20 20:00:00', end_date: '2025-05-20 22:00:00' });
    assert.equal(await mayTotal(), 3);
    assert.equal((await t.request('DELETE', `/calendar/events/v1/events/${added.id}`, { as: 'editor' })).status, 200);
    assert.equal(await mayTotal(), 2);
  });
});
