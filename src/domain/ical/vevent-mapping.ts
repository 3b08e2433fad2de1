import { createHash } from 'node:crypto';
import ICAL from 'ical.js';
import { findIana } from 'windows-iana';
import { parseTimeZone, utcToWall, wallToUtc } from '../dates/time-zone.ts';
import { readWall, wallAt, wallMillis, writeWall } from '../dates/wall-clock.ts';
import { isAbsoluteHttpUrl } from '../events/event-web.ts';
import { escapeSpecialChars } from '../text/entities.ts';

export type SkipReason =
  | 'missing-summary' | 'missing-dtstart' | 'unknown-timezone' | 'date-out-of-range' | 'cancelled' | 'exists'
  | 'trashed-locally' | 'own-event' | 'duplicate-in-file' | 'recurrence-override' | 'recurrence-invalid';

export type ImportWarning =
  | 'uid-derived' | 'timezone-mapped' | 'timezone-converted' | 'end-before-start' | 'bad-url' | 'location-is-url'
  | 'geo-ignored' | 'exrule-dropped' | 'attach-binary-ignored' | 'extra-organizer';

/** A series' recurrence in the canonical form of 60 §3, dates as wall clocks in the event zone. */
export interface MappedRecurrence {
  rrule: string;
  rdate: string[];
  /** Timed exclusions as wall clocks; `YYYY-MM-DD` excludes a whole local date. */
  exdate: string[];
}

/** The venue of LOCATION, with GEO when the file gives valid coordinates (C.6). */
export interface MappedVenue {
  name: string;
  address: string;
  geo?: { lat: number; lng: number };
}

/** What one VEVENT says, in the terms of an event write (50 C.4, C.5). */
export interface MappedEvent {
  uid: string;
  /** '' for a plain event or a whole series; the original start in UTC for an override (C.6). */
  instanceKey: string;
  /** RECURRENCE-ID: the original start of the occurrence this VEVENT overrides, in UTC. */
  overrides?: string;
  /** RRULE/RDATE/EXDATE of a series master (C.7). */
  recurrence?: MappedRecurrence;
  title: string;
  /** HTML-escaped plain text. */
  description: string;
  start: string;
  end: string;
  timezone: string;
  allDay: boolean;
  website: string;
  image: string;
  categories: string[];
  venue: MappedVenue | null;
  organizer: { name: string; email: string } | null;
  /** CLASS:PRIVATE / CONFIDENTIAL: applies to new events only. */
  private: boolean;
  sequence: number;
  lastModified: string;
  /** Over every mapped value (DTSTAMP excluded): equal hash = nothing to update. */
  hash: string;
  warnings: ImportWarning[];
}

export type MappedItem =
  | { line: number; uid: string; skip: SkipReason; title?: string }
  | { line: number; uid: string; event: MappedEvent };

export interface MappingContext {
  /** Zone of floating and UTC times (C.1 `timezone`). */
  zone: string;
  /** S: instants of file-defined zones are expressed here. */
  siteZone: string;
  /** The file's own VTIMEZONE definitions by TZID. */
  fileZones: Map<string, ICAL.Timezone>;
  /** `--category` values added to every event. */
  extraCategories: readonly string[];
}

