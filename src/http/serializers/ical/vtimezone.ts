import ICAL from 'ical.js';
import { parseTimeZone, isRepeatedWallClock } from '../../../domain/dates/time-zone.ts';
import { standingOffset, zoneTransitions } from '../../../domain/dates/zone-transitions.ts';
import { timeOf } from './ical-values.ts';
import type { EventModel } from '../event-serializer.ts';

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
  if (event.all_day === 1) return undefined;
  const zone = parseTimeZone(event.timezone);
  if (zone?.kind !== 'iana' || zone.name === 'UTC') return undefined;
  if (isRepeatedWallClock(event.start_local, event.timezone) || isRepeatedWallClock(event.end_local, event.timezone)) return undefined;
  return event.timezone;
}

export function spanOf(models: readonly EventModel[]): ZoneSpan {
  const zones = new Set<string>();
  let fromYear = Infinity;
  let toYear = -Infinity;
  for (const model of models) {
    const zone = tzidZone(model);
    if (zone === undefined) continue;
    zones.add(zone);
    fromYear = Math.min(fromYear, Number(model.event.start_local.slice(0, 4)) - 1);
    toYear = Math.max(toYear, Number(model.event.end_local.slice(0, 4)) + 1);
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
