import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createEvent } from '../events/fixtures.ts';
import { clock, createSeries, occurrencesOf } from './support.ts';

// 60 §4 step 6 and §10: every occurrence gets the instant a standalone event with the same wall
// clock and zone gets, across both DST transitions, in gaps and in repeated hours.
const SERIES: Array<{ zone: string; start: string; end: string; rrule: string; expect?: Record<string, string> }> = [
  // Rome: spring forward 2025-03-30 02:00→03:00, fall back 2025-10-26 03:00→02:00.
  { zone: 'Europe/Rome', start: '2025-03-23 02:30:00', end: '2025-03-23 04:00:00', rrule: 'FREQ=WEEKLY;COUNT=3', expect: { '2025-03-30 02:30:00': '2025-03-30 01:30:00' } },
  { zone: 'Europe/Rome', start: '2025-10-19 02:30:00', end: '2025-10-19 03:30:00', rrule: 'FREQ=WEEKLY;COUNT=3', expect: { '2025-10-26 02:30:00': '2025-10-26 01:30:00' } },
  { zone: 'Europe/Rome', start: '2025-03-28 19:30:00', end: '2025-03-28 22:00:00', rrule: 'FREQ=DAILY;COUNT=5' },
  { zone: 'Europe/Rome', start: '2025-10-24 02:30:00', end: '2025-10-24 05:00:00', rrule: 'FREQ=DAILY;COUNT=5' },
  // New York: spring forward 2025-03-09 02:00→03:00, fall back 2025-11-02 02:00→01:00.
  { zone: 'America/New_York', start: '2025-10-26 01:30:00', end: '2025-10-26 02:30:00', rrule: 'FREQ=WEEKLY;COUNT=3', expect: { '2025-11-02 01:30:00': '2025-11-02 05:30:00' } },
  { zone: 'America/New_York', start: '2025-03-02 02:30:00', end: '2025-03-02 03:00:00', rrule: 'FREQ=WEEKLY;COUNT=3' },
  { zone: 'America/New_York', start: '2025-10-31 01:30:00', end: '2025-10-31 09:00:00', rrule: 'FREQ=DAILY;COUNT=4' },
  // Lord Howe: 30-minute shift; back 2025-04-06 02:00→01:30, forward 2025-10-05 02:00→02:30.
  { zone: 'Australia/Lord_Howe', start: '2025-03-30 01:45:00', end: '2025-03-30 03:00:00', rrule: 'FREQ=WEEKLY;COUNT=3' },
  { zone: 'Australia/Lord_Howe', start: '2025-09-28 02:15:00', end: '2025-09-28 03:00:00', rrule: 'FREQ=WEEKLY;COUNT=3' },
  { zone: 'Australia/Lord_Howe', start: '2025-10-03 02:15:00', end: '2025-10-03 02:45:00', rrule: 'FREQ=DAILY;COUNT=4' },
];

for (const dialect of DIALECTS) {
  describe(`recurrence: DST-exact occurrences [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock });
    });
    after(() => t.close());

    for (const { zone, start, end, rrule, expect } of SERIES) {
      test(`${zone} ${rrule} from ${start}`, async () => {
        const master = await createSeries(t, { start_date: start, end_date: end, timezone: zone, recurrence: { rrule } });
        const occurrences = await occurrencesOf(t, master.id);
        assert.equal(occurrences.length, Number(/COUNT=(\d+)/.exec(rrule)![1]));
        // Same wall clock every time (19:30 stays 19:30), the digits of the rule kept in gaps.
        for (const occurrence of occurrences) assert.equal(occurrence.start_date.slice(11), start.slice(11));
        for (const occurrence of occurrences) {
          const single = await createEvent(t, 'editor', { start_date: occurrence.start_date, end_date: occurrence.end_date, timezone: zone });
          assert.equal(occurrence.end_date, single.end_date);
          assert.equal(occurrence.utc_start_date, single.utc_start_date, occurrence.start_date);
          assert.equal(occurrence.utc_end_date, single.utc_end_date, occurrence.end_date);
          assert.equal(occurrence.timezone_abbr, single.timezone_abbr, occurrence.start_date);
          if (expect?.[occurrence.start_date]) assert.equal(occurrence.utc_start_date, expect[occurrence.start_date]);
        }
        // The nominal duration: the end keeps its wall clock too.
        for (const occurrence of occurrences) assert.equal(occurrence.end_date.slice(11), end.slice(11));
      });
    }

    test('abbreviations follow each instance (CET then CEST)', async () => {
      const master = await createSeries(t, { start_date: '2025-03-23 19:30', end_date: '2025-03-23 21:00', timezone: 'Europe/Rome', recurrence: ['RRULE:FREQ=WEEKLY;COUNT=2'] });
      assert.deepEqual((await occurrencesOf(t, master.id)).map((e) => e.timezone_abbr), ['CET', 'CEST']);
    });

    test('monthly on the 31st skips short months; yearly on 29 February waits for leap years', async () => {
      const monthly = await createSeries(t, { start_date: '2025-01-31 10:00', end_date: '2025-01-31 11:00', timezone: 'Europe/Rome', recurrence: { rrule: 'FREQ=MONTHLY;BYMONTHDAY=31;COUNT=4' } });
      assert.deepEqual((await occurrencesOf(t, monthly.id)).map((e) => e.start_date.slice(0, 10)), ['2025-01-31', '2025-03-31', '2025-05-31', '2025-07-31']);
      const leap = await createSeries(t, { start_date: '2024-02-29 10:00', end_date: '2024-02-29 11:00', timezone: 'UTC', recurrence: { rrule: 'FREQ=YEARLY;COUNT=3' } });
      // The horizon (now + 24 months) ends before 2028: one instance for now, more as time passes.
      assert.deepEqual((await occurrencesOf(t, leap.id)).map((e) => e.start_date.slice(0, 10)), ['2024-02-29']);
      assert.equal(leap.occurrences.open_ended, false);
    });

    test('BYSETPOS: the last weekday of each month', async () => {
      const master = await createSeries(t, { start_date: '2025-04-30 09:00', end_date: '2025-04-30 10:00', timezone: 'America/New_York', recurrence: { rrule: 'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=4' } });
      assert.deepEqual((await occurrencesOf(t, master.id)).map((e) => e.start_date.slice(0, 10)), ['2025-04-30', '2025-05-30', '2025-06-30', '2025-07-31']);
    });

    test('UNTIL in UTC against a local DTSTART keeps the instance on the bound; stored and shown in UTC', async () => {
      // 19:30 New York on 2025-05-05 (EDT) is 23:30Z.
      const master = await createSeries(t, { start_date: '2025-04-21 19:30', end_date: '2025-04-21 21:00', timezone: 'America/New_York', recurrence: { rrule: 'FREQ=WEEKLY;UNTIL=20250505T233000Z' } });
      assert.deepEqual((await occurrencesOf(t, master.id)).map((e) => e.start_date), ['2025-04-21 19:30:00', '2025-04-28 19:30:00', '2025-05-05 19:30:00']);
      const local = await createSeries(t, { start_date: '2025-04-21 19:30', end_date: '2025-04-21 21:00', timezone: 'America/New_York', recurrence: { rrule: 'FREQ=WEEKLY;UNTIL=20250505' } });
      assert.equal(local.recurrence.rrule, 'FREQ=WEEKLY;UNTIL=20250506T035959Z');
      assert.equal((await occurrencesOf(t, local.id)).length, 3);
    });
  });
}
