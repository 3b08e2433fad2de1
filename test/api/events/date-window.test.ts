import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createEvent, list, listedIds, NOW } from './fixtures.ts';

/** The effective query the list repeats in its rest_url. */
async function linkQuery(t: TestApp, query: string): Promise<Record<string, string>> {
  const body = await list(t, query, 'editor');
  return Object.fromEntries(new URL(body.rest_url).searchParams);
}

const at = (start: string, end: string, extra: Record<string, unknown> = {}) => ({ start_date: start, end_date: end, ...extra });

// 10-events §4.2: the date window of the list.
for (const dialect of DIALECTS) {
  describe(`events: date window, site zone UTC [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let now = NOW;
    before(async () => {
      t = await startTestApp(dialect, { clock: () => now });
    });
    after(() => t.close());

    test('defaults: from the start of yesterday (UTC) to the end of the day 24 months ahead; not an overlap test', async () => {
      assert.deepEqual(
        Object.entries(await linkQuery(t, '')).filter(([key]) => key.endsWith('_date')),
        [['start_date', '2025-03-31 00:00:00'], ['end_date', '2027-04-01 23:59:59']],
      );
      const tooEarly = await createEvent(t, 'editor', at('2025-03-30 23:59:59', '2025-03-31 01:00', { title: 'Defmark early' }));
      const running = await createEvent(t, 'editor', at('2025-03-30 10:00', '2025-04-05 10:00', { title: 'Defmark running' }));
      const first = await createEvent(t, 'editor', at('2025-03-31 00:00:00', '2025-03-31 01:00', { title: 'Defmark first' }));
      const last = await createEvent(t, 'editor', at('2027-04-01 10:00', '2027-04-01 23:59:59', { title: 'Defmark last' }));
      const endsLate = await createEvent(t, 'editor', at('2027-04-01 10:00', '2027-04-02 00:00', { title: 'Defmark late' }));
      assert.deepEqual(await listedIds(t, '?search=defmark'), [first.id, last.id]);
      assert.deepEqual((await listedIds(t, '?search=defmark&start_date=2025-03-01&end_date=2030-01-01')).sort(),
        [tooEarly.id, running.id, first.id, last.id, endsLate.id].sort());
    });

    test('the end default rolls over at month ends like strtotime("+24 months")', async () => {
      now = new Date('2024-02-29T12:00:00Z');
      try {
        const query = await linkQuery(t, '');
        assert.equal(query.start_date, '2024-02-28 00:00:00');
        assert.equal(query.end_date, '2026-03-01 23:59:59');
      } finally {
        now = NOW;
      }
    });

    test('inclusive mode rounds to whole days (§4.2 consequences)', async () => {
      const on12 = await createEvent(t, 'editor', at('2025-04-12 09:00', '2025-04-12 11:00', { title: 'Daymark 12' }));
      const to13 = await createEvent(t, 'editor', at('2025-04-12 22:00', '2025-04-13 01:00', { title: 'Daymark 12-13' }));
      const on13 = await createEvent(t, 'editor', at('2025-04-13 09:00', '2025-04-13 11:00', { title: 'Daymark 13' }));
      const on11 = await createEvent(t, 'editor', at('2025-04-11 09:00', '2025-04-12 08:00', { title: 'Daymark 11' }));
      assert.deepEqual(await listedIds(t, '?search=daymark&start_date=2025-04-12 15:00&end_date=2025-04-12 01:00'), [on12.id]);
      assert.deepEqual(await listedIds(t, '?search=daymark&starts_after=2025-04-12'), [on13.id]);
      assert.deepEqual(await listedIds(t, '?search=daymark&ends_after=2025-04-12'), [to13.id, on13.id]);
      assert.deepEqual(await listedIds(t, '?search=daymark&starts_before=2025-04-12'), [on11.id, on12.id, to13.id]);
      assert.deepEqual(await listedIds(t, '?search=daymark&ends_before=2025-04-13'), [on11.id, on12.id, to13.id, on13.id]);
    });

    test('strict mode keeps the exact time; offsets and timestamps are instants; only 1/true/on/yes are strict', async () => {
      const morning = await createEvent(t, 'editor', at('2025-04-14 09:00', '2025-04-14 10:00', { title: 'Strictmark morning' }));
      const noon = await createEvent(t, 'editor', at('2025-04-14 12:00', '2025-04-14 13:00', { title: 'Strictmark noon' }));
      for (const strict of ['true', '1', 'on', 'YES']) {
        assert.deepEqual(await listedIds(t, `?search=strictmark&start_date=2025-04-14 10:00&strict_dates=${strict}`), [noon.id], strict);
      }
      for (const inclusive of ['false', 'no', 'off', 'abc']) {
        assert.deepEqual(await listedIds(t, `?search=strictmark&start_date=2025-04-14 10:00&strict_dates=${inclusive}`), [morning.id, noon.id], inclusive);
      }
      assert.deepEqual(await listedIds(t, `?search=strictmark&strict_dates=1&start_date=${encodeURIComponent('2025-04-14T11:30:00+02:00')}`), [noon.id]);
      const timestamp = Date.UTC(2025, 3, 14, 9, 30) / 1000;
      assert.deepEqual(await listedIds(t, `?search=strictmark&strict_dates=1&starts_after=${timestamp}`), [noon.id]);
      assert.deepEqual(await listedIds(t, `?search=strictmark&strict_dates=1&ends_before=2025-04-14 12:30`), [morning.id]);
      const query = await linkQuery(t, '?strict_dates=1&start_date=2025-04-14 10:15:30');
      assert.equal(query.start_date, '2025-04-14 10:15:30');
      assert.equal(query.strict_dates, '1');
    });

    test('a starts_*/ends_* filter drops the start_date/end_date defaults but not given bounds', async () => {
      const past = await createEvent(t, 'editor', at('2024-06-01 10:00', '2024-06-01 11:00', { title: 'Rangemark past' }));
      const far = await createEvent(t, 'editor', at('2029-06-01 10:00', '2029-06-01 11:00', { title: 'Rangemark far' }));
      assert.deepEqual(await listedIds(t, '?search=rangemark'), []);
      assert.deepEqual(await listedIds(t, '?search=rangemark&starts_after=2020-01-01'), [past.id, far.id]);
      assert.deepEqual(await listedIds(t, '?search=rangemark&ends_before=2030-01-01&end_date=2025-01-01'), [past.id]);
      const query = await linkQuery(t, '?starts_after=2020-01-01');
      assert.equal('start_date' in query || 'end_date' in query, false);
      assert.equal(query.starts_after, '2020-01-01 23:59:59');
    });

    test('with include the given start_date/end_date are replaced by the raw defaults', async () => {
      const lateYesterday = await createEvent(t, 'editor', at('2025-03-31 23:59:30', '2025-04-01 00:30', { title: 'Incmark a' }));
      const earlyYesterday = await createEvent(t, 'editor', at('2025-03-31 10:00', '2025-03-31 11:00', { title: 'Incmark b' }));
      const later = await createEvent(t, 'editor', at('2025-05-20 10:00', '2025-05-20 11:00', { title: 'Incmark c' }));
      const ids = `${lateYesterday.id},${earlyYesterday.id},${later.id}`;
      assert.deepEqual((await listedIds(t, `?include=${ids}&start_date=2025-05-01&end_date=2025-05-02`)).sort(), [lateYesterday.id, later.id].sort());
      const query = await linkQuery(t, `?include=${ids}&start_date=2025-05-01`);
      assert.equal(query.start_date, '2025-03-31 23:59:00');
      assert.equal(query.end_date, '2027-04-01 10:00:00');
      assert.deepEqual(await listedIds(t, `?include=${ids}&starts_before=2025-04-30`), [lateYesterday.id, earlyYesterday.id]);
    });

    test('on a UTC site the bounds compare with UTC instants', async () => {
      const rome = await createEvent(t, 'editor', at('2025-04-16 00:30', '2025-04-16 01:30', { title: 'Utcmark', timezone: 'Europe/Rome' }));
      assert.equal(rome.utc_start_date, '2025-04-15 22:30:00');
      assert.deepEqual(await listedIds(t, '?search=utcmark&start_date=2025-04-16'), []);
      assert.deepEqual(await listedIds(t, '?search=utcmark&start_date=2025-04-15&end_date=2025-04-15'), [rome.id]);
    });
  });

  describe(`events: date window, site zone Europe/Rome [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock: () => NOW, env: { CALENDAR_TIMEZONE: 'Europe/Rome' } });
    });
    after(() => t.close());

    test('defaults east of UTC start today; strict mode converts the default start twice (reference quirk)', async () => {
      const inclusive = await linkQuery(t, '');
      assert.equal(inclusive.start_date, '2025-04-01 00:00:00');
      assert.equal(inclusive.end_date, '2027-04-01 23:59:59');
      const strict = await linkQuery(t, '?strict_dates=true');
      assert.equal(strict.start_date, '2025-04-01 03:59:00');
      const given = await linkQuery(t, '?strict_dates=true&start_date=2025-04-12 10:00');
      assert.equal(given.start_date, '2025-04-12 12:00:00');
    });

    test('the bounds float: they compare with each event’s own wall clock', async () => {
      const newYork = await createEvent(t, 'editor', at('2025-04-12 20:00', '2025-04-12 21:00', { title: 'Floatmark', timezone: 'America/New_York' }));
      assert.equal(newYork.utc_end_date, '2025-04-13 01:00:00');
      assert.deepEqual(await listedIds(t, '?search=floatmark&start_date=2025-04-12&end_date=2025-04-12'), [newYork.id]);
      const beforeToday = await createEvent(t, 'editor', at('2025-03-31 22:00', '2025-03-31 23:00', { title: 'Floatmark early' }));
      assert.equal((await listedIds(t, '?search=floatmark')).includes(beforeToday.id), false);
    });
  });
}
