import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { clock, createEvent, EVENTS } from './fixtures.ts';

// 10-events §2.1 (date-time inputs) and §3.3 (zones, UTC, abbreviations), at 2025-04-01 10:00 UTC (a Tuesday).
for (const dialect of DIALECTS) {
  describe(`events: time zones and date inputs [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock });
    });
    after(() => t.close());

    const startOf = async (start: unknown, extra: Record<string, unknown> = {}) =>
      (await createEvent(t, 'editor', { start_date: start, end_date: '2030-01-01 00:00', ...extra })).start_date;

    test('every date input form of §2.1, read in the event zone (Europe/Rome: now is 12:00 there)', async () => {
      const cases: Array<[unknown, string]> = [
        ['2025-04-12', '2025-04-12 00:00:00'],
        ['2025-04-12 19:30', '2025-04-12 19:30:00'],
        ['2025-04-12T19:30:00', '2025-04-12 19:30:00'],
        ['2025-04-12 19:30:00.250', '2025-04-12 19:30:00'],
        ['2025-04-12T19:30:00+02:00', '2025-04-12 19:30:00'],
        ['2025-04-12T10:00:00Z', '2025-04-12 10:00:00'],
        ['2018-01-01 4pm', '2018-01-01 16:00:00'],
        ['2025-04-12 7:30pm', '2025-04-12 19:30:00'],
        [1744478400, '2025-04-12 17:20:00'],
        ['1744478400', '2025-04-12 17:20:00'],
        ['now', '2025-04-01 12:00:00'],
        ['today', '2025-04-01 00:00:00'],
        ['tomorrow', '2025-04-02 00:00:00'],
        ['yesterday', '2025-03-31 00:00:00'],
        ['midnight', '2025-04-01 00:00:00'],
        ['noon', '2025-04-01 12:00:00'],
        ['tomorrow 9am', '2025-04-02 09:00:00'],
        ['yesterday 23:59', '2025-03-31 23:59:00'],
        ['next wednesday 4pm', '2025-04-02 16:00:00'],
        ['next tuesday', '2025-04-08 00:00:00'],
        ['last friday', '2025-03-28 00:00:00'],
        ['+1 week', '2025-04-08 12:00:00'],
        ['+5 days 11am', '2025-04-06 11:00:00'],
        ['-2 hours', '2025-04-01 10:00:00'],
        ['+24 months', '2027-04-01 12:00:00'],
        ['12 April 2025', '2025-04-12 00:00:00'],
        ['April 12, 2025 10:00', '2025-04-12 10:00:00'],
      ];
      for (const [input, expected] of cases) {
        assert.equal(await startOf(input, { timezone: 'Europe/Rome' }), expected, JSON.stringify(input));
      }
    });

    test('relative words are evaluated at now in the event zone', async () => {
      // Kiritimati is UTC+14: there it is already 2 April.
      assert.equal(await startOf('today', { timezone: 'Pacific/Kiritimati' }), '2025-04-02 00:00:00');
      assert.equal(await startOf('today', { timezone: 'America/Los_Angeles' }), '2025-04-01 00:00:00');
      assert.equal(await startOf('now', { timezone: 'UTC-3' }), '2025-04-01 07:00:00');
    });

    test('publication dates: date in the event zone as written, date_utc honours offsets', async () => {
      const local = await createEvent(t, 'editor', { date: '2025-03-01T10:00:00+05:00', timezone: 'Asia/Tokyo' });
      assert.equal(local.date, '2025-03-01 10:00:00');
      const utc = await createEvent(t, 'editor', { date_utc: '2025-03-01T10:00:00+02:00' });
      assert.equal(utc.date_utc, '2025-03-01 08:00:00');
      const stamp = await createEvent(t, 'editor', { date_utc: 1740823200 });
      assert.equal(stamp.date_utc, '2025-03-01 10:00:00');
    });

    test('crossing the spring DST change (Europe/Rome, 30 March 2025)', async () => {
      const event = await createEvent(t, 'editor', { timezone: 'Europe/Rome', start_date: '2025-03-30 01:30', end_date: '2025-03-30 03:30' });
      assert.equal(event.utc_start_date, '2025-03-30 00:30:00');
      assert.equal(event.utc_end_date, '2025-03-30 01:30:00');
      assert.equal(event.timezone_abbr, 'CET');
      const ld = (await t.request('GET', `${EVENTS}/${event.id}`)).body.json_ld;
      assert.equal(ld.startDate, '2025-03-30T01:30:00+01:00');
      assert.equal(ld.endDate, '2025-03-30T03:30:00+02:00');
      const skipped = await createEvent(t, 'editor', { timezone: 'Europe/Rome', start_date: '2025-03-30 02:30', end_date: '2025-03-30 04:00' });
      assert.equal(skipped.start_date, '2025-03-30 02:30:00');
      assert.equal(skipped.utc_start_date, '2025-03-30 01:30:00');
      const summer = await createEvent(t, 'editor', { timezone: 'Europe/Rome', start_date: '2025-03-30 10:00', end_date: '2025-03-30 11:00' });
      assert.equal(summer.timezone_abbr, 'CEST');
    });

    test('crossing the autumn DST change (Europe/Rome, 26 October 2025) and New York’s spring change', async () => {
      const repeated = await createEvent(t, 'editor', { timezone: 'Europe/Rome', start_date: '2025-10-26 02:30', end_date: '2025-10-26 03:30' });
      assert.equal(repeated.utc_start_date, '2025-10-26 01:30:00');
      assert.equal(repeated.utc_end_date, '2025-10-26 02:30:00');
      assert.equal(repeated.timezone_abbr, 'CET');
      const overnight = await createEvent(t, 'editor', { timezone: 'America/New_York', start_date: '2025-03-08 22:00', end_date: '2025-03-09 04:00' });
      assert.equal(overnight.utc_start_date, '2025-03-09 03:00:00');
      assert.equal(overnight.utc_end_date, '2025-03-09 08:00:00');
      assert.equal(overnight.timezone_abbr, 'EST');
      const allDay = await createEvent(t, 'editor', { timezone: 'America/New_York', all_day: true, start_date: '2025-03-09', end_date: '2025-03-09' });
      assert.equal(allDay.utc_start_date, '2025-03-09 05:00:00');
      assert.equal(allDay.utc_end_date, '2025-03-10 03:59:59');
    });

    test('fixed offsets: UTC+5:30, UTC+5.5, UTC-3 and the IANA zone of India', async () => {
      for (const zone of ['UTC+5:30', 'UTC+5.5']) {
        const event = await createEvent(t, 'editor', { timezone: zone, start_date: '2025-04-12 10:00', end_date: '2025-04-12 12:00' });
        assert.equal(event.timezone, zone);
        assert.equal(event.timezone_abbr, zone);
        assert.equal(event.utc_start_date, '2025-04-12 04:30:00');
        const ld = (await t.request('GET', `${EVENTS}/${event.id}`)).body.json_ld;
        assert.equal(ld.startDate, '2025-04-12T10:00:00+05:30');
      }
      const west = await createEvent(t, 'editor', { timezone: 'UTC-3', start_date: '2025-04-12 22:00', end_date: '2025-04-12 23:00' });
      assert.equal(west.utc_start_date, '2025-04-13 01:00:00');
      const kolkata = await createEvent(t, 'editor', { timezone: 'Asia/Kolkata', start_date: '2025-04-12 10:00', end_date: '2025-04-12 12:00' });
      assert.equal(kolkata.utc_start_date, '2025-04-12 04:30:00');
      assert.equal(kolkata.timezone_abbr, 'IST');
    });

    test('other abbreviations come from the tz database at the start instant', async () => {
      const cases: Array<[string, string, string]> = [
        ['America/New_York', '2025-07-01 10:00', 'EDT'], ['Australia/Sydney', '2025-01-10 10:00', 'AEDT'],
        ['Europe/London', '2025-01-10 10:00', 'GMT'], ['Asia/Tokyo', '2025-01-10 10:00', 'JST'], ['UTC', '2025-01-10 10:00', 'UTC'],
      ];
      for (const [zone, start, abbr] of cases) {
        const event = await createEvent(t, 'editor', { timezone: zone, start_date: start, end_date: '2030-01-01' });
        assert.equal(event.timezone_abbr, abbr, zone);
      }
    });
  });
}
