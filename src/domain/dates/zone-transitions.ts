import { IANAZone } from 'luxon';
import { zoneAbbreviation } from './time-zone.ts';
import { wallAt, writeWall } from './wall-clock.ts';

/** One change of a zone's UTC offset, as a VTIMEZONE sub-block describes it (RFC 5545 §3.6.5). */
export interface ZoneTransition {
  /** Wall clock just before the change, in the offset that ends (the sub-block's DTSTART). */
  localStart: string;
  offsetFrom: number;
  offsetTo: number;
  /** The abbreviation in force after the change. */
  name: string;
  daylight: boolean;
}

const MINUTE = 60_000;
const WEEK = 7 * 24 * 60 * MINUTE;

/**
 * The offset changes of an IANA zone from 1 January of `fromYear` to the end of `toYear`, read
 * from the same tz data (Node's Intl, through luxon) that computes the `utc_*` dates, so that a
 * file and the JSON API never disagree. Weekly probes, then a search to the minute: no zone
 * changes twice within a week.
 */
export function zoneTransitions(zone: string, fromYear: number, toYear: number): ZoneTransition[] {
  const tz = IANAZone.create(zone);
  const end = Date.UTC(toYear + 1, 0, 1);
  const transitions: ZoneTransition[] = [];
  let at = Date.UTC(fromYear, 0, 1);
  let offset = tz.offset(at);
  while (at < end) {
    const next = Math.min(at + WEEK, end);
    const nextOffset = tz.offset(next);
    if (nextOffset !== offset) {
      let low = at;
      let high = next;
      while (high - low > MINUTE) {
        const middle = low + Math.floor((high - low) / 2 / MINUTE) * MINUTE;
        if (tz.offset(middle) === offset) low = middle;
        else high = middle;
      }
      transitions.push(describe(zone, high, offset, nextOffset));
    }
    at = next;
    offset = nextOffset;
  }
  return transitions;
}

/** The zone's single offset where it never changes in the span (a sub-block from 1970). */
export function standingOffset(zone: string, atMillis: number): { offset: number; name: string } {
  return { offset: IANAZone.create(zone).offset(atMillis), name: zoneAbbreviation(zone, writeWall(wallAt(atMillis))) };
}

function describe(zone: string, millis: number, from: number, to: number): ZoneTransition {
  const tz = IANAZone.create(zone);
  // Daylight time is the higher of the offsets around it; a change of standard offset is STANDARD.
  const winter = Math.min(tz.offset(Date.UTC(new Date(millis).getUTCFullYear(), 0, 1)), tz.offset(Date.UTC(new Date(millis).getUTCFullYear(), 6, 1)));
  return {
    localStart: writeWall(wallAt(millis + from * MINUTE)),
    offsetFrom: from,
    offsetTo: to,
    name: zoneAbbreviation(zone, writeWall(wallAt(millis))),
    daylight: to > winter,
  };
}
