import ICAL from 'ical.js';
import { isRepeatedWallClock, wallToUtc } from '../../domain/dates/time-zone.ts';
import { expandRecurrence } from '../../domain/recurrence/expand.ts';
import { withDateUntil } from '../../domain/recurrence/rule.ts';
import { loadRecurrence, seriesRecurrence } from '../../domain/recurrence/series.ts';
import type { EventRow } from '../../storage/schema.ts';
import type { EventModel } from '../json/event-serializer.ts';
import { dateOf, icalParam, timeOf } from './ical-values.ts';
import { seriesZone } from './vtimezone.ts';

/**
 * A series as one file shows it (60 §7): the master, the occurrences the request may see that
 * need a VEVENT of their own (see isException), the original starts of those it may not see
 * (written as EXDATE, so that a client expanding the rule does not bring them back), and the
 * end of its last materialised occurrence.
 */
export interface SeriesModel {
  master: EventModel;
  exceptions: EventModel[];
  hidden: string[];
  lastEnd: string;
}

export type CalendarEntry = EventModel | SeriesModel;

export function isSeries(entry: CalendarEntry): entry is SeriesModel {
  return 'exceptions' in entry;
}

/**
 * An occurrence that needs its own VEVENT beside the rule: one with overridden fields or moved
 * (`recurrence_exception` of 60 §5), and one whose wall clock falls in a repeated hour, which
 * RFC 5545 clients would place an hour off the API (50 B.9).
 */
export function isException(event: EventRow, master: EventRow): boolean {
  if (event.overridden !== null || event.recurrence_id !== event.start_local) return true;
  const zone = seriesZone(master);
  return zone !== undefined && event.all_day === 0 && (isRepeatedWallClock(event.start_local, zone) || isRepeatedWallClock(event.end_local, zone));
}

/** A date-time of the series (DTSTART's form): VALUE=DATE, TZID wall clock, or UTC. */
function seriesTime(master: EventRow, name: string, value: string): ICAL.Property {
  const wall = value.length === 10 ? `${value} 00:00:00` : value;
  const property = new ICAL.Property(name);
  if (master.all_day === 1) {
    property.setValue(dateOf(wall, 0));
    return property;
  }
  const zone = seriesZone(master);
  property.setValue(zone === undefined ? timeOf(wallToUtc(wall, master.timezone), true) : timeOf(wall, false));
  if (zone !== undefined) property.setParameter('tzid', icalParam(zone));
  return property;
}

/** RECURRENCE-ID of an occurrence: its original start, written as the master writes DTSTART. */
export function recurrenceIdOf(master: EventModel, occurrence: EventRow): ICAL.Property {
  return seriesTime(master.event, 'recurrence-id', occurrence.recurrence_id ?? occurrence.start_local);
}

/** The rule with UNTIL as RFC 5545 wants it: UTC for timed series, a local DATE for all-day ones. */
function ruleValue(master: EventRow, rrule: string): ICAL.Recur {
  return ICAL.Recur.fromString(master.all_day === 1 ? withDateUntil(rrule, master.timezone) : rrule);
}

/**
 * The starts a date-only exclusion removes from a timed series: every instance the rule gives on
 * that local date (60 §3), since clients match EXDATE values against instance starts.
 */
function excludedStarts(master: EventRow, dates: readonly string[]): string[] {
  if (dates.length === 0) return [];
  const spec = loadRecurrence(master);
  const last = [...dates].sort()[dates.length - 1];
  const { instances } = expandRecurrence({ ...spec, exdate: [] }, { zone: master.timezone, dtstart: master.start_local, horizonEnd: `${last} 23:59:59`, cap: 100_000 });
  return instances.map((instance) => instance.start).filter((start) => dates.includes(start.slice(0, 10)));
}

/** RRULE, RDATE and EXDATE of a series master (60 §7): rule exclusions, trashed and unseen occurrences. */
export function addRecurrence(component: ICAL.Component, series: SeriesModel): void {
  const master = series.master.event;
  const recurrence = seriesRecurrence(master);
  if (recurrence.rrule !== '') component.addPropertyWithValue('rrule', ruleValue(master, recurrence.rrule));
  for (const rdate of recurrence.rdate) component.addProperty(seriesTime(master, 'rdate', rdate));
  const wholeDays = recurrence.exdate.filter((entry) => entry.length === 10);
  const timed = master.all_day === 1 ? [] : excludedStarts(master, wholeDays);
  const excluded = new Set([...recurrence.exdate.filter((entry) => entry.length !== 10 || master.all_day === 1), ...timed, ...series.hidden]
    .map((entry) => (master.all_day === 1 ? entry.slice(0, 10) : entry)));
  for (const start of [...excluded].sort()) component.addProperty(seriesTime(master, 'exdate', start));
}
