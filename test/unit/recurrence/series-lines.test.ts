import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { recurrenceLines } from '../../../src/domain/recurrence/series.ts';

// The `ical` key of a series master (60 §5), written as the iCalendar export writes the series (60 §7).
describe('recurrence ical lines', () => {
  test('a timed series: TZID wall clocks, UNTIL in UTC, whole-day EXDATE as a DATE', () => {
    assert.deepEqual(
      recurrenceLines({ zone: 'Europe/Rome', allDay: false, dtstart: '2025-04-07 19:30:00', dtend: '2025-04-07 22:00:00', rrule: 'FREQ=WEEKLY;UNTIL=20250630T173000Z', rdate: ['2025-07-02 19:30:00'], exdate: ['2025-04-21'] }),
      ['DTSTART;TZID=Europe/Rome:20250407T193000', 'DTEND;TZID=Europe/Rome:20250407T220000', 'RRULE:FREQ=WEEKLY;UNTIL=20250630T173000Z', 'RDATE;TZID=Europe/Rome:20250702T193000', 'EXDATE;VALUE=DATE:20250421'],
    );
  });

  test('an all-day series: DATE values, DTEND the day after (exclusive), UNTIL the local date', () => {
    for (const zone of ['UTC', 'Europe/Copenhagen', 'America/New_York']) {
      assert.deepEqual(
        recurrenceLines({
          zone,
          allDay: true,
          dtstart: '2026-05-01 00:00:00',
          dtend: '2026-05-01 23:59:59',
          // UNTIL as stored: the last day's midnight in the zone, in UTC.
          rrule: `FREQ=WEEKLY;UNTIL=${zone === 'UTC' ? '20260529T000000Z' : zone === 'Europe/Copenhagen' ? '20260528T220000Z' : '20260529T040000Z'}`,
          rdate: ['2026-06-03 00:00:00'],
          exdate: ['2026-05-15', '2026-05-22 00:00:00'],
        }),
        [
          'DTSTART;VALUE=DATE:20260501',
          'DTEND;VALUE=DATE:20260502',
          'RRULE:FREQ=WEEKLY;UNTIL=20260529',
          'RDATE;VALUE=DATE:20260603',
          'EXDATE;VALUE=DATE:20260515',
          'EXDATE;VALUE=DATE:20260522',
        ],
        zone,
      );
    }
  });

  test('an all-day event over several days keeps its length; a month end rolls over', () => {
    const [start, end] = recurrenceLines({ zone: 'UTC', allDay: true, dtstart: '2026-01-30 00:00:00', dtend: '2026-01-31 23:59:59', rrule: 'FREQ=YEARLY;COUNT=3', rdate: [], exdate: [] });
    assert.deepEqual([start, end], ['DTSTART;VALUE=DATE:20260130', 'DTEND;VALUE=DATE:20260201']);
  });
});
