import ICAL from 'ical.js';
import { readWall, wallAt, wallMillis, writeWall } from '../dates/wall-clock.ts';
import type { RecurrenceSpec } from './recurrence-input.ts';
import { iterationRule, part, untilInZone, type Rule } from './rule.ts';

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
  /** The rule ends (COUNT, UNTIL, or no rule) before the horizon: later extension adds nothing. */
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

// A rule that generates nothing valid (e.g. 30 February) must not spin forever before the horizon.
const MAX_STEPS = 200_000;

const timeOf = (wall: string) => wall.slice(11);
const toIcal = (wall: string) => ICAL.Time.fromDateTimeString(wall.replace(' ', 'T'));
const fromIcal = (time: ICAL.Time) => time.toString().replace('T', ' ');

function daysInMonth(year: number, month: number): number {
  return wallAt(wallMillis({ year, month: month + 1, day: 0, hour: 0, minute: 0, second: 0 })).day;
}

const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];
const DAY_MS = 86_400_000;

const dayNumber = (year: number, month: number, day: number) => wallMillis({ year, month, day, hour: 0, minute: 0, second: 0 }) / DAY_MS;

/** Day number (days since 1970) of the first day of week 1 of `year` (RFC 5545: the first week with at least 4 days, starting on WKST). */
function firstWeekStart(year: number, wkst: number): number {
  const jan1 = dayNumber(year, 1, 1);
  const offset = (new Date(jan1 * DAY_MS).getUTCDay() - wkst + 7) % 7;
  return 7 - offset >= 4 ? jan1 - offset : jan1 - offset + 7;
}

/** The RFC 5545 week number of a date (positive) and the number of weeks of its week-year. */
function weekNumber(year: number, month: number, day: number, wkst: number): { week: number; weeks: number } {
  const today = dayNumber(year, month, day);
  let weekYear = year;
  if (today >= firstWeekStart(year + 1, wkst)) weekYear = year + 1;
  else if (today < firstWeekStart(year, wkst)) weekYear = year - 1;
  const start = firstWeekStart(weekYear, wkst);
  return { week: Math.floor((today - start) / 7) + 1, weeks: (firstWeekStart(weekYear + 1, wkst) - start) / 7 };
}

/** Whether `day` is the n-th (negative: from the end) weekday of the span [first, last] it lies in. */
function nthInSpan(n: number, day: number, first: number, last: number): boolean {
  return n > 0 ? Math.floor((day - first) / 7) + 1 === n : Math.floor((last - day) / 7) + 1 === -n;
}

/**
 * 60 §4 step 3: ical.js 2.2.1 rolls invalid dates over (BYMONTH=2;BYMONTHDAY=30 → 2 March),
 * where RFC 5545 ignores them, and yields every Monday for `FREQ=YEARLY;BYDAY=20MO` or
 * `BYWEEKNO=20;BYDAY=MO`. An instance is kept only if its own date satisfies the BYMONTH,
 * BYMONTHDAY, BYWEEKNO and BYDAY parts (ordinals within the month or the year, as the rule says).
 */
