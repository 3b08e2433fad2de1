import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createEvent } from '../events/fixtures.ts';
import { clock, createSeries, occurrencesOf } from './support.ts';

// 60 §10: for random bounded rules, every materialised occurrence gets the instant a standalone
// event with the same wall clock and zone gets, and, away from repeated hours, the instant an
// independent wall→UTC conversion (luxon) gives.
const ZONES = ['Europe/Rome', 'America/New_York', 'Australia/Lord_Howe', 'UTC'];
const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
const RUNS = 15;

const pad = (n: number) => String(n).padStart(2, '0');

const ruleArb = fc.record({
  zone: fc.constantFrom(...ZONES),
  // DTSTART within the fixed clock's horizon (NOW = 2025-04-01, horizon 24 months on).
  day: fc.integer({ min: 0, max: 540 }),
  hour: fc.integer({ min: 0, max: 23 }),
  minute: fc.constantFrom(0, 15, 30, 45),
  minutes: fc.integer({ min: 15, max: 300 }),
  freq: fc.constantFrom('DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'),
  interval: fc.integer({ min: 1, max: 3 }),
  count: fc.integer({ min: 2, max: 20 }),
  byday: fc.subarray(WEEKDAYS, { minLength: 0, maxLength: 3 }),
});

type Rule = typeof ruleArb extends fc.Arbitrary<infer T> ? T : never;

function seriesOf(rule: Rule): { start: string; end: string; rrule: string } {
  const start = DateTime.fromObject({ year: 2025, month: 1, day: 1, hour: rule.hour, minute: rule.minute }, { zone: 'UTC' }).plus({ days: rule.day });
  const end = start.plus({ minutes: rule.minutes });
  const format = (d: DateTime) => d.toFormat('yyyy-MM-dd HH:mm:ss');
  // BYDAY only where it keeps every instance valid RFC 5545 without BYSETPOS subtleties.
  const byday = rule.freq === 'WEEKLY' && rule.byday.length > 0 ? `;BYDAY=${rule.byday.join(',')}` : '';
  return { start: format(start), end: format(end), rrule: `FREQ=${rule.freq};INTERVAL=${rule.interval};COUNT=${rule.count}${byday}` };
}

/** The UTC instant of a wall clock in a zone, or null when the wall clock occurs twice there. */
function independentUtc(wall: string, zone: string): string | null {
  const [date, time] = wall.split(' ');
  const [year, month, day] = date!.split('-').map(Number);
  const [hour, minute, second] = time!.split(':').map(Number);
  const fields = { year, month, day, hour, minute, second };
  const instant = DateTime.fromObject(fields, { zone });
  const offsetBefore = DateTime.fromMillis(instant.toMillis() - 86_400_000, { zone }).offset;
  const offsetAfter = DateTime.fromMillis(instant.toMillis() + 86_400_000, { zone }).offset;
  if (offsetBefore !== offsetAfter) {
    const shift = Math.abs(offsetBefore - offsetAfter) * 60_000;
    const sameWall = (ms: number) => DateTime.fromMillis(ms, { zone }).toFormat('yyyy-MM-dd HH:mm:ss') === wall;
    if (sameWall(instant.toMillis() - shift) || sameWall(instant.toMillis() + shift)) return null;
  }
  return instant.toUTC().toFormat('yyyy-MM-dd HH:mm:ss');
}

for (const dialect of DIALECTS) {
  describe(`recurrence: property — occurrences convert like standalone events [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock });
    });
    after(() => t.close());

    test('random bounded rules in DST zones', async () => {
      // Standalone conversions are memoised per wall clock and zone: the same instant is asked for often.
      const standalone = new Map<string, any>();
      await fc.assert(
        fc.asyncProperty(ruleArb, async (rule) => {
          const { start, end, rrule } = seriesOf(rule);
          const master = await createSeries(t, { start_date: start, end_date: end, timezone: rule.zone, recurrence: { rrule } });
          const occurrences = await occurrencesOf(t, master.id);
          assert.ok(occurrences.length >= 1 && occurrences.length <= rule.count, `${occurrences.length} occurrences for ${rrule}`);
          assert.equal(occurrences[0].start_date, start, 'DTSTART is the first instance');
          for (const occurrence of occurrences) {
            assert.equal(occurrence.start_date.slice(11), start.slice(11), 'the wall clock is kept');
            const key = `${rule.zone} ${occurrence.start_date} ${occurrence.end_date}`;
            let single = standalone.get(key);
            if (!single) {
              single = await createEvent(t, 'editor', { start_date: occurrence.start_date, end_date: occurrence.end_date, timezone: rule.zone });
              standalone.set(key, single);
            }
            assert.equal(occurrence.utc_start_date, single.utc_start_date, `${key} (${rrule})`);
            assert.equal(occurrence.utc_end_date, single.utc_end_date, `${key} (${rrule})`);
            const expected = independentUtc(occurrence.start_date, rule.zone);
            if (expected !== null) assert.equal(occurrence.utc_start_date, expected, `${key} (${rrule}) against luxon`);
          }
        }),
        { numRuns: RUNS },
      );
    });
  });
}