const IMAGE_EXTENSION = /\.(?:jpe?g|png|gif|webp|avif|svg|bmp|tiff?|ico)(?:[?#].*)?$/i;
const DAY = 86_400_000;

/** A TZID the service can store (C.5): a zone it knows as written, a global-prefixed IANA name, or a Windows name. */
export function storableZone(tzid: string): { zone: string; mapped: boolean } | null {
  if (parseTimeZone(tzid) !== null) return { zone: tzid, mapped: false };
  if (tzid.startsWith('/')) {
    const parts = tzid.split('/');
    for (let i = 1; i < parts.length; i++) {
      const candidate = parts.slice(i).join('/');
      if (parseTimeZone(candidate)?.kind === 'iana') return { zone: candidate, mapped: false };
    }
  }
  const windows = findIana(tzid)[0];
  return windows ? { zone: windows, mapped: true } : null;
}

/** R's rescheduling UIDs `{id}-{start}-{end}@{host}` keyed as `tec:{id}@{host}` (C.6). */
export function importUid(uid: string): string {
  const reference = /^(\d+)-\d+-\d+@(.+)$/.exec(uid);
  return reference ? `tec:${reference[1]}@${reference[2]}` : uid;
}

type Moment = { kind: 'wall'; wall: string; zone: string } | { kind: 'utc'; utc: string } | { kind: 'date'; date: string };

class Skip extends Error {
  constructor(readonly reason: SkipReason) {
    super(reason);
  }
}

function digits(time: ICAL.Time): string {
  return writeWall({ year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute, second: time.second });
}

/** A DTSTART/DTEND/RECURRENCE-ID value as a wall clock in a storable zone, a UTC instant, or a date. */
function momentOf(property: ICAL.Property, context: MappingContext, warnings: Set<ImportWarning>): Moment {
  return momentOfTime(property.getFirstValue() as ICAL.Time, property, context, warnings);
}

function momentOfTime(time: ICAL.Time, property: ICAL.Property, context: MappingContext, warnings: Set<ImportWarning>): Moment {
  if (time.isDate) return { kind: 'date', date: digits(time).slice(0, 10) };
  if (time.zone === ICAL.Timezone.utcTimezone) return { kind: 'utc', utc: digits(time) };
  const tzid = property.getParameter('tzid');
  if (typeof tzid !== 'string') return { kind: 'wall', wall: digits(time), zone: context.zone };
  const storable = storableZone(tzid);
  if (storable) {
    if (storable.mapped) warnings.add('timezone-mapped');
    return { kind: 'wall', wall: digits(time), zone: storable.zone };
  }
  const defined = context.fileZones.get(tzid);
  if (!defined) throw new Skip('unknown-timezone');
  warnings.add('timezone-converted');
  const copy = time.clone();
  copy.zone = defined;
  return { kind: 'utc', utc: digits(copy.convertToZone(ICAL.Timezone.utcTimezone)) };
}

function utcOf(moment: Moment): string {
  if (moment.kind === 'utc') return moment.utc;
  if (moment.kind === 'wall') return wallToUtc(moment.wall, moment.zone);
  return `${moment.date} 00:00:00`;
}

function addMillis(wall: string, millis: number): string {
  return writeWall(wallAt(wallMillis(readWall(wall)) + millis));
}

function inRange(wall: string): boolean {
  const year = Number(wall.slice(0, 4));
  return year >= 1900 && year <= 2200;
}

/** Start, end, zone and all-day flag of C.5. */
function schedule(vevent: ICAL.Component, context: MappingContext, warnings: Set<ImportWarning>) {
  const startProperty = vevent.getFirstProperty('dtstart');
  if (!startProperty) throw new Skip('missing-dtstart');
  const startMoment = momentOf(startProperty, context, warnings);
  const endProperty = vevent.getFirstProperty('dtend');
  const duration = vevent.getFirstPropertyValue('duration') as ICAL.Duration | null;

  if (startMoment.kind === 'date') {
    const start = `${startMoment.date} 00:00:00`;
    let end = start;
    if (endProperty) {
      const endMoment = momentOf(endProperty, context, warnings);
      const exclusive = endMoment.kind === 'date' ? `${endMoment.date} 00:00:00` : utcOf(endMoment).slice(0, 10) + ' 00:00:00';
      end = addMillis(exclusive, -DAY);
    } else if (duration) {
      end = addMillis(start, Math.max(0, (duration.weeks * 7 + duration.days) - 1) * DAY);
    }
    if (end < start) end = start;
    return { start, end, zone: context.zone, allDay: true };
  }

  const zone = startMoment.kind === 'wall' ? startMoment.zone : startMoment.kind === 'utc' && warnings.has('timezone-converted') ? context.siteZone : context.zone;
  const start = startMoment.kind === 'wall' ? startMoment.wall : utcToWall(utcOf(startMoment), zone);
  let end = start;
  if (endProperty) {
    const endMoment = momentOf(endProperty, context, warnings);
    end = endMoment.kind === 'wall' && endMoment.zone === zone ? endMoment.wall : utcToWall(utcOf(endMoment), zone);
  } else if (duration) {
    // Day and week parts count wall-clock days, time parts exact time (RFC 5545 §3.3.6).
    const sign = duration.isNegative ? -1 : 1;
    const days = addMillis(start, sign * (duration.weeks * 7 + duration.days) * DAY);
    const seconds = sign * (duration.hours * 3600 + duration.minutes * 60 + duration.seconds);
    end = utcToWall(addMillis(wallToUtc(days, zone), seconds * 1000), zone);
  }
  if (wallToUtc(end, zone) < wallToUtc(start, zone)) {
    warnings.add('end-before-start');
    end = start;
  }
  return { start, end, zone, allDay: false };
}

function text(vevent: ICAL.Component, name: string): string {
  const value = vevent.getFirstPropertyValue(name);
  return typeof value === 'string' ? value.replace(/\r\n?/g, '\n').trim() : '';
}

function venueOf(location: string, geo: MappedVenue['geo']): MappedVenue | null {
  const parts = location.split(',').map((part) => part.trim()).filter((part) => part !== '');
  if (parts.length === 0) return null;
  return { name: parts[0].slice(0, 200), address: parts.slice(1).join(', '), ...(geo ? { geo } : {}) };
}

/** GEO `lat;lng` when both are numbers in range (70 §4.1), else undefined with warning `geo-ignored`. */
function geoOf(vevent: ICAL.Component, warnings: Set<ImportWarning>): MappedVenue['geo'] {
  const property = vevent.getFirstProperty('geo');
  if (!property) return undefined;
  const [lat, lng] = (property.getFirstValue() as unknown as [unknown, unknown]) ?? [];
  if (typeof lat === 'number' && typeof lng === 'number' && Math.abs(lat) <= 90 && Math.abs(lng) <= 180) return { lat, lng };
  warnings.add('geo-ignored');
  return undefined;
}

/** A wall clock in `zone` for a date-time of the file (RDATE, EXDATE values), through its own TZID. */
function wallIn(moment: Moment, zone: string): string {
  return moment.kind === 'wall' && moment.zone === zone ? moment.wall : utcToWall(utcOf(moment), zone);
}

/**
 * RRULE, RDATE and EXDATE as the `recurrence` input of 60 §3 in the event's zone (C.7): more
 * than one RRULE is not a rule 60 accepts (skip `recurrence-invalid`), EXRULE is dropped.
 */
function recurrenceOf(vevent: ICAL.Component, times: { start: string; zone: string; allDay: boolean }, context: MappingContext, warnings: Set<ImportWarning>): MappedRecurrence | undefined {
  const rules = vevent.getAllProperties('rrule');
  const rdates = vevent.getAllProperties('rdate');
  if (rules.length === 0 && rdates.length === 0) return undefined;
  if (rules.length > 1) throw new Skip('recurrence-invalid');
  const dates = (name: string, dateOnly: (date: string) => string) =>
    vevent.getAllProperties(name).flatMap((property) =>
      property.getValues().map((value) => {
        const time = value instanceof ICAL.Period ? value.start : (value as ICAL.Time);
        const moment = momentOfTime(time, property, context, warnings);
        if (moment.kind === 'date') return dateOnly(moment.date);
        return times.allDay ? wallIn(moment, times.zone).slice(0, 10) : wallIn(moment, times.zone);
      }),
    );
  // A date-only RDATE of a timed series is an instance at DTSTART's time that day (60 §3).
  const rdate = dates('rdate', (date) => (times.allDay ? date : `${date} ${times.start.slice(11)}`))
    .map((date) => (date.length === 10 ? `${date} 00:00:00` : date));
  const exdate = dates('exdate', (date) => date);
  return { rrule: rules.length === 1 ? String(rules[0].getFirstValue()) : '', rdate, exdate };
}

function organizerOf(vevent: ICAL.Component, warnings: Set<ImportWarning>): { name: string; email: string } | null {
  const organizers = vevent.getAllProperties('organizer');
  if (organizers.length > 1) warnings.add('extra-organizer');
  const first = organizers[0];
  if (!first) return null;
  const value = String(first.getFirstValue() ?? '').trim();
  const email = /^mailto:/i.test(value) ? value.slice(7).trim() : '';
  const cn = first.getParameter('cn');
  const name = (typeof cn === 'string' ? cn : '').trim() || email;
  return name === '' ? null : { name, email };
}

function categoriesOf(vevent: ICAL.Component, extra: readonly string[]): string[] {
  const names = vevent.getAllProperties('categories').flatMap((property) => property.getValues().map((value) => String(value).trim()));
  return [...new Set([...names, ...extra].filter((name) => name !== ''))];
}

function imageOf(vevent: ICAL.Component, warnings: Set<ImportWarning>): string {
  for (const attach of vevent.getAllProperties('attach')) {
    if (attach.getParameter('encoding') !== undefined || String(attach.getParameter('value') ?? '').toUpperCase() === 'BINARY') {
      warnings.add('attach-binary-ignored');
      continue;
    }
    const url = String(attach.getFirstValue() ?? '').trim();
    const type = String(attach.getParameter('fmttype') ?? '');
    if (isAbsoluteHttpUrl(url) && (type.startsWith('image/') || IMAGE_EXTENSION.test(url))) return url;
  }
  return '';
}

function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** One VEVENT as an event write, or the reason it is skipped (C.4–C.7: plain events, series masters, overrides). */
export function mapVevent(vevent: ICAL.Component, line: number, context: MappingContext): MappedItem {
  const warnings = new Set<ImportWarning>();
  const summary = text(vevent, 'summary');
  const location = text(vevent, 'location');
  let uid = text(vevent, 'uid');
  if (uid === '') {
    const start = vevent.getFirstProperty('dtstart')?.toICALString() ?? '';
    uid = `derived:${sha256(`${start}\n${summary}\n${location}`).slice(0, 32)}`;
    warnings.add('uid-derived');
  }
  uid = importUid(uid);
  const skip = (reason: SkipReason): MappedItem => ({ line, uid, skip: reason, ...(summary ? { title: summary } : {}) });
  if (String(vevent.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED') return skip('cancelled');
  if (summary === '') return skip('missing-summary');
  let times;
  let recurrence;
  let overrides;
  try {
    times = schedule(vevent, context, warnings);
    const recurrenceId = vevent.getFirstProperty('recurrence-id');
    // An override describes one occurrence: a rule in it would make a series of its own.
    if (recurrenceId) overrides = utcOf(momentOf(recurrenceId, context, warnings));
    else recurrence = recurrenceOf(vevent, times, context, warnings);
  } catch (error) {
    if (error instanceof Skip) return skip(error.reason);
    throw error;
  }
  if (!inRange(times.start) || !inRange(times.end)) return skip('date-out-of-range');
  if (vevent.hasProperty('exrule')) warnings.add('exrule-dropped');
  const geo = geoOf(vevent, warnings);

  let website = text(vevent, 'url');
  if (website !== '' && !isAbsoluteHttpUrl(website)) {
    warnings.add('bad-url');
    website = '';
  }
  let venue = null;
  if (isAbsoluteHttpUrl(location)) {
    warnings.add('location-is-url');
    if (website === '') website = location;
  } else {
    venue = venueOf(location, geo);
  }
  if (geo && venue === null) warnings.add('geo-ignored');
  const classification = String(vevent.getFirstPropertyValue('class') ?? '').toUpperCase();
  const mapped = {
    title: escapeSpecialChars(summary, false),
    description: escapeSpecialChars(text(vevent, 'description'), false),
    start: times.start,
    end: times.end,
    timezone: times.zone,
    allDay: times.allDay,
    website,
    image: imageOf(vevent, warnings),
    categories: categoriesOf(vevent, context.extraCategories),
    venue,
    organizer: organizerOf(vevent, warnings),
    private: classification === 'PRIVATE' || classification === 'CONFIDENTIAL',
    ...(recurrence ? { recurrence } : {}),
  };
  const lastModified = vevent.getFirstPropertyValue('last-modified');
  return {
    line,
    uid,
    event: {
      uid,
      instanceKey: overrides === undefined ? '' : `${overrides.replace(/[-:]/g, '').replace(' ', 'T')}Z`,
      ...(overrides === undefined ? {} : { overrides }),
      ...mapped,
      sequence: Number(vevent.getFirstPropertyValue('sequence') ?? 0) || 0,
      lastModified: lastModified instanceof ICAL.Time ? lastModified.toString() : '',
      hash: sha256(JSON.stringify(mapped)),
      warnings: [...warnings],
    },
  };
}
