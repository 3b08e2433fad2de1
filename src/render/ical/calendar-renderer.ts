import ICAL from 'ical.js';
import { parseTimeZone } from '../../domain/dates/time-zone.ts';
import { ZERO_DATETIME } from '../../domain/dates/datetime-format.ts';
import { occurrencePageUrl } from '../../domain/events/event-web.ts';
import { htmlToPlainText } from '../../domain/text/html-filter.ts';
import type { EventModel } from '../json/event-serializer.ts';
import { imageUrl, storedSizes, uploadUrl } from '../json/image-serializer.ts';
import type { RenderContext } from '../context.ts';
import { dateOf, escapeText, icalParam, icalText, isCleanUri, timeOf } from './ical-values.ts';
import { seriesZone, spanOf, tzidZone, vtimezones, zoneUse, type ZoneUse } from './vtimezone.ts';
import { addRecurrence, isSeries, recurrenceIdOf, type CalendarEntry, type SeriesModel } from './series-vevents.ts';

// RFC 5545 §3.1: at most 75 octets per line. ical.js counts the continuation's leading space
// outside its fold length, so 74 keeps every line within 75.
ICAL.foldLength = 74;

const CRLF = '\r\n';
const DESCRIPTION_MAX = 8000;
export const BODY_MAX_BYTES = 8 * 1024 * 1024;

const IMAGE_TYPES: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp',
  avif: 'image/avif', svg: 'image/svg+xml', bmp: 'image/bmp', tif: 'image/tiff', tiff: 'image/tiff', ico: 'image/x-icon',
};

/** What the calendar says about itself (50 B.7). */
export interface CalendarHead {
  siteName: string;
  /** X-WR-CALNAME / NAME: the site name, a filter's name appended, or the event title. */
  name: string;
  packageVersion: string;
  siteZone: string;
}

export interface RenderedCalendar {
  text: string;
  /** Entries written; fewer than given when the byte cap stopped the file. */
  emitted: number;
}

/** `{id}@{host}{base}`: stable across reschedules, distinct between installations (B.9). */
export function eventUid(ctx: RenderContext, id: number): string {
  return `${id}@${ctx.urls.globalIdPrefix}`;
}

