import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { expandRecurrence, hasSecondInstance } from '../../../src/domain/recurrence/expand.ts';
import { RecurrenceError } from '../../../src/domain/recurrence/recurrence-error.ts';
import { parseRule } from '../../../src/domain/recurrence/rule.ts';

const expand = (rrule: string, dtstart: string, zone = 'UTC', extra: { rdate?: string[]; exdate?: string[] } = {}) =>
  expandRecurrence(
    { rule: parseRule(rrule), rdate: extra.rdate ?? [], exdate: extra.exdate ?? [] },
    { zone, dtstart, horizonEnd: '2040-12-31 23:59:59', cap: 1000 },
  ).instances.map((instance) => instance.start);

/**
 * The forms ical.js 2.2.1 expands wrongly (60 §4) and the date rules the issue names, each with
 * its RFC-correct list (computed independently with python-dateutil's rrule).
 */
const CORRECTED: Array<{ dtstart: string; rrule: string; expected: string[] }> = [
  {"dtstart": "2025-01-10 10:00:00", "rrule": "FREQ=WEEKLY;BYDAY=MO,WE,FR;BYSETPOS=-1;COUNT=6", "expected": ["2025-01-10 10:00:00", "2025-01-17 10:00:00", "2025-01-24 10:00:00", "2025-01-31 10:00:00", "2025-02-07 10:00:00", "2025-02-14 10:00:00"]},
  {"dtstart": "2025-03-03 10:00:00", "rrule": "FREQ=YEARLY;BYMONTH=3,6;BYDAY=MO;BYSETPOS=1;COUNT=4", "expected": ["2025-03-03 10:00:00", "2026-03-02 10:00:00", "2027-03-01 10:00:00", "2028-03-06 10:00:00"]},
  {"dtstart": "2025-06-30 10:00:00", "rrule": "FREQ=YEARLY;BYMONTH=3,6;BYDAY=MO;BYSETPOS=-1;COUNT=4", "expected": ["2025-06-30 10:00:00", "2026-06-29 10:00:00", "2027-06-28 10:00:00", "2028-06-26 10:00:00"]},
  {"dtstart": "2025-01-15 10:00:00", "rrule": "FREQ=MONTHLY;INTERVAL=2;BYMONTH=1,3,4,7;COUNT=6", "expected": ["2025-01-15 10:00:00", "2025-03-15 10:00:00", "2025-07-15 10:00:00", "2026-01-15 10:00:00", "2026-03-15 10:00:00", "2026-07-15 10:00:00"]},
  {"dtstart": "2025-01-31 10:00:00", "rrule": "FREQ=DAILY;BYMONTHDAY=-1;COUNT=6", "expected": ["2025-01-31 10:00:00", "2025-02-28 10:00:00", "2025-03-31 10:00:00", "2025-04-30 10:00:00", "2025-05-31 10:00:00", "2025-06-30 10:00:00"]},
  {"dtstart": "2025-01-31 10:00:00", "rrule": "FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=-1;COUNT=4", "expected": ["2025-01-31 10:00:00", "2025-02-28 10:00:00", "2025-10-31 10:00:00", "2026-07-31 10:00:00"]},
  {"dtstart": "2025-01-31 10:00:00", "rrule": "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYMONTHDAY=-1,-2,-3;BYSETPOS=-1;COUNT=6", "expected": ["2025-01-31 10:00:00", "2025-02-28 10:00:00", "2025-03-31 10:00:00", "2025-04-30 10:00:00", "2025-05-30 10:00:00", "2025-06-30 10:00:00"]},
  {"dtstart": "2025-02-28 10:00:00", "rrule": "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1;COUNT=5", "expected": ["2025-02-28 10:00:00", "2026-02-28 10:00:00", "2027-02-28 10:00:00", "2028-02-29 10:00:00", "2029-02-28 10:00:00"]},
  {"dtstart": "2024-02-29 10:00:00", "rrule": "FREQ=YEARLY;COUNT=4", "expected": ["2024-02-29 10:00:00", "2028-02-29 10:00:00", "2032-02-29 10:00:00", "2036-02-29 10:00:00"]},
  {"dtstart": "2024-02-29 10:00:00", "rrule": "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;COUNT=3", "expected": ["2024-02-29 10:00:00", "2028-02-29 10:00:00", "2032-02-29 10:00:00"]},
  {"dtstart": "2025-01-31 10:00:00", "rrule": "FREQ=MONTHLY;COUNT=6", "expected": ["2025-01-31 10:00:00", "2025-03-31 10:00:00", "2025-05-31 10:00:00", "2025-07-31 10:00:00", "2025-08-31 10:00:00", "2025-10-31 10:00:00"]},
  {"dtstart": "2025-01-31 10:00:00", "rrule": "FREQ=MONTHLY;BYMONTHDAY=31;COUNT=6", "expected": ["2025-01-31 10:00:00", "2025-03-31 10:00:00", "2025-05-31 10:00:00", "2025-07-31 10:00:00", "2025-08-31 10:00:00", "2025-10-31 10:00:00"]},
  {"dtstart": "2025-01-31 10:00:00", "rrule": "FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=6", "expected": ["2025-01-31 10:00:00", "2025-02-28 10:00:00", "2025-03-31 10:00:00", "2025-04-30 10:00:00", "2025-05-31 10:00:00", "2025-06-30 10:00:00"]},
  // Found by the oracle property test (docs/recurrence-oracle.md): a negative BYMONTHDAY with YEARLY and BYMONTH, or without BYMONTH (every month); BY lists out of order; BYSETPOS with HOURLY.
  {"dtstart": "2027-07-31 10:00:00", "rrule": "FREQ=YEARLY;BYMONTH=2,7,9;BYMONTHDAY=-1;COUNT=6", "expected": ["2027-07-31 10:00:00", "2027-09-30 10:00:00", "2028-02-29 10:00:00", "2028-07-31 10:00:00", "2028-09-30 10:00:00", "2029-02-28 10:00:00"]},
  {"dtstart": "2027-07-31 10:00:00", "rrule": "FREQ=YEARLY;BYMONTHDAY=-1;COUNT=4", "expected": ["2027-07-31 10:00:00", "2027-08-31 10:00:00", "2027-09-30 10:00:00", "2027-10-31 10:00:00"]},
  {"dtstart": "2025-11-02 00:00:00", "rrule": "FREQ=WEEKLY;BYMINUTE=30,15;COUNT=4", "expected": ["2025-11-02 00:00:00", "2025-11-02 00:15:00", "2025-11-02 00:30:00", "2025-11-09 00:15:00"]},
  {"dtstart": "2025-01-01 10:00:00", "rrule": "FREQ=HOURLY;INTERVAL=5;BYMINUTE=0,20,40;BYSETPOS=-1;COUNT=3", "expected": ["2025-01-01 10:00:00", "2025-01-01 10:40:00", "2025-01-01 15:40:00"]},
];

