import { wallToUtc, zoneAbbreviation } from '../dates/time-zone.ts';

/** When an event takes place, as stored: wall clocks in its zone, the same instants in UTC. */
export interface EventSchedule {
  start_local: string;
  end_local: string;
  start_utc: string;
  end_utc: string;
  timezone: string;
  timezone_abbr: string;
}

export interface ScheduleRequest {
  /** The event zone T after the request (given, kept, or the site zone). */
  zone: string;
  /** Wall clocks in T parsed from the request's `start_date` / `end_date`, when sent. */
  start?: string;
  end?: string;
  /** The all-day flag the event has after the request. */
  allDay: boolean;
  /** The stored wall clocks on update; absent on create (then both bounds are given). */
  previous?: { start_local: string; end_local: string };
}

const day = (wall: string): string => wall.slice(0, 10);

/**
 * Start and end of an event after a create or update (10-events §6.2, §7.3): a bound that is
 * not sent keeps its stored wall clock (service rule: one bound alone still counts); all-day
 * events span whole days; an end before the start becomes the start. The UTC instants and the
 * abbreviation are always derived from the wall clocks in T, so a zone change without dates
 * recomputes them (⚠ service rule, §7.3).
 */
export function resolveSchedule(request: ScheduleRequest): EventSchedule {
  let start = request.start ?? request.previous?.start_local;
  let end = request.end ?? request.previous?.end_local;
  if (start === undefined || end === undefined) throw new RangeError('an event needs both a start and an end');
  if (request.allDay) {
    start = `${day(start)} 00:00:00`;
    end = `${day(end)} 23:59:59`;
  }
  if (end < start) end = request.allDay ? `${day(start)} 23:59:59` : start;
  const startUtc = wallToUtc(start, request.zone);
  return {
    start_local: start,
    end_local: end,
    start_utc: startUtc,
    end_utc: wallToUtc(end, request.zone),
    timezone: request.zone,
    timezone_abbr: zoneAbbreviation(request.zone, startUtc),
  };
}
