import { wallToUtc } from '../dates/time-zone.ts';
import { readWall, wallAt, wallMillis, writeWall } from '../dates/wall-clock.ts';
import { DAY_MS, dateFilter, dayNumberOf, WEEKDAYS, weekdayOf } from './date-filter.ts';
import type { RecurrenceSpec } from './recurrence-input.ts';
import { part, untilInZone, type Rule } from './rule.ts';

/** One instance of a series: its original local start in T and its recurrence key (60 §6.3). */
export interface Instance {
  start: string;
  /** `YYYY-MM-DD#n`: the local date and the ordinal among that date's instances. */
  key: string;
}

export interface Expansion {
  instances: Instance[];
  /** More than `cap` instances up to the horizon: `instances` holds cap + 1 of them. */
  overCap: boolean;
  /** The rule ends (COUNT, UNTIL, or no rule) and every added date falls before the horizon: later extension adds nothing. */
  complete: boolean;
}

export interface ExpansionBounds {
  zone: string;
  /** DTSTART, a wall clock in T. */
  dtstart: string;
  /** Instances start on or before this wall clock (the horizon's last second). */
  horizonEnd: string;
  cap: number;
}

const timeOf = (wall: string) => wall.slice(11);
const dayOfWall = (wall: string) => dayNumberOf(Number(wall.slice(0, 4)), Number(wall.slice(5, 7)), Number(wall.slice(8, 10)));
const dateOfDay = (day: number) => writeWall(wallAt(day * DAY_MS)).slice(0, 10);

/** The date parts RFC 5545 §3.3.10 takes from DTSTART when the rule gives none. */
function withImpliedParts(rule: Rule, dtstart: string): Rule {
  const has = (name: string) => part(rule, name) !== undefined;
  const w = readWall(dtstart);
  const weekday = WEEKDAYS[weekdayOf(dayOfWall(dtstart))];
  const implied: Array<[string, string]> = [];
  if (rule.freq === 'WEEKLY' && !has('BYDAY')) implied.push(['BYDAY', weekday]);
  if (rule.freq === 'MONTHLY' && !has('BYDAY') && !has('BYMONTHDAY')) implied.push(['BYMONTHDAY', String(w.day)]);
  if (rule.freq === 'YEARLY' && !has('BYDAY') && !has('BYMONTHDAY') && !has('BYYEARDAY')) {
    if (has('BYWEEKNO')) implied.push(['BYDAY', weekday]);
    else {
      if (!has('BYMONTH')) implied.push(['BYMONTH', String(w.month)]);
      implied.push(['BYMONTHDAY', String(w.day)]);
    }
  }
  return { ...rule, parts: [...rule.parts, ...implied] };
}

/** A BYxxx list of numbers, ascending, or `fallback` when the rule has none. */
function sortedNumbers(rule: Rule, name: string, fallback: number[]): number[] {
  const value = part(rule, name);
  return value === undefined ? fallback : [...new Set(value.split(',').map(Number))].sort((x, y) => x - y);
}

/** The times of day a rule yields on a day it admits: BYHOUR × BYMINUTE × BYSECOND, else DTSTART's (every hour for HOURLY). */
function timesOfDay(rule: Rule, dtstart: string): Array<{ hour: number; time: string }> {
  const w = readWall(dtstart);
  const two = (n: number) => String(n).padStart(2, '0');
  const hours = sortedNumbers(rule, 'BYHOUR', rule.freq === 'HOURLY' ? Array.from({ length: 24 }, (_, h) => h) : [w.hour]);
  const minutes = sortedNumbers(rule, 'BYMINUTE', [w.minute]);
  const seconds = sortedNumbers(rule, 'BYSECOND', [w.second]);
  return hours.flatMap((hour) => minutes.flatMap((minute) => seconds.map((second) => ({ hour, time: `${two(hour)}:${two(minute)}:${two(second)}` }))));
}

/** The FREQ period (hour, day, week from WKST, month, year) a day and hour fall in, as a counter. */
function periodOf(rule: Rule, day: number, hour: number, wkst: number): number {
  if (rule.freq === 'HOURLY') return day * 24 + hour;
  if (rule.freq === 'DAILY') return day;
  if (rule.freq === 'WEEKLY') return (day - ((weekdayOf(day) - wkst + 7) % 7)) / 7;
  const { year, month } = wallAt(day * DAY_MS);
  return rule.freq === 'MONTHLY' ? year * 12 + month - 1 : year;
}

/** The first day of DTSTART's period: BYSETPOS counts from the period's start, before DTSTART too. */
function periodStartDay(rule: Rule, dtstart: number, wkst: number): number {
  const { year, month } = wallAt(dtstart * DAY_MS);
  if (rule.freq === 'WEEKLY') return dtstart - ((weekdayOf(dtstart) - wkst + 7) % 7);
  if (rule.freq === 'MONTHLY') return dayNumberOf(year, month, 1);
  if (rule.freq === 'YEARLY') return dayNumberOf(year, 1, 1);
  return dtstart;
}

/**
 * The rule's candidate starts in order up to `end` (wall clocks), from the first period of DTSTART
 * on. Every day is asked whether the rule's date parts admit it, then the times of day are added,
 * and BYSETPOS picks within each FREQ period. ical.js 2.2.1 is not used for this: it expands many
 * accepted rules wrongly (60 §4: BYWEEKNO, BYSETPOS with WEEKLY, MONTHLY with INTERVAL and
 * BYMONTH, negative BYMONTHDAY with DAILY, with BYDAY, or with YEARLY and BYMONTH (no 29
 * February), BY lists not in ascending order), and a list of its known faults is never complete.
 */
