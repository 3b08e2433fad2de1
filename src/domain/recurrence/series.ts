import { parseTimeZone, wallToUtc } from '../dates/time-zone.ts';
import type { RecurrenceSpec } from './recurrence-input.ts';
import { formatRule, parseRule, withDateUntil } from './rule.ts';

/**
 * The recurrence of a series as stored on its master (60 §8), and the one shape other
 * features (iCalendar export, 50/60 §7) serialise: DTSTART/DTEND of the first instance as wall
 * clocks in `zone`, the rule with UNTIL in UTC ('' when only `rdate` makes the series), and the
 * added/excluded starts as wall clocks in `zone` (an `exdate` of 10 characters is a whole date).
 */
export interface SeriesRecurrence {
  zone: string;
  allDay: boolean;
  dtstart: string;
  dtend: string;
  rrule: string;
  rdate: string[];
  exdate: string[];
}

/** The master columns that hold a recurrence. */
export interface StoredRecurrence {
  recurrence_rrule: string | null;
  recurrence_rdate: string | null;
  recurrence_exdate: string | null;
}

/** The columns of a stored series master that make its recurrence. */
export type StoredMaster = StoredRecurrence & { timezone: string; all_day: number; start_local: string; end_local: string };

/** The recurrence of a stored master, in the shape other features serialise (see SeriesRecurrence). */
export function seriesRecurrence(master: StoredMaster): SeriesRecurrence {
  const spec = loadRecurrence(master);
  return {
    zone: master.timezone,
    allDay: master.all_day === 1,
    dtstart: master.start_local,
    dtend: master.end_local,
    rrule: master.recurrence_rrule ?? '',
    rdate: spec.rdate,
    exdate: spec.exdate,
  };
}

export function storeRecurrence(spec: RecurrenceSpec, zone: string): StoredRecurrence {
  return {
    recurrence_rrule: spec.rule === null ? '' : formatRule(spec.rule, zone),
    recurrence_rdate: JSON.stringify([...new Set(spec.rdate)].sort()),
    recurrence_exdate: JSON.stringify([...new Set(spec.exdate)].sort()),
  };
}

export function loadRecurrence(stored: StoredRecurrence): RecurrenceSpec {
  return {
    rule: stored.recurrence_rrule ? parseRule(stored.recurrence_rrule) : null,
    rdate: JSON.parse(stored.recurrence_rdate ?? '[]') as string[],
    exdate: JSON.parse(stored.recurrence_exdate ?? '[]') as string[],
  };
}

const compact = (wall: string) => wall.replace(/[-:]/g, '').replace(' ', 'T');

/** `DTSTART;TZID=T:…` for IANA zones; fixed offsets and UTC are written as UTC instants. */
function dateProperty(name: string, wall: string, zone: string): string {
  if (wall.length === 10) return `${name};VALUE=DATE:${compact(wall)}`;
  const spec = parseTimeZone(zone);
  if (spec?.kind === 'iana') return `${name};TZID=${zone}:${compact(wall)}`;
  return `${name}:${compact(wallToUtc(wall, zone))}Z`;
}

/** The day after a `YYYY-MM-DD…` wall clock's date, as `YYYY-MM-DD`. */
const nextDay = (wall: string): string => new Date(Date.parse(`${wall.slice(0, 10)}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * An all-day series in DATE values, as the iCalendar export writes it (60 §7): DTEND the day
 * after the last day (exclusive), UNTIL a local date, RDATE and EXDATE whole dates.
 */
function allDayLines(series: SeriesRecurrence): string[] {
  const date = (name: string, day: string) => `${name};VALUE=DATE:${day.slice(0, 10).replace(/-/g, '')}`;
  const lines = [date('DTSTART', series.dtstart), date('DTEND', nextDay(series.dtend))];
  if (series.rrule !== '') lines.push(`RRULE:${withDateUntil(series.rrule, series.zone)}`);
  for (const rdate of series.rdate) lines.push(date('RDATE', rdate));
  for (const exdate of series.exdate) lines.push(date('EXDATE', exdate));
  return lines;
}

/** The RFC 5545 lines of a series (the `ical` key of 60 §5). */
export function recurrenceLines(series: SeriesRecurrence): string[] {
  if (series.allDay) return allDayLines(series);
  const lines = [dateProperty('DTSTART', series.dtstart, series.zone), dateProperty('DTEND', series.dtend, series.zone)];
  if (series.rrule !== '') lines.push(`RRULE:${series.rrule}`);
  for (const rdate of series.rdate) lines.push(dateProperty('RDATE', rdate, series.zone));
  for (const exdate of series.exdate) lines.push(dateProperty('EXDATE', exdate, series.zone));
  return lines;
}