function satisfiesRule(rule: Rule, wall: string): boolean {
  const w = readWall(wall);
  const months = part(rule, 'BYMONTH');
  if (months !== undefined && !months.split(',').map(Number).includes(w.month)) return false;
  const last = daysInMonth(w.year, w.month);
  const monthDays = part(rule, 'BYMONTHDAY');
  if (monthDays !== undefined && !monthDays.split(',').map(Number).some((n) => (n > 0 ? n : last + 1 + n) === w.day)) return false;
  const yearDays = part(rule, 'BYYEARDAY');
  if (yearDays !== undefined) {
    const day = dayNumber(w.year, w.month, w.day) - dayNumber(w.year, 1, 1) + 1;
    const length = dayNumber(w.year + 1, 1, 1) - dayNumber(w.year, 1, 1);
    if (!yearDays.split(',').map(Number).some((n) => (n > 0 ? n : length + 1 + n) === day)) return false;
  }
  const wkst = WEEKDAYS.indexOf(part(rule, 'WKST') ?? 'MO');
  const weekNumbers = part(rule, 'BYWEEKNO');
  if (weekNumbers !== undefined) {
    const { week, weeks } = weekNumber(w.year, w.month, w.day, wkst);
    if (!weekNumbers.split(',').map(Number).some((n) => (n > 0 ? n : weeks + 1 + n) === week)) return false;
  }
  const days = part(rule, 'BYDAY');
  if (days === undefined) return true;
  const today = dayNumber(w.year, w.month, w.day);
  const weekday = WEEKDAYS[new Date(today * DAY_MS).getUTCDay()];
  // Ordinals count within the month (MONTHLY, or YEARLY with BYMONTH) or else within the year.
  const inMonth = rule.freq === 'MONTHLY' || months !== undefined;
  const [first, end] = inMonth ? [dayNumber(w.year, w.month, 1), dayNumber(w.year, w.month, last)] : [dayNumber(w.year, 1, 1), dayNumber(w.year, 12, 31)];
  return days.split(',').some((item) => {
    if (!item.endsWith(weekday)) return false;
    const ordinal = item.slice(0, -2);
    return ordinal === '' || nthInSpan(Number(ordinal), today, first, end);
  });
}

/**
 * Rules ical.js 2.2.1 expands wrongly (60 §4, compared with RFC 5545): BYWEEKNO (every weekday
 * instead), BYSETPOS with WEEKLY or with YEARLY + BYMONTH, MONTHLY with INTERVAL > 1 and
 * BYMONTH, a negative BYMONTHDAY with DAILY (it never returns) or with BYDAY. These are
 * iterated here day by day and filtered by the rule's own parts.
 */
function needsDayByDay(rule: Rule): boolean {
  const has = (name: string) => part(rule, name) !== undefined;
  const negativeMonthDay = (part(rule, 'BYMONTHDAY') ?? '').split(',').some((value) => value.startsWith('-'));
  return has('BYWEEKNO')
    || (has('BYSETPOS') && (rule.freq === 'WEEKLY' || (rule.freq === 'YEARLY' && has('BYMONTH'))))
    || (rule.freq === 'MONTHLY' && Number(part(rule, 'INTERVAL') ?? '1') > 1 && has('BYMONTH'))
    || (negativeMonthDay && (rule.freq === 'DAILY' || has('BYDAY')));
}