/** Plain text cut at a word boundary within the cap, then a pointer to the full event (B.6). */
function capDescription(text: string, url: string): string {
  if (text.length <= DESCRIPTION_MAX) return text;
  const cut = text.slice(0, DESCRIPTION_MAX);
  const boundary = cut.search(/\s\S*$/);
  return `${(boundary > 0 ? cut.slice(0, boundary) : cut).trimEnd()} … ${url}`;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** Venue name, address, city, region (20 §4.5 addressRegion rule), zip, country. */
function location(venue: Record<string, unknown>): string {
  const country = str(venue.country);
  const region = str(venue.stateprovince) || (country === 'United States' ? str(venue.state) : str(venue.province));
  return [str(venue.venue), str(venue.address), str(venue.city), region, str(venue.zip), country].filter((part) => part !== '').join(', ');
}

function addTimes(component: ICAL.Component, model: EventModel, zone: string | undefined): void {
  const { event } = model;
  if (event.all_day === 1) {
    component.addProperty(dateProperty('dtstart', event.start_local, 0));
    component.addProperty(dateProperty('dtend', event.end_local, 1));
    return;
  }
  const local = zone !== undefined;
  const add = (name: string, wall: string, utc: string) => {
    const property = new ICAL.Property(name);
    property.setValue(local ? timeOf(wall, false) : timeOf(utc, true));
    if (local) property.setParameter('tzid', icalParam(event.timezone));
    component.addProperty(property);
  };
  add('dtstart', event.start_local, event.start_utc);
  // RFC 5545: DTEND must be later than DTSTART; none means zero length.
  if (event.end_utc !== event.start_utc) add('dtend', event.end_local, event.end_utc);
}

function dateProperty(name: string, wall: string, plusDays: number): ICAL.Property {
  const property = new ICAL.Property(name);
  property.setValue(dateOf(wall, plusDays));
  return property;
}

function addUtc(component: ICAL.Component, name: string, utc: string): void {
  const property = new ICAL.Property(name);
  property.setValue(timeOf(utc, true));
  component.addProperty(property);
}

/** How a VEVENT stands in a series (60 §7): the master with its rule, or one instance of it. */
export type SeriesRole = { master: SeriesModel } | { instanceOf: EventModel };

/** One VEVENT (50 B.9), blanked as B.4 when the request left the event locked. */
export function renderEvent(model: EventModel, ctx: RenderContext, role?: SeriesRole): ICAL.Component {
  const { event } = model;
  const url = occurrencePageUrl(ctx.urls.edition, event);
  const component = new ICAL.Component('vevent');
  const uidOf = role !== undefined && 'instanceOf' in role ? role.instanceOf.event.id : event.id;
  component.addPropertyWithValue('uid', eventUid(ctx, uidOf));
  // SEQUENCE (B.9): the record's revision, raised by every write (80 §1.1), so that two writes in
  // one second still differ; an occurrence's VEVENT carries its own record's.
  component.addPropertyWithValue('sequence', event.revision ?? 0);
  addUtc(component, 'dtstamp', event.modified_utc);
  if (event.date_utc !== ZERO_DATETIME) addUtc(component, 'created', event.date_utc);
  addUtc(component, 'last-modified', event.modified_utc);
  if (role !== undefined && 'instanceOf' in role) component.addProperty(recurrenceIdOf(role.instanceOf, event));
  // A series' DTSTART keeps its zone even in a repeated hour: clients expand the rule in it.
  addTimes(component, model, role !== undefined && 'master' in role ? seriesZone(event) : tzidZone(model));
  if (role !== undefined && 'master' in role) addRecurrence(component, role.master);
  component.addPropertyWithValue('summary', icalText(htmlToPlainText(event.title)));
  const description = model.locked ? ctx.t('ical_content_protected') : capDescription(htmlToPlainText(event.description), url);
  if (description !== '') component.addPropertyWithValue('description', icalText(description));
  if (isCleanUri(url)) component.addPropertyWithValue('url', url).setParameter('value', 'URI');
  if (!model.locked) addContentLinks(component, model, ctx);
  if (event.status === 'private') component.addPropertyWithValue('class', 'PRIVATE');
  if (event.all_day === 1) component.addPropertyWithValue('x-microsoft-cdo-alldayevent', 'TRUE');
  return component;
}

/** LOCATION, ORGANIZER, CATEGORIES and ATTACH: the members a locked event leaves out (B.4). */
function addContentLinks(component: ICAL.Component, model: EventModel, ctx: RenderContext): void {
  if (!Array.isArray(model.venue)) {
    const text = location(model.venue);
    if (text !== '') component.addPropertyWithValue('location', icalText(text));
    const { geo_lat: lat, geo_lng: lng } = model.venue;
    // A password-protected venue reads 0/0 (70 §2.2): no GEO then.
    if (typeof lat === 'number' && typeof lng === 'number' && !(lat === 0 && lng === 0)) {
      const geo = new ICAL.Property('geo');
      geo.setValue([lat, lng]);
      component.addProperty(geo);
    }
  }
  const organizer = model.organizer.find((item) => /^[^\s@]+@[^\s]+$/.test(str(item.email)));
  if (organizer) {
    const uri = `mailto:${str(organizer.email)}`;
    if (isCleanUri(uri)) {
      const property = component.addPropertyWithValue('organizer', uri);
      const name = icalParam(str(organizer.organizer));
      if (name !== '') property.setParameter('cn', name);
    }
  }
  const names = model.categories.map((term) => icalText(str(term.name))).filter((name) => name !== '');
  if (names.length > 0) {
    const property = new ICAL.Property('categories');
    property.setValues(names);
    component.addProperty(property);
  }
  const image = model.image;
  const url = image ? imageUrl(image, ctx.urls.site) : '';
  if (image && isCleanUri(url)) {
    const property = component.addPropertyWithValue('attach', url);
    const type = image.mime_type || IMAGE_TYPES[image.extension.toLowerCase()];
    if (type) property.setParameter('fmttype', type);
    // RFC 7986 IMAGE: the thumbnail as the event's badge (110-media §9).
    const thumbnail = storedSizes(image).find((size) => size.name === 'thumbnail');
    if (thumbnail) {
      const badge = component.addPropertyWithValue('image', uploadUrl(ctx.urls.site, thumbnail.file));
      badge.setParameter('value', 'URI');
      badge.setParameter('display', 'BADGE');
      badge.setParameter('fmttype', thumbnail.mime_type);
    }
  }
}

function head(ctx: RenderContext, calendar: CalendarHead): ICAL.Component {
  const component = new ICAL.Component('vcalendar');
  component.addPropertyWithValue('version', '2.0');
  component.addPropertyWithValue('prodid', `-//${icalText(calendar.siteName)}//calendar ${calendar.packageVersion}//EN`);
  component.addPropertyWithValue('calscale', 'GREGORIAN');
  component.addPropertyWithValue('method', 'PUBLISH');
  // ical.js writes X- and RFC 7986 properties verbatim (type "unknown"): they are escaped here.
  component.addPropertyWithValue('x-wr-calname', escapeText(calendar.name));
  component.addPropertyWithValue('name', escapeText(calendar.name));
  const description = icalText(ctx.t('ical_calendar_description', { site: calendar.siteName }));
  component.addPropertyWithValue('x-wr-caldesc', escapeText(description));
  component.addPropertyWithValue('description', description);
  component.addPropertyWithValue('x-original-url', `${ctx.urls.edition}/events/`);
  if (parseTimeZone(calendar.siteZone)?.kind === 'iana') component.addPropertyWithValue('x-wr-timezone', calendar.siteZone);
  // ical.js adds VALUE=DURATION itself (not the property's default type).
  const refresh = new ICAL.Property('refresh-interval');
  refresh.setValue(ICAL.Duration.fromString('PT1H'));
  component.addProperty(refresh);
  component.addPropertyWithValue('x-published-ttl', 'PT1H');
  return component;
}

/** The VEVENTs of one entry: a plain event, or a series master with its exception VEVENTs (60 §7). */
function renderEntry(entry: CalendarEntry, ctx: RenderContext): string {
  if (!isSeries(entry)) return renderEvent(entry, ctx).toString();
  const master = entry.master;
  return [renderEvent(master, ctx, { master: entry }), ...entry.exceptions.map((member) => renderEvent(member, ctx, { instanceOf: master }))]
    .map((component) => component.toString())
    .join(CRLF);
}

/**
 * Where an entry writes wall clocks: a series from its first instance to its last materialised
 * occurrence or its horizon, since clients expand the rule that far with these zone rules (60 §7).
 */
function zoneUses(entry: CalendarEntry): ZoneUse[] {
  if (!isSeries(entry)) return [zoneUse(entry)];
  const { event } = entry.master;
  const last = [event.end_local, entry.lastEnd, event.recurrence_horizon ?? ''].reduce((a, b) => (a > b ? a : b));
  return [{ zone: seriesZone(event), start: event.start_local, end: last }, ...entry.exceptions.map(zoneUse)];
}

/**
 * The calendar file of 50 B.7–B.10, a pure function of the read models: header, the VTIMEZONE
 * blocks of the zones the emitted entries use, their VEVENTs in the given order, and a final
 * CRLF. Entries that would carry the body past 8 MiB are left out (B.6).
 */
export function renderCalendar(entries: readonly CalendarEntry[], ctx: RenderContext, calendar: CalendarHead): RenderedCalendar {
  const [opening, closing] = splitLast(head(ctx, calendar).toString());
  const events = entries.map((entry) => renderEntry(entry, ctx));
  const uses = entries.map(zoneUses);
  // The zones of every candidate over their widest span bound the zone blocks of any subset.
  const reserve = bytes(opening) + bytes(closing) + 4 + bytes(vtimezones(spanOf(uses.flat())).join(CRLF));
  let size = reserve;
  let emitted = 0;
  while (emitted < events.length && size + bytes(events[emitted]) + 2 <= BODY_MAX_BYTES) size += bytes(events[emitted++]) + 2;
  const zones = vtimezones(spanOf(uses.slice(0, emitted).flat()));
  const text = [opening, ...zones, ...events.slice(0, emitted), closing].join(CRLF) + CRLF;
  return { text, emitted };
}

/** `BEGIN:…\r\n…` and `END:VCALENDAR` of an empty component. */
function splitLast(text: string): [string, string] {
  const at = text.lastIndexOf(CRLF);
  return [text.slice(0, at), text.slice(at + CRLF.length)];
}

function bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
