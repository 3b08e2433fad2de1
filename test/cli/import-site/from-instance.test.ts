import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { COLLECTIONS, comparable, everything, fillSource, runImport, startSource, type SourceInstance } from './support.ts';

const ORIGINS = (source: SourceInstance) => [source.origin, 'http://calendar.test'];

function bySlug(records: any[], origins: string[]): Map<string, unknown> {
  return new Map(records.map((record) => [`${record.slug}|${record.title ?? ''}|${record.start_date ?? ''}`, comparable(record, origins)]));
}

/** 90 §3 rows 1–3: a second running instance as the source, each dialect as the target. */
for (const dialect of DIALECTS) {
  describe(`calendar import site from a running instance [${dialect} target]`, { skip: skipReason(dialect) }, () => {
    let source: SourceInstance;
    let target: TestApp;
    const credentials = () => ['--user', source.admin.login, `--password=${source.admin.password}`, '--allow-private', '--json'];
    const importNow = async (...extra: string[]) => {
      const run = await runImport(target.config.databaseUrl, [source.origin, ...credentials(), ...extra]);
      assert.ok(run.report, `no JSON summary: ${run.stdout} ${run.stderr}`);
      return run;
    };
    const targetGet = async (path: string) => {
      const res = await target.request('GET', `${NS}${path}`, { as: 'administrator' });
      assert.equal(res.status, 200, res.text);
      return res.body;
    };
    const sourceGet = (path: string) => source.call('GET', path);
    const counts = (report: any, field: string) => Object.fromEntries(Object.entries(report.kinds).map(([kind, summary]: [string, any]) => [kind, summary[field]]));

    before(async () => {
      source = await startSource();
      await fillSource(source);
      target = await startTestApp(dialect);
    });
    after(async () => {
      await source?.close();
      await target?.close();
    });

    test('row 1: every record equal after id mapping, counts and totals equal', async () => {
      const run = await importNow();
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.deepEqual(counts(run.report, 'created'), { category: 3, tag: 2, venue: 3, organizer: 2, event: 6 });
      assert.deepEqual(run.report.skipped, []);
      assert.deepEqual(run.report.failed_pages, []);
      assert.deepEqual(run.report.warnings, []);
      // Protected records keep their passwords (the source shows them to its administrator).
      const members = (await everything(targetGet, 'events')).records.find((event: any) => event.title === 'Members Evening');
      assert.equal((await target.request('GET', `${NS}/events/${members.id}`)).body.code, 'event-password-protected');
      assert.equal((await target.request('GET', `${NS}/events/${members.id}?password=members`)).status, 200);
      const cellar = (await everything(targetGet, 'venues')).records.find((venue: any) => venue.slug === 'secret-cellar');
      assert.equal((await target.request('GET', `${NS}/venues/${cellar.id}?password=cellar`)).body.venue, 'Secret Cellar');
      for (const collection of COLLECTIONS) {
        const [from, to] = [await everything(sourceGet, collection), await everything(targetGet, collection)];
        assert.equal(to.total, from.total, collection);
        assert.deepEqual(bySlug(to.records, ORIGINS(source)), bySlug(from.records, ORIGINS(source)), collection);
      }
      // Visitors see the same public lists on both sides (records of equal sort keys in any order).
      const unordered = (body: any, collection: string) => {
        const shown = comparable(body, ORIGINS(source)) as any;
        return { ...shown, [collection]: shown[collection].map((record: unknown) => JSON.stringify(record)).sort() };
      };
      for (const collection of COLLECTIONS) {
        const visitor = await target.request('GET', `${NS}/${collection}`);
        const original = await (await fetch(`${source.root}/${collection}`)).json();
        assert.deepEqual(unordered(visitor.body, collection), unordered(original, collection), collection);
      }
    });

    test('row 2: a re-run is all unchanged; one source edit is one update; a source trash with --prune trashes one copy', async () => {
      const again = await importNow();
      assert.equal(again.code, 0, again.stderr);
      assert.deepEqual(counts(again.report, 'created'), { category: 0, tag: 0, venue: 0, organizer: 0, event: 0 });
      assert.deepEqual(counts(again.report, 'updated'), { category: 0, tag: 0, venue: 0, organizer: 0, event: 0 });
      assert.deepEqual(counts(again.report, 'unchanged'), { category: 3, tag: 2, venue: 3, organizer: 2, event: 6 });

      const events = (await everything(sourceGet, 'events')).records;
      const fair = events.find((event: any) => event.title === 'Harvest Fair');
      await source.call('POST', `/events/${fair.id}`, { title: 'Harvest Fair, extended', end_date: '2030-09-04 23:59:59' });
      const edited = await importNow();
      assert.deepEqual(counts(edited.report, 'updated'), { category: 0, tag: 0, venue: 0, organizer: 0, event: 1 });
      const copies = (await everything(targetGet, 'events')).records.filter((event: any) => event.title.startsWith('Harvest Fair'));
      assert.deepEqual(copies.map((event: any) => [event.title, event.end_date]), [['Harvest Fair, extended', '2030-09-04 23:59:59']]);

      await source.call('DELETE', `/events/${fair.id}`);
      const dry = await importNow('--prune', '--dry-run');
      assert.equal(dry.report.kinds.event.trashed, 1);
      assert.equal((await everything(targetGet, 'events')).records.filter((event: any) => event.status === 'trash').length, 0, 'a dry run writes nothing');
      const pruned = await importNow('--prune');
      assert.deepEqual(counts(pruned.report, 'trashed'), { category: 0, tag: 0, venue: 0, organizer: 0, event: 1 });
      const trashed = await target.request('GET', `${NS}/events/${copies[0].id}`, { as: 'administrator' });
      assert.equal(trashed.body.code, 'event-no-longer-available');
    });

    test('records not imported from this source are never touched, even with --prune', async () => {
      const own = await target.request('POST', `${NS}/venues`, { as: 'administrator', body: { venue: 'Town Hall', city: 'Local' } });
      assert.equal(own.status, 201);
      const run = await importNow('--prune');
      assert.equal(run.code, 0);
      const after = await target.request('GET', `${NS}/venues/${own.body.id}`, { as: 'administrator' });
      assert.equal(after.body.status, 'publish');
      assert.equal(after.body.city, 'Local');
    });
  });
}