/** The date parts RFC 5545 §3.3.10 takes from DTSTART when the rule gives none. */
function withImpliedParts(rule: Rule, dtstart: string): Rule {
  const has = (name: string) => part(rule, name) !== undefined;
  const w = readWall(dtstart);
  const weekday = WEEKDAYS[new Date(wallMillis(w)).getUTCDay()];
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

/** The FREQ period a wall clock falls in (days, weeks from WKST, months, years), as a counter. */
function periodOf(rule: Rule, wall: string, wkst: number): number {
  const w = readWall(wall);
  const day = dayNumber(w.year, w.month, w.day);
  if (rule.freq === 'DAILY') return day;
  if (rule.freq === 'WEEKLY') return (day - ((new Date(day * DAY_MS).getUTCDay() - wkst + 7) % 7)) / 7;
  if (rule.freq === 'MONTHLY') return w.year * 12 + w.month - 1;
  return w.year;
}

/** The first day of DTSTART's period, so that BYSETPOS counts from the period's start. */
function periodStart(rule: Rule, dtstart: string, wkst: number): string {
  const w = readWall(dtstart);
  if (rule.freq === 'WEEKLY') {
    const back = (new Date(wallMillis(w)).getUTCDay() - wkst + 7) % 7;
    return writeWall(wallAt(wallMillis(w) - back * DAY_MS));
  }
  if (rule.freq === 'MONTHLY') return `${dtstart.slice(0, 8)}01 ${timeOf(dtstart)}`;
  if (rule.freq === 'YEARLY') return `${dtstart.slice(0, 4)}-01-01 ${timeOf(dtstart)}`;
  return dtstart;
}

function* dayByDay(rule: Rule, dtstart: string, end: string): Generator<string> {
  const full = withImpliedParts(rule, dtstart);
  const interval = Number(part(rule, 'INTERVAL') ?? '1');
  const wkst = WEEKDAYS.indexOf(part(rule, 'WKST') ?? 'MO');
  const positions = part(rule, 'BYSETPOS')?.split(',').map(Number);
  const first = periodOf(rule, dtstart, wkst);
  const timeParts = rule.parts.filter(([name]) => ['BYHOUR', 'BYMINUTE', 'BYSECOND'].includes(name));
  const daily = ['FREQ=DAILY', ...timeParts.map(([name, value]) => `${name}=${value}`)].join(';');
  const iterator = ICAL.Recur.fromString(daily).iterator(toIcal(periodStart(rule, dtstart, wkst)));
  const select = (set: string[]) => (positions === undefined ? set : [...new Set(positions.map((n) => set[n > 0 ? n - 1 : set.length + n]).filter((v) => v !== undefined))].sort());
  let bucket: string[] = [];
  let bucketPeriod = first;
  for (let step = 0; step < MAX_STEPS; step++) {
    const next = iterator.next();
    if (!next) break;
    const wall = fromIcal(next);
    if (wall.length !== 19) break;
    const period = periodOf(rule, wall, wkst);
    if (period !== bucketPeriod) {
      yield* select(bucket);
      // Past the end only once a whole period is out: BYSETPOS needs complete periods.
      if (wall > end) return;
      bucket = [];
      bucketPeriod = period;
    }
    if ((period - first) % interval === 0 && satisfiesRule(full, wall)) bucket.push(wall);
  }
  yield* select(bucket);
}

/** Candidates up to `end` (a wall clock), beyond which the caller wants nothing. */
function* withLibrary(rule: Rule, dtstart: string, end: string): Generator<string> {
  // Dates implied by DTSTART are checked too: ical.js turns a yearly 29 February into 1 March.
  const full = withImpliedParts(rule, dtstart);
  const iterator = ICAL.Recur.fromString(iterationRule(rule)).iterator(toIcal(dtstart));
  for (let step = 0; step < MAX_STEPS; step++) {
    const next = iterator.next();
    if (!next) return;
    const wall = fromIcal(next);
    if (wall.length !== 19 || wall > end) return;
    if (satisfiesRule(full, wall)) yield wall;
  }
}

/** The rule's starts (DTSTART first), stopped at UNTIL, COUNT, the horizon or cap + 1. */
function ruleStarts(rule: Rule, bounds: ExpansionBounds): { starts: string[]; complete: boolean } {
  const until = rule.until === undefined ? undefined : untilInZone(rule.until, bounds.zone);
  const starts = [bounds.dtstart];
  if (rule.count === 1 || (until !== undefined && until < bounds.dtstart)) return { starts, complete: true };
  const end = until !== undefined && until < bounds.horizonEnd ? until : bounds.horizonEnd;
  const candidates = needsDayByDay(rule) ? dayByDay(rule, bounds.dtstart, end) : withLibrary(rule, bounds.dtstart, end);
  for (const wall of candidates) {
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
  const { starts, complete } = spec.rule === null ? { starts: [bounds.dtstart], complete: true } : ruleStarts(spec.rule, bounds);
  const all = new Set(starts);
  for (const rdate of spec.rdate) all.add(rdate.length === 10 ? `${rdate} ${timeOf(bounds.dtstart)}` : rdate);
  const excludedStarts = new Set(spec.exdate.filter((entry) => entry.length > 10));
  const excludedDates = new Set(spec.exdate.filter((entry) => entry.length === 10));
  const kept = [...all].filter((start) => !excludedStarts.has(start) && !excludedDates.has(start.slice(0, 10))).sort();
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