function* candidates(rule: Rule, dtstart: string, end: string): Generator<string> {
  const admits = dateFilter(withImpliedParts(rule, dtstart));
  const interval = Number(part(rule, 'INTERVAL') ?? '1');
  const wkst = WEEKDAYS.indexOf(part(rule, 'WKST') ?? 'MO');
  const positions = part(rule, 'BYSETPOS')?.split(',').map(Number);
  const times = timesOfDay(rule, dtstart);
  const startDay = dayOfWall(dtstart);
  const first = periodOf(rule, startDay, readWall(dtstart).hour, wkst);
  const endDay = dayOfWall(end);
  const select = (set: string[]) => (positions === undefined ? set : [...new Set(positions.map((n) => set[n > 0 ? n - 1 : set.length + n]).filter((v) => v !== undefined))].sort());
  let bucket: string[] = [];
  let bucketPeriod = first;
  for (let day = periodStartDay(rule, startDay, wkst); ; day++) {
    // Past the end only once the last period is over: BYSETPOS needs complete periods.
    if (day > endDay && periodOf(rule, day, 0, wkst) !== bucketPeriod) break;
    if (!admits(day)) continue;
    const date = dateOfDay(day);
    for (const { hour, time } of times) {
      const period = periodOf(rule, day, hour, wkst);
      if (period !== bucketPeriod) {
        yield* select(bucket);
        bucket = [];
        bucketPeriod = period;
      }
      if ((period - first) % interval === 0) bucket.push(`${date} ${time}`);
    }
  }
  yield* select(bucket);
}

/** The rule's starts (DTSTART first), stopped at UNTIL, COUNT, the horizon or cap + 1. */
function ruleStarts(rule: Rule, bounds: ExpansionBounds): { starts: string[]; complete: boolean } {
  const until = rule.until === undefined ? undefined : untilInZone(rule.until, bounds.zone);
  const starts = [bounds.dtstart];
  if (rule.count === 1 || (until !== undefined && until < bounds.dtstart)) return { starts, complete: true };
  const end = until !== undefined && until < bounds.horizonEnd ? until : bounds.horizonEnd;
  for (const wall of candidates(rule, bounds.dtstart, end)) {
    if (wall <= bounds.dtstart) continue;
    if (until !== undefined && wall > until) return { starts, complete: true };
    if (wall > bounds.horizonEnd || starts.length > bounds.cap) return { starts, complete: false };
    starts.push(wall);
    if (rule.count !== undefined && starts.length >= rule.count) return { starts, complete: true };
  }
  // The candidates ran out: at UNTIL the rule is over, at the horizon it goes on.
  return { starts, complete: end !== bounds.horizonEnd };
}

/**
 * The instances of a series (60 §4 steps 1–4) on floating wall-clock time in T: the rule from
 * DTSTART, plus `rdate`, minus `exdate` (exact start, or the whole local date of a date-only
 * entry). Converting each start to UTC is the caller's job, with the conversion every event uses.
 */
export function expandRecurrence(spec: RecurrenceSpec, bounds: ExpansionBounds): Expansion {
  const { starts, complete: ruleDone } = spec.rule === null ? { starts: [bounds.dtstart], complete: true } : ruleStarts(spec.rule, bounds);
  const added = spec.rdate.map((rdate) => (rdate.length === 10 ? `${rdate} ${timeOf(bounds.dtstart)}` : rdate));
  // 60 §4.1: occurrences exist up to the horizon; a later added date waits until it reaches it.
  const rdates = added.filter((rdate) => rdate <= bounds.horizonEnd);
  const complete = ruleDone && rdates.length === added.length;
  // RFC 5545 §3.8.5: a set of instants. Two wall clocks naming one instant (one in a DST gap, the
  // other after it) are one instance, kept at the earlier wall clock; an EXDATE removes it by either.
  const instant = (wall: string) => wallToUtc(wall, bounds.zone);
  const byInstant = new Map<string, string>();
  for (const start of [...starts, ...rdates].sort()) {
    const utc = instant(start);
    if (!byInstant.has(utc)) byInstant.set(utc, start);
  }
  const excludedInstants = new Set(spec.exdate.filter((entry) => entry.length > 10).map(instant));
  const excludedDates = new Set(spec.exdate.filter((entry) => entry.length === 10));
  const kept = [...byInstant].filter(([utc, start]) => !excludedInstants.has(utc) && !excludedDates.has(start.slice(0, 10))).map(([, start]) => start);
  const instances: Instance[] = [];
  let previousDate = '';
  let ordinal = 0;
  for (const start of kept) {
    const date = start.slice(0, 10);
    ordinal = date === previousDate ? ordinal + 1 : 1;
    previousDate = date;
    instances.push({ start, key: `${date}#${ordinal}` });
  }
  return { instances, overCap: instances.length > bounds.cap, complete };
}

/**
 * 60 §4 step 5: an instance lasts the master's nominal duration (whole days plus the clock
 * difference), so a 19:30–22:00 event ends at 22:00 on every date, DST or not.
 */
export function nominalEnd(dtstart: string, dtend: string, start: string): string {
  const shift = wallMillis(readWall(dtend)) - wallMillis(readWall(dtstart));
  return writeWall(wallAt(wallMillis(readWall(start)) + shift));
}

/**
 * Whether the rule yields any instance besides DTSTART, however far ahead (60 §3.1
 * `recurrence-empty`, e.g. BYMONTH=2;BYMONTHDAY=30); looks a century ahead.
 */
export function hasSecondInstance(rule: Rule, zone: string, dtstart: string): boolean {
  const year = Number(dtstart.slice(0, 4));
  const horizonEnd = `${String(Math.min(year + 100, 9999)).padStart(4, '0')}-12-31 23:59:59`;
  return ruleStarts(rule, { zone, dtstart, horizonEnd, cap: 1 }).starts.length > 1;
}
