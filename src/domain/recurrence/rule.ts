import { utcToWall, wallToUtc } from '../dates/time-zone.ts';
import { isCalendarDate } from '../dates/wall-clock.ts';
import { RecurrenceError } from './recurrence-error.ts';

/**
 * An RRULE (RFC 5545 §3.3.10) checked strictly (60 §3.1): unknown parts, out-of-range values,
 * COUNT together with UNTIL and parts RFC 5545 forbids for the frequency are refused.
 */
export interface Rule {
  freq: Frequency;
  /** The parts in their written order, FREQ/COUNT/UNTIL excluded, names upper-case. */
  parts: Array<[string, string]>;
  count?: number;
  /** UNTIL as written: a date, a floating date-time, or a UTC date-time. */
  until?: Until;
}

export type Frequency = 'HOURLY' | 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';
export interface Until {
  /** `YYYY-MM-DD HH:MM:SS`; a date-only UNTIL carries 23:59:59 ("through that local day"). */
  wall: string;
  utc: boolean;
}

const FREQUENCIES = new Set<string>(['HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']);
const WEEKDAY = '(?:SU|MO|TU|WE|TH|FR|SA)';
const WEEKDAY_PATTERN = new RegExp(`^${WEEKDAY}$`);
const BYDAY_PATTERN = new RegExp(`^([+-]?)(\\d{1,2})?(${WEEKDAY})$`);

/** Integers in [min, max], signed ones excluding 0 (RFC 5545 ranges). */
function integerList(min: number, max: number, signed: boolean) {
  return (value: string): boolean =>
    value.split(',').every((item) => {
      if (!/^[+-]?\d{1,3}$/.test(item)) return false;
      const n = Number(item);
      if (!signed && /^[+-]/.test(item)) return false;
      return signed ? n !== 0 && Math.abs(n) >= min && Math.abs(n) <= max : n >= min && n <= max;
    });
}

const BY_PARTS: Record<string, (value: string) => boolean> = {
  INTERVAL: (value) => /^\d{1,4}$/.test(value) && Number(value) >= 1,
  BYSECOND: integerList(0, 60, false),
  BYMINUTE: integerList(0, 59, false),
  BYHOUR: integerList(0, 23, false),
  BYDAY: (value) =>
    value.split(',').every((item) => {
      const m = BYDAY_PATTERN.exec(item);
      return m !== null && (m[2] === undefined ? m[1] === '' : Number(m[2]) >= 1 && Number(m[2]) <= 53);
    }),
  BYMONTHDAY: integerList(1, 31, true),
  BYYEARDAY: integerList(1, 366, true),
  BYWEEKNO: integerList(1, 53, true),
  BYMONTH: integerList(1, 12, false),
  BYSETPOS: integerList(1, 366, true),
  WKST: (value) => WEEKDAY_PATTERN.test(value),
};

const UNTIL_PATTERN = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/;

function readUntil(value: string): Until {
  const m = UNTIL_PATTERN.exec(value);
  if (!m || !isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]))) throw new RecurrenceError('recurrence-invalid-rule');
  const date = `${m[1]}-${m[2]}-${m[3]}`;
  if (m[4] === undefined) return { wall: `${date} 23:59:59`, utc: false };
  if (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 60) throw new RecurrenceError('recurrence-invalid-rule');
  return { wall: `${date} ${m[4]}:${m[5]}:${m[6]}`, utc: m[7] === 'Z' };
}

