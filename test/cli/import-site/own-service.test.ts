import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { feedSettled } from '../../api/sync/feed-settled.ts';
import { comparable, runImport, startSource, type SourceInstance } from './support.ts';

/**
 * Issue 38 item 8: between two of our own services nothing is lost — hidden events, and series
 * copied as series (rule, exceptions, edited and moved occurrences as overrides), every record
 * read through the source's change feed as its administrator.
 */

/** Every event an administrator can reach, hidden ones and series masters included, by the feed of `get`'s service. */
async function allEvents(get: (path: string) => Promise<any>): Promise<any[]> {
  const events = new Map<number, any>();
  let page = await get(`/changes?start=earliest&include=object,hidden&types=event&limit=500`);
  for (;;) {
    for (const entry of page.changes) {
      if (entry.effect === 'upsert' && entry.object) events.set(entry.id, entry.object);
      else events.delete(entry.id);
    }
    if (!page.has_more) return [...events.values()];
    page = await get(`/changes?cursor=${page.next_cursor}&include=object,hidden&types=event&limit=500`);
  }
}

/** Records keyed by what names them on both sides; a member's series is named by the shared slug, not by its id. */
function byKey(records: any[], origins: string[]): Map<string, unknown> {
  return new Map(records.map((record) => {
    const { post_parent: parent, ...rest } = record;
    return [`${record.slug}|${record.start_date}|${parent === undefined ? 'event' : 'member'}`, comparable(rest, origins)];
  }));
}

for (const dialect of DIALECTS) {
  describe(`calendar import site from another instance of this service [${dialect} target]`, { skip: skipReason(dialect) }, () => {
    let source: SourceInstance;
    let target: TestApp;
    const importNow = async () => {
      const run = await runImport(target.config.databaseUrl, [source.origin, '--user', source.admin.login, `--password=${source.admin.password}`, '--allow-private', '--json']);
      assert.ok(run.report, `no JSON summary: ${run.stdout} ${run.stderr}`);
      return run;
    };
    const targetGet = async (path: string) => {
      // The copy's writes were another process's: on PostgreSQL the feed shows them once below the horizon.
      await feedSettled(target);
      const res = await target.request('GET', `${NS}${path}`, { as: 'administrator' });
      assert.equal(res.status, 200, res.text);
      return res.body;
    };

    before(async () => {
      source = await startSource();
      target = await startTestApp(dialect);
      const { call } = source;
      const tag = await call('POST', '/tags', { name: 'Rehearsal' });
      await call('POST', '/events', { title: 'Backstage tour', start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 11:00:00', hide_from_listings: true });
      await call('POST', '/events', { title: 'Standalone', start_date: '2027-03-02 10:00:00', end_date: '2027-03-02 11:00:00' });
      const series = await call('POST', '/events', {
        title: 'Choir', description: '<p>Weekly choir.</p>', start_date: '2027-04-05 19:30:00', end_date: '2027-04-05 21:30:00', timezone: 'Europe/Rome', tags: [tag.id],
        recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=6', exdate: ['2027-04-19'] },
      });
      const occurrences = (await call('GET', `/events?post_parent=${series.id}&start_date=2027-01-01&end_date=2027-12-31`)).events;
      assert.equal(occurrences.length, 5);
      // Edited, moved, and deleted on their own (scope this): overrides and an added exception date.
      await call('POST', `/events/${occurrences[1].id}`, { title: 'Choir: open rehearsal', description: '' });
      await call('POST', `/events/${occurrences[2].id}`, { start_date: '2027-05-04 20:00:00', end_date: '2027-05-04 22:30:00' });
      await call('DELETE', `/events/${occurrences[3].id}`);
      // A hidden series: neither its master nor its occurrences are listed.
      await call('POST', '/events', { title: 'Crew call', start_date: '2027-06-01 08:00:00', end_date: '2027-06-01 09:00:00', hide_from_listings: true, recurrence: { rrule: 'FREQ=DAILY;COUNT=2' } });
    });
    after(async () => {
      await source?.close();
      await target?.close();
    });

    test('hidden events and series arrive whole: every event equal after id mapping, the source kind reported', async () => {
      const run = await importNow();
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.equal(run.report.source_kind, 'calendar-service');
      assert.equal(run.report.source_kind_evidence, `GET ${source.root}/changes answered a change feed`);
      assert.deepEqual(run.report.warnings, []);
      assert.deepEqual(run.report.skipped, []);
      // Two standalone events, two masters, four + two occurrences.
      assert.equal(run.report.kinds.event.created, 10);
      const origins = [source.origin, 'http://calendar.test'];
      const [from, to] = [await allEvents((path) => source.call('GET', path)), await allEvents(targetGet)];
      assert.equal(to.length, 10);
      assert.deepEqual(byKey(to, origins), byKey(from, origins));
      const master = to.find((event) => event.title === 'Choir' && event.recurrence !== undefined);
      assert.deepEqual(master.recurrence.exdate, ['2027-04-19', '2027-05-03 19:30:00']);
      const members = to.filter((event) => event.post_parent === master.id).map((event) => [event.title, event.start_date, event.recurrence_exception]);
      assert.deepEqual(members.sort((a, b) => String(a[1]).localeCompare(String(b[1]))), [
        ['Choir', '2027-04-05 19:30:00', false],
        ['Choir: open rehearsal', '2027-04-12 19:30:00', true],
        ['Choir', '2027-05-04 20:00:00', true],
        ['Choir', '2027-05-10 19:30:00', false],
      ]);
    });

    test('a re-run leaves everything unchanged; an occurrence edited in the source is one update', async () => {
      const again = await importNow();
      assert.deepEqual(again.report.kinds.event, { created: 0, updated: 0, unchanged: 10, skipped: 0, trashed: 0, warnings: 0 });
      const occurrence = (await allEvents((path) => source.call('GET', path))).find((event) => event.start_date === '2027-05-10 19:30:00');
      await source.call('POST', `/events/${occurrence.id}`, { title: 'Choir: last one' });
      const edited = await importNow();
      assert.deepEqual([edited.report.kinds.event.updated, edited.report.kinds.event.unchanged], [1, 9]);
      const copies = (await allEvents(targetGet)).filter((event) => event.start_date === '2027-05-10 19:30:00');
      assert.deepEqual(copies.map((event) => [event.title, event.recurrence_exception]), [['Choir: last one', true]]);
    });
  });
}