describe('recurrence: expansion exact where the library is not', () => {
  for (const { dtstart, rrule, expected } of CORRECTED) {
    test(rrule, () => assert.deepEqual(expand(rrule, dtstart), expected));
  }

  test('rdate adds, exdate removes (exact start or a whole local date), keys number the instances of a day', () => {
    const { instances } = expandRecurrence(
      { rule: parseRule('FREQ=DAILY;COUNT=4'), rdate: ['2025-05-02 08:00:00', '2025-05-10'], exdate: ['2025-05-03', '2025-05-04 19:30:00'] },
      { zone: 'UTC', dtstart: '2025-05-01 19:30:00', horizonEnd: '2040-01-01 00:00:00', cap: 100 },
    );
    assert.deepEqual(instances, [
      { start: '2025-05-01 19:30:00', key: '2025-05-01#1' },
      { start: '2025-05-02 08:00:00', key: '2025-05-02#1' },
      { start: '2025-05-02 19:30:00', key: '2025-05-02#2' },
      { start: '2025-05-10 19:30:00', key: '2025-05-10#1' },
    ]);
  });

  test('the set holds instants: a wall clock in a DST gap and the one it moves to are one instance, excluded by either', () => {
    // 02:30 in Rome on 2028-03-26 does not exist: it is 01:30Z, as 03:30 CEST is.
    assert.deepEqual(expand('FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU;COUNT=2', '2027-03-28 02:30:00', 'Europe/Rome', { rdate: ['2028-03-26 03:30:00'] }), ['2027-03-28 02:30:00', '2028-03-26 02:30:00']);
    assert.deepEqual(expand('FREQ=WEEKLY;INTERVAL=2;COUNT=3', '2027-03-14 02:00:00', 'America/New_York', { exdate: ['2027-03-14 02:00:00'] }), ['2027-03-28 02:00:00', '2027-04-11 02:00:00']);
    assert.deepEqual(expand('FREQ=WEEKLY;INTERVAL=2;COUNT=3', '2027-03-14 02:00:00', 'America/New_York', { exdate: ['2027-03-14 03:00:00'] }), ['2027-03-28 02:00:00', '2027-04-11 02:00:00']);
    // BYHOUR=2,3 on the spring-forward day: both name 07:00Z.
    assert.deepEqual(expand('FREQ=DAILY;BYHOUR=2,3;COUNT=4', '2027-03-13 02:00:00', 'America/New_York'), ['2027-03-13 02:00:00', '2027-03-13 03:00:00', '2027-03-14 02:00:00']);
  });

  test('UNTIL in UTC keeps the last instance when it falls exactly on the bound in the event zone', () => {
    // 19:30 in Rome on 28 April (CEST) is 17:30Z.
    assert.deepEqual(expand('FREQ=WEEKLY;UNTIL=20250428T173000Z', '2025-04-14 19:30:00', 'Europe/Rome'), ['2025-04-14 19:30:00', '2025-04-21 19:30:00', '2025-04-28 19:30:00']);
    assert.deepEqual(expand('FREQ=WEEKLY;UNTIL=20250428T172959Z', '2025-04-14 19:30:00', 'Europe/Rome'), ['2025-04-14 19:30:00', '2025-04-21 19:30:00']);
  });

  test('a date-only UNTIL runs through that local day', () => {
    assert.deepEqual(expand('FREQ=DAILY;UNTIL=20250416', '2025-04-14 23:30:00', 'America/New_York'), ['2025-04-14 23:30:00', '2025-04-15 23:30:00', '2025-04-16 23:30:00']);
  });

  test('the horizon and the cap stop an open rule', () => {
    const { instances, overCap, complete } = expandRecurrence(
      { rule: parseRule('FREQ=DAILY'), rdate: [], exdate: [] },
      { zone: 'UTC', dtstart: '2025-01-01 10:00:00', horizonEnd: '2025-01-10 23:59:59', cap: 5 },
    );
    assert.equal(instances.length, 6);
    assert.equal(overCap, true);
    assert.equal(complete, false);
  });

  test('a rule with no instance besides DTSTART is detected', () => {
    assert.equal(hasSecondInstance(parseRule('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30'), 'UTC', '2025-01-30 10:00:00'), false);
    assert.equal(hasSecondInstance(parseRule('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29'), 'UTC', '2025-01-30 10:00:00'), true);
  });
});

