import { parseWallClock } from '../dates/date-input.ts';
import { parseTimeZone, utcToWall, wallToUtc } from '../dates/time-zone.ts';
import { isCalendarDate } from '../dates/wall-clock.ts';
import { RecurrenceError } from './recurrence-error.ts';
import { parseRule, type Rule } from './rule.ts';

/**
 * The recurrence of a series, resolved in the event zone T: the rule, and the added and
 * excluded starts as wall clocks in T (`YYYY-MM-DD HH:MM:SS`). A date-only exclusion
 * (`YYYY-MM-DD`) removes every instance on that local date (60 §3).
 */
export interface RecurrenceSpec {
  rule: Rule | null;
  rdate: string[];
  exdate: string[];
}

/** The `recurrence` argument sets its own list cap (60 §3.1). */
export const MAX_DATES = 1000;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const ICAL_VALUE = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/;

/** Whether the value means "no recurrence" (60 §3: removes it on a master update). */
export function isRecurrenceRemoval(value: unknown): boolean {
  return value === null || value === '' || value === false || value === 'false' || (Array.isArray(value) && value.length === 0);
}

function invalidDate(): RecurrenceError {
  return new RecurrenceError('recurrence-invalid-date');
}

/** A canonical-form date: a date-time input of 10 §2.1 read in T, or (exdate) a bare date. */
function canonicalDate(input: unknown, zone: string, now: Date, dateOnlyAllowed: boolean): string {
  if (dateOnlyAllowed && typeof input === 'string' && DATE_ONLY.test(input.trim())) {
    const [y, m, d] = input.trim().split('-').map(Number);
    if (!isCalendarDate(y, m, d)) throw invalidDate();
    return input.trim();
  }
  const wall = parseWallClock(input, zone, now);
  if (wall === null) throw invalidDate();
  return wall;
}

function dateList(input: unknown, zone: string, now: Date, dateOnlyAllowed: boolean): string[] {
  if (input === undefined || input === null || input === '') return [];
  const items = Array.isArray(input) ? input : typeof input === 'string' ? input.split(',') : [input];
  if (items.length > MAX_DATES) throw invalidDate();
  return items.map((item) => canonicalDate(typeof item === 'string' ? item.trim() : item, zone, now, dateOnlyAllowed));
}

/** `RDATE;TZID=Europe/Rome:20250707T193000,…` / `EXDATE;VALUE=DATE:20250421` values, in T. */
function icalDates(params: Map<string, string>, values: string, zone: string): string[] {
  const tzid = params.get('TZID');
  if (tzid !== undefined && parseTimeZone(tzid) === null) throw invalidDate();
  // A date-only RDATE is an instance at DTSTART's time that day; PERIOD values are not supported.
  const valueType = (params.get('VALUE') ?? 'DATE-TIME').toUpperCase();
  if (valueType !== 'DATE-TIME' && valueType !== 'DATE') throw invalidDate();
  return values.split(',').map((value) => {
    const m = ICAL_VALUE.exec(value.trim());
    if (!m || !isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]))) throw invalidDate();
    const date = `${m[1]}-${m[2]}-${m[3]}`;
    if (m[4] === undefined) return date;
    if (valueType === 'DATE' || Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 59) throw invalidDate();
    const wall = `${date} ${m[4]}:${m[5]}:${m[6]}`;
    if (m[7] === 'Z') return utcToWall(wall, zone);
    // A wall clock of T itself is kept as written: through UTC and back, one in a DST gap would
    // come back an hour later and no longer name the instance it was written for.
    return tzid === undefined || tzid === zone ? wall : utcToWall(wallToUtc(wall, tzid), zone);
  });
}

/** `NAME;P1=V1;P2=V2:value` → name, parameters, value. */
function splitLine(line: string): { name: string; params: Map<string, string>; value: string } {
  const colon = line.indexOf(':');
  if (colon <= 0) throw new RecurrenceError('recurrence-invalid-rule');
  const [name, ...paramTexts] = line.slice(0, colon).split(';');
  const params = new Map<string, string>();
  for (const text of paramTexts) {
    const eq = text.indexOf('=');
    if (eq <= 0) throw new RecurrenceError('recurrence-invalid-rule');
    params.set(text.slice(0, eq).toUpperCase(), text.slice(eq + 1).replace(/^"|"$/g, ''));
  }
  return { name: name.trim().toUpperCase(), params, value: line.slice(colon + 1).trim() };
}

/** RFC 5545 lines, Google style: at most one RRULE, RDATE/EXDATE as often as wanted. */
function fromLines(lines: unknown[], zone: string): RecurrenceSpec {
  const spec: RecurrenceSpec = { rule: null, rdate: [], exdate: [] };
  for (const line of lines) {
    if (typeof line !== 'string') throw new RecurrenceError('recurrence-invalid-rule');
    const { name, params, value } = splitLine(line.trim());
    if (name === 'RRULE') {
      if (spec.rule !== null) throw new RecurrenceError('recurrence-invalid-rule');
      spec.rule = parseRule(value);
    } else if (name === 'RDATE') {
      spec.rdate.push(...icalDates(params, value, zone));
    } else if (name === 'EXDATE') {
      spec.exdate.push(...icalDates(params, value, zone));
    } else {
      // EXRULE is deprecated in RFC 5545; anything else is not a recurrence line.
      throw new RecurrenceError('recurrence-invalid-rule');
    }
  }
  if (spec.rdate.length > MAX_DATES || spec.exdate.length > MAX_DATES) throw invalidDate();
  return spec;
}

/**
 * The `recurrence` input of 60 §3 in any accepted spelling, resolved in the event zone T at `now`
 * (relative date words). Throws a RecurrenceError naming the reason; removal values are the
 * caller's business (see isRecurrenceRemoval).
 */
export function readRecurrence(input: unknown, zone: string, now: Date): RecurrenceSpec {
  let spec: RecurrenceSpec;
  if (typeof input === 'string') {
    const lines = input.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');
    spec = lines.every((line) => line.includes(':')) ? fromLines(lines, zone) : { rule: parseRule(input), rdate: [], exdate: [] };
  } else if (Array.isArray(input)) {
    spec = fromLines(input, zone);
  } else if (typeof input === 'object' && input !== null) {
    const object = input as Record<string, unknown>;
    // Pro's legacy rule storage (60 §3, phase 2) is not translated.
    if ('rules' in object || 'exclusions' in object) throw new RecurrenceError('recurrence-unsupported');
    if (Object.keys(object).some((key) => key !== 'rrule' && key !== 'rdate' && key !== 'exdate')) {
      throw new RecurrenceError('recurrence-invalid-rule');
    }
    const rrule = object.rrule;
    if (rrule !== undefined && rrule !== null && typeof rrule !== 'string') throw new RecurrenceError('recurrence-invalid-rule');
    spec = {
      rule: typeof rrule === 'string' && rrule.trim() !== '' ? parseRule(rrule) : null,
      rdate: dateList(object.rdate, zone, now, false),
      exdate: dateList(object.exdate, zone, now, true),
    };
  } else {
    throw new RecurrenceError('recurrence-invalid-rule');
  }
  if (spec.rule === null && spec.rdate.length === 0) throw new RecurrenceError('recurrence-empty');
  return spec;
}
