import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { COLLECTIONS, comparable, everything, fillSource, runImport, startSource, type SourceInstance } from './support.ts';

const EXTRA_EVENTS = 80;

/** 90 §3 row 3: SIGKILL in the middle of the event writes, then a re-run. */
for (const dialect of DIALECTS) {
  describe(`calendar import site killed and run again [${dialect} target]`, { skip: skipReason(dialect) }, () => {
    let source: SourceInstance;
    let target: TestApp;
    before(async () => {
      source = await startSource();
      await fillSource(source);
      for (let n = 1; n <= EXTRA_EVENTS; n++) {
        await source.call('POST', '/events', { title: `Lecture ${n}`, start_date: `2031-01-${String((n % 28) + 1).padStart(2, '0')} 10:00:00`, end_date: `2031-01-${String((n % 28) + 1).padStart(2, '0')} 11:00:00` });
      }
      target = await startTestApp(dialect);
    });
    after(async () => {
      await source?.close();
      await target?.close();
    });

    const count = async (table: 'events' | 'import_records') => {
      let query = target.storage.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n'));
      if (table === 'import_records') query = query.where('kind', '=', 'event') as typeof query;
      return Number((await query.executeTakeFirstOrThrow()).n);
    };
    const args = () => [source.origin, '--user', source.admin.login, `--password=${source.admin.password}`, '--allow-private', '--json'];

    test('only whole records after the kill; the re-run completes the copy without duplicates', async () => {
      const killed = await runImport(target.config.databaseUrl, args(), (child) => {
        const poll = setInterval(async () => {
          if ((await count('import_records')) >= 5) {
            clearInterval(poll);
            child.kill('SIGKILL');
          }
        }, 5);
        child.on('close', () => clearInterval(poll));
      });
      assert.equal(killed.code, null, 'the import was killed, not finished');
      const total = EXTRA_EVENTS + 6;
      const copied = await count('import_records');
      assert.ok(copied >= 5 && copied < total, `killed mid-way: ${copied} of ${total}`);
      // Each copied event has its id-map row and nothing else was written: no half records.
      assert.equal(await count('events'), copied);
      const orphans = await target.storage.db
        .selectFrom('import_records')
        .leftJoin('events', 'events.id', 'import_records.local_id')
        .where('import_records.kind', '=', 'event')
        .where('events.id', 'is', null)
        .select('import_records.local_id')
        .execute();
      assert.deepEqual(orphans, []);

      const resumed = await runImport(target.config.databaseUrl, args());
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.equal(resumed.report.kinds.event.unchanged, copied);
      assert.equal(resumed.report.kinds.event.created, total - copied);
      assert.equal(await count('events'), total);

      const targetGet = async (path: string) => (await target.request('GET', `${NS}${path}`, { as: 'administrator' })).body;
      for (const collection of COLLECTIONS) {
        const [from, to] = [await everything((path) => source.call('GET', path), collection), await everything(targetGet, collection)];
        assert.equal(to.total, from.total, collection);
        const key = (record: any) => JSON.stringify(comparable(record, [source.origin, 'http://calendar.test']));
        assert.deepEqual(to.records.map(key).sort(), from.records.map(key).sort(), collection);
      }
    });
  });

  describe(`calendar import site from a site in the WordPress layout [${dialect} target]`, { skip: skipReason(dialect) }, () => {
    let source: SourceInstance;
    let target: TestApp;
    before(async () => {
      source = await startSource({ wordpressLayout: true });
      await fillSource(source);
      target = await startTestApp(dialect);
    });
    after(async () => {
      await source?.close();
      await target?.close();
    });

    test('the site root is enough: the events API is found under /wp-json/tribe/events/v1', async () => {
      const run = await runImport(target.config.databaseUrl, [source.origin, '--user', source.admin.login, `--password=${source.admin.password}`, '--allow-private', '--json']);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.report.source, `${source.origin}/wp-json/tribe/events/v1`);
      assert.deepEqual(Object.fromEntries(Object.entries(run.report.kinds).map(([kind, summary]: [string, any]) => [kind, summary.created])), { category: 3, tag: 2, venue: 3, organizer: 2, event: 6 });
      // Without credentials only public records are copied; the protected ones as listed, with a warning each.
      const other = await startTestApp(dialect);
      try {
        const visitor = await runImport(other.config.databaseUrl, [`${source.origin}/wp-json/tribe/events/v1/`, '--allow-private', '--json']);
        assert.equal(visitor.code, 1, 'a skipped record makes exit code 1');
        assert.deepEqual(Object.fromEntries(Object.entries(visitor.report.kinds).map(([kind, summary]: [string, any]) => [kind, summary.created])), { category: 3, tag: 2, venue: 1, organizer: 2, event: 4 });
        assert.deepEqual(visitor.report.skipped.map((skip: any) => [skip.kind, skip.reason]), [['venue', 'password-protected: the source hides it, name included, without --user']]);
        assert.deepEqual(visitor.report.warnings.map((warning: any) => [warning.kind, warning.message.split('"')[1]]), [['event', 'Members Evening']]);
        const copies = await everything(async (path) => (await other.request('GET', `${NS}${path}`, { as: 'administrator' })).body, 'events');
        const copy = copies.records.find((event: any) => event.title === 'Members Evening');
        assert.equal(copy.description, '');
        assert.equal(copy.status, 'publish');
      } finally {
        await other.close();
      }
    });
  });
}
