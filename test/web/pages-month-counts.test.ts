import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { copyEvents } from '../../bench/bulk-copy.ts';
import { DIALECTS, skipReason } from '../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../helpers/test-app.ts';

const NOW = new Date('2026-04-10T10:00:00Z');

// 55 §4: a month grid lists at most 2,000 events; beyond, every cell shows how many it has.
for (const dialect of DIALECTS) {
  describe(`a month with more than 2,000 events [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock: () => NOW, env: { CALENDAR_TIMEZONE: 'Europe/Copenhagen' } });
      const event = async (title: string, start: string, end: string) => {
        const res = await t.request('POST', `${NS}/events`, { as: 'administrator', body: { title, status: 'publish', start_date: start, end_date: end } });
        assert.equal(res.status, 201, res.text);
      };
      await event('Crowded Talk', '2026-06-03 10:00', '2026-06-03 11:00');
      await event('Crowded Fair', '2026-06-09 10:00', '2026-06-11 18:00');
      // Copies of these two straight into the tables (the API would take minutes): 1,001 of each.
      await copyEvents(t.config.databaseUrl, 2002);
      await event('Quiet July', '2026-07-15 10:00', '2026-07-15 11:00');
    });
    after(() => t.close());

    test('the crowded month shows per-day counts and a notice, no event links', async () => {
      const res = await t.request('GET', '/events/2026-06/');
      assert.equal(res.status, 200);
      assert.match(res.text, /<div role="status" class="notices"><p>This month has more than 2000 events: each day shows how many it has.<\/p>/);
      const counts = [...res.text.matchAll(/<a href="\/events\/(2026-06-\d\d)\/" aria-label="(\d+) events on [^"]+">(\d+) events<\/a>/g)].map((m) => [m[1], Number(m[2]), Number(m[3])]);
      assert.deepEqual(counts, [
        ['2026-06-03', 1001, 1001],
        ['2026-06-09', 1001, 1001],
        ['2026-06-10', 1001, 1001],
        ['2026-06-11', 1001, 1001],
      ]);
      assert.doesNotMatch(res.text, /href="\/event\//);
      assert.doesNotMatch(res.text, /application\/ld\+json/);
      assert.equal(res.headers['x-robots-tag'], undefined);
      // A day link opens the day view, which lists up to 500 of them.
      const day = await t.request('GET', '/events/2026-06-03/');
      assert.equal(day.status, 200);
      assert.match(day.text, /Only the first 500 events are shown\./);
    });

    test('a month under the limit still lists its events', async () => {
      const res = await t.request('GET', '/events/2026-07/');
      assert.match(res.text, /<a href="\/event\/quiet-july\/">Quiet July<\/a>/);
      assert.doesNotMatch(res.text, /each day shows how many/);
    });
  });
}
