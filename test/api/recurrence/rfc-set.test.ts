import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createSeries, occurrencesOf } from './support.ts';

// Issue 38 item 1: the three series found against an independent expansion, each with the list
// RFC 5545 gives up to the horizon (now + 24 months + 7 days = 2028-10-08) and the master's count.
const NOW = new Date('2026-10-01T12:00:00Z');

for (const dialect of DIALECTS) {
  describe(`recurrence: RFC 5545 instance sets [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock: () => NOW, env: { CALENDAR_RECURRENCE_HORIZON_MONTHS: '24' } });
    });
    after(() => t.close());

    const starts = async (body: Record<string, unknown>) => {
      const master = await createSeries(t, body);
      const listed = (await occurrencesOf(t, master.id)).map((e) => `${e.start_date} ${e.utc_start_date}Z`);
      assert.equal(master.occurrences.count, listed.length);
      return listed;
    };

    test('BYMONTHDAY=-1 with BYMONTH in a YEARLY rule reaches 29 February', async () => {
      const listed = await starts({ all_day: true, start_date: '2027-07-31', end_date: '2027-07-31', timezone: 'UTC', recurrence: ['RRULE:FREQ=YEARLY;BYMONTH=2,7,9;BYMONTHDAY=-1;COUNT=13'] });
      assert.deepEqual(listed, ['2027-07-31', '2027-09-30', '2028-02-29', '2028-07-31', '2028-09-30'].map((d) => `${d} 00:00:00 ${d} 00:00:00Z`));
    });

    test('an EXDATE in T names the instance at the same wall clock, inside a DST gap too', async () => {
      const listed = await starts({ start_date: '2027-03-14 02:00', end_date: '2027-03-14 03:00', timezone: 'America/New_York', recurrence: ['RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=10', 'EXDATE;TZID=America/New_York:20270314T020000'] });
      assert.equal(listed.length, 9);
      assert.equal(listed[0], '2027-03-28 02:00:00 2027-03-28 06:00:00Z');
    });

    test('an RDATE equal to a rule instance is one instance (the set is a union)', async () => {
      const listed = await starts({ start_date: '2027-03-28 02:30', end_date: '2027-03-28 03:30', timezone: 'Europe/Rome', recurrence: ['RRULE:FREQ=YEARLY;BYMONTH=3,10;BYDAY=-1SU', 'RDATE;TZID=Europe/Rome:20280326T023000'] });
      // 02:30 does not exist on either spring-forward Sunday: read with the offset before the gap (60 §4 step 6).
      assert.deepEqual(listed, ['2027-03-28 02:30:00 2027-03-28 01:30:00Z', '2027-10-31 02:30:00 2027-10-31 01:30:00Z', '2028-03-26 02:30:00 2028-03-26 01:30:00Z']);
      const master = await createSeries(t, { start_date: '2027-03-28 02:30', end_date: '2027-03-28 03:30', timezone: 'Europe/Rome', recurrence: ['RRULE:FREQ=YEARLY;BYMONTH=3,10;BYDAY=-1SU'] });
      // The create answer shows the horizon the series was materialised to, as a later read does.
      assert.equal(master.occurrences.horizon, '2028-10-08');
    });

    test('the same instant written in UTC removes or merges it too, and a gap instance by the wall clock it moves to', async () => {
      const listed = await starts({ start_date: '2027-03-14 02:00', end_date: '2027-03-14 03:00', timezone: 'America/New_York', recurrence: ['RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=3', 'EXDATE:20270314T070000Z', 'RDATE:20270328T060000Z'] });
      assert.deepEqual(listed, ['2027-03-28 02:00:00 2027-03-28 06:00:00Z', '2027-04-11 02:00:00 2027-04-11 06:00:00Z']);
      const moved = await starts({ start_date: '2027-03-14 02:00', end_date: '2027-03-14 03:00', timezone: 'America/New_York', recurrence: ['RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=2', 'EXDATE;TZID=America/New_York:20270314T030000'] });
      assert.deepEqual(moved, ['2027-03-28 02:00:00 2027-03-28 06:00:00Z']);
    });
  });
}
