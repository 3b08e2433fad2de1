import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { openStorage } from '../../../src/storage/database.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { clock, createEvent, listedIds } from './fixtures.ts';
import { forgetMigrationsFrom } from '../../helpers/migrations.ts';

/** What migration 0018 added, taken away again: the database as an earlier release left it. */
const UNDO: Record<string, string[]> = {
  sqlite: [
    'drop trigger events_term_starts',
    'drop trigger event_terms_start_fill',
    'drop index event_terms_term_start',
    'alter table event_terms drop column start_local',
  ],
  postgres: [
    'drop trigger events_term_starts on events',
    'drop function events_term_starts()',
    'drop trigger event_terms_start_fill on event_terms',
    'drop function event_terms_start_fill()',
    'drop index event_terms_term_start',
    'alter table event_terms drop column start_local',
  ],
};

// Migration 0018: term links carry their event's local start, for windowed term-filtered lists.
for (const dialect of DIALECTS) {
  describe(`events: term links' starts [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock });
    });
    after(() => t.close());

    test('an existing database gets every link its start, without a revision or a change-log entry', async () => {
      const may = await createEvent(t, 'editor', { categories: 'Upgrade Kept', tags: 'upgrade-tag', start_date: '2025-05-03 20:00:00', end_date: '2025-05-03 22:00:00' });
      const june = await createEvent(t, 'editor', { categories: 'Upgrade Kept', start_date: '2025-06-07 20:00:00', end_date: '2025-06-07 22:00:00' });
      const { db } = t.storage;
      for (const statement of UNDO[dialect]) await sql.raw(statement).execute(db);
      await sql.raw('create index event_terms_term on event_terms (term_id, event_id)').execute(db);
      // 0018 and every migration after it, as if they had not run yet.
      await forgetMigrationsFrom(db, dialect, '0018-term-link-starts');
      const revisions = () => db.selectFrom('events').select(['id', 'revision']).orderBy('id').execute();
      const changes = async () => Number((await db.selectFrom('changes').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      const [revisionsBefore, changesBefore] = [await revisions(), await changes()];

      const upgraded = await openStorage(t.databaseUrl);
      await upgraded.close();

      const links = await db.selectFrom('event_terms').innerJoin('events', 'events.id', 'event_terms.event_id')
        .select(['event_terms.start_local as copied', 'events.start_local as own']).execute();
      assert.equal(links.length, 3);
      for (const { copied, own } of links) assert.equal(copied, own);
      assert.deepEqual(await revisions(), revisionsBefore);
      assert.equal(await changes(), changesBefore);
      assert.deepEqual(await listedIds(t, '?categories=upgrade-kept&start_date=2025-06-01&end_date=2025-06-30'), [june.id]);
      assert.deepEqual(await listedIds(t, '?tags=upgrade-tag&start_date=2025-05-01&end_date=2025-05-31'), [may.id]);
    });
  });
}