/** Reads `FREQ=WEEKLY;BYDAY=MO;COUNT=10` (an optional `RRULE:` prefix is allowed). */
export function parseRule(text: string): Rule {
  const body = text.trim().replace(/^RRULE:/i, '');
  if (body === '') throw new RecurrenceError('recurrence-invalid-rule');
  const seen = new Set<string>();
  const rule: Partial<Rule> & { parts: Array<[string, string]> } = { parts: [] };
  for (const piece of body.split(';')) {
    const eq = piece.indexOf('=');
    if (eq <= 0) throw new RecurrenceError('recurrence-invalid-rule');
    const name = piece.slice(0, eq).trim().toUpperCase();
    const value = piece.slice(eq + 1).trim().toUpperCase();
    if (seen.has(name)) throw new RecurrenceError('recurrence-invalid-rule');
    seen.add(name);
    if (name === 'FREQ') {
      // Calendar events, not timers: SECONDLY and MINUTELY are refused like unknown values.
      if (!FREQUENCIES.has(value)) throw new RecurrenceError('recurrence-invalid-rule');
      rule.freq = value as Frequency;
    } else if (name === 'COUNT') {
      if (!/^\d{1,9}$/.test(value) || Number(value) < 1) throw new RecurrenceError('recurrence-invalid-rule');
      rule.count = Number(value);
    } else if (name === 'UNTIL') {
      rule.until = readUntil(value);
    } else {
      const check = BY_PARTS[name];
      if (!check || !check(value)) throw new RecurrenceError('recurrence-invalid-rule');
      rule.parts.push([name, value]);
    }
  }
  if (rule.freq === undefined) throw new RecurrenceError('recurrence-invalid-rule');
  // RFC 5545: COUNT and UNTIL MUST NOT occur together.
  if (rule.count !== undefined && rule.until !== undefined) throw new RecurrenceError('recurrence-invalid-rule');
  if (!partsFitFrequency(rule as Rule)) throw new RecurrenceError('recurrence-invalid-rule');
  return rule as Rule;
}

/**
 * RFC 5545 §3.3.10 combinations that MUST NOT occur: BYDAY ordinals outside MONTHLY/YEARLY (or
 * with BYWEEKNO), BYWEEKNO outside YEARLY, BYYEARDAY with DAILY/WEEKLY/MONTHLY, BYMONTHDAY
 * with WEEKLY.
 */
function partsFitFrequency(rule: Rule): boolean {
  const has = (name: string) => part(rule, name) !== undefined;
  const ordinals = (part(rule, 'BYDAY') ?? '').split(',').some((item) => /\d/.test(item));
  if (ordinals && ((rule.freq !== 'MONTHLY' && rule.freq !== 'YEARLY') || has('BYWEEKNO'))) return false;
  if (has('BYWEEKNO') && rule.freq !== 'YEARLY') return false;
  if (has('BYYEARDAY') && ['DAILY', 'WEEKLY', 'MONTHLY'].includes(rule.freq)) return false;
  if (has('BYMONTHDAY') && rule.freq === 'WEEKLY') return false;
  return true;
}

/** The UNTIL bound as a wall clock in the event zone (60 §3: a UTC UNTIL is converted). */
export function untilInZone(until: Until, zone: string): string {
  return until.utc ? utcToWall(until.wall, zone) : until.wall;
}

const compact = (wall: string): string => wall.replace(/[-:]/g, '').replace(' ', 'T');

/**
 * The rule as stored and exported: UNTIL in UTC (RFC 5545 requires it with a TZID'd DTSTART),
 * parts in a fixed order.
 */
export function formatRule(rule: Rule, zone: string): string {
  const pieces = [`FREQ=${rule.freq}`];
  for (const [name, value] of rule.parts) pieces.push(`${name}=${value}`);
  if (rule.count !== undefined) pieces.push(`COUNT=${rule.count}`);
  if (rule.until !== undefined) {
    const utc = rule.until.utc ? rule.until.wall : wallToUtc(rule.until.wall, zone);
    pieces.push(`UNTIL=${compact(utc)}Z`);
  }
  return pieces.join(';');
}

/**
 * A stored rule as an all-day series writes it: UNTIL as the local DATE in the event zone
 * (RFC 5545 §3.3.10: UNTIL takes DTSTART's value type, and an all-day DTSTART is a DATE).
 */
export function withDateUntil(rrule: string, zone: string): string {
  return rrule.replace(/UNTIL=(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z/, (_all, y, mo, d, h, mi, se) =>
    `UNTIL=${utcToWall(`${y}-${mo}-${d} ${h}:${mi}:${se}`, zone).slice(0, 10).replace(/-/g, '')}`);
}

export function part(rule: Rule, name: string): string | undefined {
  return rule.parts.find(([partName]) => partName === name)?.[1];
}
