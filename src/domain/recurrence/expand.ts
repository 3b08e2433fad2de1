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

const toIcal = (wall: string) => ICAL.Time.fromDateTimeString(wall.replace(' ', 'T'));
const fromIcal = (time: ICAL.Time) => time.toString().replace('T', ' ');

function daysInMonth(year: number, month: number): number {
  return wallAt(wallMillis({ year, month: month + 1, day: 0, hour: 0, minute: 0, second: 0 })).day;
}

/**
 * 60 §4 step 3: ical.js 2.2.1 rolls invalid dates over (BYMONTH=2;BYMONTHDAY=30 → 2 March),
 * where RFC 5545 ignores them; an instance is kept only if its own date satisfies the
 * BYMONTH / BYMONTHDAY / BYDAY weekday parts.
 */
function satisfiesRule(rule: Rule, wall: string): boolean {
  const w = readWall(wall);
  const months = part(rule, 'BYMONTH');
  if (months !== undefined && !months.split(',').map(Number).includes(w.month)) return false;
  const monthDays = part(rule, 'BYMONTHDAY');
  if (monthDays !== undefined) {
    const last = daysInMonth(w.year, w.month);
    if (!monthDays.split(',').map(Number).some((n) => (n > 0 ? n : last + 1 + n) === w.day)) return false;
  }
  const days = part(rule, 'BYDAY');
  if (days !== undefined) {
    const weekday = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'][new Date(wallMillis(w)).getUTCDay()];
    if (!days.split(',').some((item) => item.endsWith(weekday))) return false;
  }
  return true;
}

/** The rule's starts (DTSTART first), stopped at UNTIL, COUNT, the horizon or cap + 1. */
function ruleStarts(rule: Rule, bounds: ExpansionBounds): { starts: string[]; complete: boolean } {
  const until = rule.until === undefined ? undefined : untilInZone(rule.until, bounds.zone);
  const starts = [bounds.dtstart];
  if (rule.count === 1 || (until !== undefined && until < bounds.dtstart)) return { starts, complete: true };
  const iterator = ICAL.Recur.fromString(iterationRule(rule)).iterator(toIcal(bounds.dtstart));
  for (let step = 0; step < MAX_STEPS; step++) {
    const next = iterator.next();
    if (!next) return { starts, complete: true };
    const wall = fromIcal(next);
    if (wall <= bounds.dtstart || !satisfiesRule(rule, wall)) continue;
    if (until !== undefined && wall > until) return { starts, complete: true };
    if (wall > bounds.horizonEnd || starts.length > bounds.cap) return { starts, complete: false };
    starts.push(wall);
    if (rule.count !== undefined && starts.length >= rule.count) return { starts, complete: true };
  }
  return { starts, complete: false };
}

const timeOf = (wall: string) => wall.slice(11);

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
