import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../helpers/test-app.ts';
import { clock, createEvent } from '../api/events/fixtures.ts';
import { fixture, rowCounts } from '../api/ical/import-helpers.ts';

/** What two calendars must agree on, per event (50 Part D round trip). */
function comparable(event: any): Record<string, unknown> {
  return {
    title: event.title,
    start_date: event.start_date,
    end_date: event.end_date,
    utc_start_date: event.utc_start_date,
    utc_end_date: event.utc_end_date,
    timezone: event.timezone,
    all_day: event.all_day,
    status: event.status,
    description: event.description,
    venue: Array.isArray(event.venue) ? null : [event.venue.venue, event.venue.geo_lat ?? null, event.venue.geo_lng ?? null],
    occurrence: event.post_parent !== undefined,
    recurrence_id: event.recurrence_id ?? null,
    recurrence_exception: event.recurrence_exception ?? null,
    organizer: event.organizer.map((organizer: any) => organizer.email),
    categories: event.categories.map((term: any) => term.name).sort(),
  };
}

for (const dialect of DIALECTS) {
  describe(`calendar import ics: a second instance agrees with the first [${dialect}]`, { skip: skipReason(dialect) }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'calendar-ics-'));
    let a: TestApp;
    let b: TestApp;
    before(async () => {
      a = await startTestApp(dialect, { clock, env: { CALENDAR_TIMEZONE: 'Europe/Rome', CALENDAR_SITE_NAME: 'First' } });
      b = await startTestApp(dialect, { clock, env: { CALENDAR_TIMEZONE: 'Europe/Rome', CALENDAR_PUBLIC_URL: 'http://second.test' } });
    });
    after(async () => {
      await a.close();
      await b.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const cli = (args: string[], input?: string) => spawnSync(process.execPath, ['bin/calendar.js', 'import', 'ics', ...args], {
      env: { ...process.env, DATABASE_URL: b.config.databaseUrl, CALENDAR_PUBLIC_URL: 'http://second.test', CALENDAR_TIMEZONE: 'Europe/Rome', CALENDAR_ADMIN_LOGIN: 'administrator' },
      encoding: 'utf8',
      input,
    });

    test('create through the API, subscribe with a category filter, import the file: the calendars agree', async () => {
      const music = { categories: ['Music'] };
      const made = [
        await createEvent(a, 'administrator', { ...music, title: 'Rome evening', start_date: '2025-04-12 19:30:00', end_date: '2025-04-12 22:00:00', timezone: 'Europe/Rome', venue: { venue: 'Teatro', address: 'Via Roma 1', city: 'Pisa' }, organizer: [{ organizer: 'Anna', email: 'anna@example.org' }], description: '<p>Bring friends.</p>' }),
        await createEvent(a, 'administrator', { ...music, title: 'New York night', start_date: '2025-04-13 21:00:00', end_date: '2025-04-14 01:00:00', timezone: 'America/New_York' }),
        await createEvent(a, 'administrator', { ...music, title: 'Tokyo morning', start_date: '2025-04-14 08:00:00', end_date: '2025-04-14 09:00:00', timezone: 'Asia/Tokyo' }),
        await createEvent(a, 'administrator', { ...music, title: 'Festival days', start_date: '2025-04-18', end_date: '2025-04-20', all_day: true }),
        await createEvent(a, 'administrator', { ...music, title: 'One day', start_date: '2025-04-21', end_date: '2025-04-21', all_day: true }),
        await createEvent(a, 'administrator', { categories: ['Music', 'Jazz'], title: 'Members only', status: 'private', start_date: '2025-04-22 20:00:00', end_date: '2025-04-22 23:00:00' }),
        await createEvent(a, 'administrator', { ...music, title: 'Locked gala', password: 'sesame', description: 'For members', start_date: '2025-04-23 20:00:00', end_date: '2025-04-23 23:00:00' }),
      ];
      await createEvent(a, 'administrator', { ...music, title: 'Hidden rehearsal', hide_from_listings: true, start_date: '2025-04-24 20:00:00', end_date: '2025-04-24 23:00:00' });
      const hall = (await a.request('POST', `${NS}/venues`, { as: 'administrator', body: { venue: 'Sala Azzurra', city: 'Pisa', geo_lat: 43.7, geo_lng: 10.4 } })).body;
      const series = await createEvent(a, 'administrator', { ...music, title: 'Weekly choir', venue: hall.id, start_date: '2025-04-07 19:00:00', end_date: '2025-04-07 21:00:00', timezone: 'Europe/Rome', recurrence: 'FREQ=WEEKLY;COUNT=5' });
      const occurrences = (await a.request('GET', `${NS}/events?post_parent=${series.id}&start_date=2025-04-01&end_date=2025-05-31`)).body.events;
      await a.request('POST', `${NS}/events/${occurrences[1].id}`, { as: 'administrator', body: { title: 'Weekly choir (guest conductor)' } });
      await a.request('POST', `${NS}/events/${occurrences[2].id}`, { as: 'administrator', body: { start_date: '2025-04-22 18:00:00', end_date: '2025-04-22 20:00:00' } });
      await a.request('DELETE', `${NS}/events/${occurrences[3].id}`, { as: 'administrator' });
      await createEvent(a, 'administrator', { categories: ['Sport'], title: 'Not in the feed', start_date: '2025-04-15 10:00:00', end_date: '2025-04-15 11:00:00' });

      const feed = await a.request('GET', `${NS}/events.ics?categories=music&start_date=2025-04-01&end_date=2025-05-31&context=edit`, { as: 'administrator' });
      assert.equal(feed.status, 200);
      const file = join(dir, 'music.ics');
      writeFileSync(file, feed.text);
      const result = cli([file, '--json']);
      assert.equal(result.status, 0, result.stderr);
      assert.equal(result.stderr, '', 'no progress display without a terminal');
      const report = JSON.parse(result.stdout);
      // The X-MICROSOFT-CDO-ALLDAYEVENT hints of the two all-day events are the ignored properties;
      // the series is one VEVENT plus the renamed and the moved occurrence.
      assert.deepEqual(report.totals, { created: 10, updated: 0, unchanged: 0, skipped: 0, ignored: 2 });

      const listed = async (t: TestApp) => (await t.request('GET', `${NS}/events?start_date=2025-04-01&end_date=2025-05-31&per_page=50&status=publish,private&context=edit`, { as: 'administrator' })).body.events;
      const first = (await listed(a)).filter((event: any) => event.title !== 'Not in the feed');
      const second = await listed(b);
      assert.deepEqual(second.map(comparable), first.map(comparable));
      assert.equal(first.length, made.length + 4, 'the trashed occurrence and the hidden event stay out');

      // Subscribing again after a change on the first instance updates only what changed.
      await a.request('POST', `${NS}/events/${made[1].id}`, { as: 'administrator', body: { title: 'New York late night', end_date: '2025-04-14 02:00:00' } });
      const changed = await a.request('GET', `${NS}/events.ics?categories=music&start_date=2025-04-01&end_date=2025-05-31&context=edit`, { as: 'administrator' });
      const counts = await rowCounts(b);
      const again = cli(['-', '--json'], changed.text);
      assert.equal(again.status, 0, again.stderr);
      assert.deepEqual(JSON.parse(again.stdout).totals, { created: 0, updated: 1, unchanged: 9, skipped: 0, ignored: 2 });
      assert.deepEqual({ ...(await rowCounts(b)) }, counts);
      assert.deepEqual((await listed(b)).map(comparable), (await listed(a)).filter((event: any) => event.title !== 'Not in the feed').map(comparable));
    });

    test('exit codes: 1 for a rejected file (nothing written), 2 for usage; text report', async () => {
      const counts = await rowCounts(b);
      const bad = join(dir, 'bad.ics');
      writeFileSync(bad, fixture('bad-date.ics'));
      const rejected = cli([bad]);
      assert.equal(rejected.status, 1);
      assert.match(rejected.stderr, /line 12: malformed-date/);
      const json = cli([bad, '--json']);
      assert.equal(json.status, 1);
      assert.deepEqual(JSON.parse(json.stdout).data, { status: 400, line: 12, reason: 'malformed-date', text: 'DTEND:2025-04-10 11:00' });
      assert.deepEqual(await rowCounts(b), counts);
      assert.equal(cli([]).status, 2);
      assert.equal(cli([bad, '--as', 'nobody']).status, 2);
      const google = join(dir, 'google.ics');
      writeFileSync(google, fixture('google.ics'));
      const dry = cli([google, '--dry-run']);
      assert.equal(dry.status, 0, dry.stderr);
      assert.match(dry.stdout, /^8\tcreated\t4ahd8sk2m3@google\.com\tSpring Concert\t$/m);
      assert.match(dry.stdout, /dry run: created 2, updated 0, unchanged 0, skipped 0, ignored 2/);
      assert.deepEqual(await rowCounts(b), counts);
    });
  });
}
