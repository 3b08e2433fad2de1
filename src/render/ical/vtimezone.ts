import ICAL from 'ical.js';
import { parseTimeZone, isRepeatedWallClock } from '../../domain/dates/time-zone.ts';
import { standingOffset, zoneTransitions } from '../../domain/dates/zone-transitions.ts';
import { timeOf } from './ical-values.ts';
import type { EventModel } from '../json/event-serializer.ts';
import type { EventRow } from '../../storage/schema.ts';

const MAX_SPAN_YEARS = 30;

/** The zones whose wall clocks a file writes with TZID, and the years to cover (B.6, B.8). */
export interface ZoneSpan {
  zones: string[];
  fromYear: number;
  toYear: number;
}

/**
 * The zone a timed event's DTSTART/DTEND name with TZID (B.9): IANA names other than UTC, unless a
 * wall clock falls in a repeated hour; undefined means the instants are written in UTC.
 */
export function tzidZone(model: EventModel): string | undefined {
  // Asked for by the zone blocks and by DTSTART/DTEND: each model's answer is worked out once.
  if (!tzidZones.has(model)) tzidZones.set(model, decideTzid(model));
  return tzidZones.get(model);
}

const tzidZones = new WeakMap<EventModel, string | undefined>();

function decideTzid(model: EventModel): string | undefined {
  const { event } = model;
  const zone = seriesZone(event);
  if (zone === undefined || isRepeatedWallClock(event.start_local, zone) || isRepeatedWallClock(event.end_local, zone)) return undefined;
  return zone;
}

/**
 * The zone a series master's DTSTART names (60 §7): its IANA zone other than UTC, even in a
 * repeated hour, since clients expand the rule in it; undefined = UTC instants (UTC, offsets).
 */
export function seriesZone(event: EventRow): string | undefined {
  if (event.all_day === 1) return undefined;
  const zone = parseTimeZone(event.timezone);
  return zone?.kind === 'iana' && zone.name !== 'UTC' ? event.timezone : undefined;
}

/** A zone a file writes wall clocks in, from one start to one end. */
export interface ZoneUse {
  zone: string | undefined;
  start: string;
  end: string;
}

export function zoneUse(model: EventModel): ZoneUse {
  return { zone: tzidZone(model), start: model.event.start_local, end: model.event.end_local };
}

export function spanOf(uses: readonly ZoneUse[]): ZoneSpan {
  const zones = new Set<string>();
  let fromYear = Infinity;
  let toYear = -Infinity;
  for (const use of uses) {
    if (use.zone === undefined) continue;
    zones.add(use.zone);
    fromYear = Math.min(fromYear, Number(use.start.slice(0, 4)) - 1);
    toYear = Math.max(toYear, Number(use.end.slice(0, 4)) + 1);
  }
  return { zones: [...zones].sort(), fromYear, toYear: Math.min(toYear, fromYear + MAX_SPAN_YEARS - 1) };
}

function subBlock(kind: 'standard' | 'daylight', localStart: string, from: number, to: number, name: string): ICAL.Component {
  const block = new ICAL.Component(kind);
  block.addPropertyWithValue('dtstart', timeOf(localStart, false));
  block.addPropertyWithValue('tzoffsetfrom', ICAL.UtcOffset.fromSeconds(from * 60));
  block.addPropertyWithValue('tzoffsetto', ICAL.UtcOffset.fromSeconds(to * 60));
  block.addPropertyWithValue('tzname', name);
  return block;
}

/**
 * One VTIMEZONE per zone (B.8): a STANDARD block from 1970 with the offset in force when the span
 * starts, then one block per transition in the span, DTSTART being the local time before it.
 */
export function vtimezone(zone: string, fromYear: number, toYear: number): string {
  const component = new ICAL.Component('vtimezone');
  component.addPropertyWithValue('tzid', zone);
  const start = standingOffset(zone, Date.UTC(fromYear, 0, 1));
  component.addSubcomponent(subBlock('standard', '1970-01-01 00:00:00', start.offset, start.offset, start.name));
  for (const transition of zoneTransitions(zone, fromYear, toYear)) {
    component.addSubcomponent(subBlock(transition.daylight ? 'daylight' : 'standard', transition.localStart, transition.offsetFrom, transition.offsetTo, transition.name));
  }
  return component.toString();
}

// The tz data does not change while the process runs: each block is built once per span.
const blocks = new Map<string, string>();
const BLOCKS_MAX = 500;

export function vtimezones(span: ZoneSpan): string[] {
  return span.zones.map((zone) => {
    const key = `${zone}\u0000${span.fromYear}\u0000${span.toYear}`;
    let block = blocks.get(key);
    if (block === undefined) {
      block = vtimezone(zone, span.fromYear, span.toYear);
      if (blocks.size >= BLOCKS_MAX) blocks.clear();
      blocks.set(key, block);
    }
    return block;
  });
}