describe('recurrence: rule checks (60 §3.1)', () => {
  const invalid = [
    '', 'BYDAY=MO', 'FREQ=SECONDLY', 'FREQ=MINUTELY', 'FREQ=FORTNIGHTLY', 'FREQ=DAILY;BYHOUR=99', 'FREQ=DAILY;FOO=1',
    'FREQ=DAILY;COUNT=3;UNTIL=20250101T000000Z', 'FREQ=DAILY;COUNT=0', 'FREQ=DAILY;COUNT=abc', 'FREQ=DAILY;INTERVAL=0',
    'FREQ=WEEKLY;BYDAY=XX', 'FREQ=WEEKLY;BYDAY=1MO', 'FREQ=MONTHLY;BYWEEKNO=3', 'FREQ=WEEKLY;BYMONTHDAY=3',
    'FREQ=DAILY;BYYEARDAY=3', 'FREQ=MONTHLY;BYMONTHDAY=0', 'FREQ=MONTHLY;BYMONTHDAY=32', 'FREQ=DAILY;UNTIL=20250230',
    'FREQ=DAILY;FREQ=WEEKLY', 'FREQ=DAILY;WKST=XX', 'FREQ=YEARLY;BYMONTH=13',
  ];
  for (const text of invalid) {
    test(`refused: ${JSON.stringify(text)}`, () => {
      assert.throws(() => parseRule(text), (error: unknown) => error instanceof RecurrenceError && error.code === 'recurrence-invalid-rule');
    });
  }
  test('accepted with an RRULE: prefix and lower case', () => {
    assert.equal(parseRule('RRULE:freq=weekly;byday=mo').freq, 'WEEKLY');
  });
});
