import { InvalidParamsError, type ParamFailure, type Reason } from '../errors.ts';
import type { MessageKey } from '../../i18n/catalog.ts';
import { readListOrder, type SortKey } from '../lists/list-order.ts';
import {
  flushNegligible, isLatitude, isLongitude, MAX_RADIUS, parseDecimal, parseUnit, toKm, UNIT_SPELLINGS,
  type DistanceUnit, type GeoFilter,
} from './geo.ts';

/**
 * The inputs of location search and venue coordinates (70-geo §2.1, §3.1, §3.4), read into
 * values or into precise reasons: every failure carries a code and a translated message in
 * `data.details[name]`.
 */

function failure(code: MessageKey, vars: Record<string, string | number>): ParamFailure {
  return { messageKey: code, vars, reason: { code, messageKey: code, vars } };
}

type Axis = 'lat' | 'lng';

/** A coordinate value, or why it is not one. */
function coordinate(name: string, value: unknown, axis: Axis): number | ParamFailure {
  const number = parseDecimal(value);
  if (number === undefined) return failure('geo-not-a-number', { param: name });
  if (axis === 'lat' ? !isLatitude(number) : !isLongitude(number)) {
    return failure(axis === 'lat' ? 'geo-latitude-out-of-range' : 'geo-longitude-out-of-range', { param: name });
  }
  return flushNegligible(number);
}

// ---------------------------------------------------------------------------------------------
// Venue coordinates (§2.1)

/** Input names per axis: the reference's key first, then the friendlier alias. */
const COORDINATE_FIELDS: Readonly<Record<Axis, readonly [string, string]>> = { lat: ['geo_lat', 'latitude'], lng: ['geo_lng', 'longitude'] };
export const COORDINATE_FIELD_NAMES: Readonly<Record<string, Axis>> = { geo_lat: 'lat', latitude: 'lat', geo_lng: 'lng', longitude: 'lng' };

/** One coordinate field on its own: a decimal in range, or '' (clears). */
export function checkCoordinateField(name: string, value: unknown): true | ParamFailure {
  if (value === '') return true;
  const parsed = coordinate(name, value, COORDINATE_FIELD_NAMES[name]);
  return typeof parsed === 'number' ? true : parsed;
}

/** The reason a coordinate field is refused, for the documentation of the rule (the check names the exact one). */
export function coordinateReason(name: string): Reason {
  return { code: 'geo-not-a-number', messageKey: 'geo-not-a-number', vars: { param: name } };
}

/** What a request does to the coordinates: absent = unchanged, null = clear. */
export interface CoordinateChange {
  lat?: number | null;
  lng?: number | null;
}

function readAxis(source: Readonly<Record<string, unknown>>, axis: Axis): { value?: number | null; name?: string } {
  let read: { value?: number | null; name?: string } = {};
  for (const name of COORDINATE_FIELDS[axis]) {
    const raw = source[name];
    // JSON null means "not sent", as for every venue field.
    if (raw === undefined || raw === null) continue;
    let value: number | null;
    if (raw === '') value = null;
    else {
      const parsed = coordinate(name, raw, axis);
      if (typeof parsed !== 'number') throw new InvalidParamsError({ [name]: parsed });
      value = parsed;
    }
    if (read.name !== undefined && read.value !== value) {
      throw new InvalidParamsError({ [name]: failure('geo-aliases-disagree', { param: name, other: read.name }) });
    }
    read = { value, name };
  }
  return read;
}

/**
 * The coordinates a venue write sends, checked against what is stored: the pair must end up
 * both set or both empty (the missing one is named). Throws rest_invalid_param.
 */
export function readCoordinateChange(
  source: Readonly<Record<string, unknown>>,
  stored: { lat: number | null; lng: number | null },
): CoordinateChange {
  const lat = readAxis(source, 'lat');
  const lng = readAxis(source, 'lng');
  const change: CoordinateChange = {};
  if (lat.name !== undefined) change.lat = lat.value;
  if (lng.name !== undefined) change.lng = lng.value;
  const finalLat = change.lat === undefined ? stored.lat : change.lat;
  const finalLng = change.lng === undefined ? stored.lng : change.lng;
  if ((finalLat === null) !== (finalLng === null)) {
    // Name the empty one in the spelling the request used for its partner.
    const aliases = lat.name === 'latitude' || lng.name === 'longitude';
    const missing = finalLat === null ? (aliases ? 'latitude' : 'geo_lat') : aliases ? 'longitude' : 'geo_lng';
    const other = finalLat === null ? (lng.name ?? 'geo_lng') : (lat.name ?? 'geo_lat');
    throw new InvalidParamsError({ [missing]: failure('geo-coordinate-missing', { param: missing, other }) });
  }
  return change;
}

// ---------------------------------------------------------------------------------------------
// Location search parameters (§3.1, §3.4)

export const GEO_PARAMS = ['geoloc_lat', 'geoloc_lng', 'geoloc_radius', 'geoloc_unit'] as const;

export interface GeoSearchInput {
  /** `geoloc` read as a boolean: without it every other geo parameter is ignored. */
  geoloc: boolean;
  /** Raw values, absent = not sent. */
  values: Readonly<Record<string, unknown>>;
  orderby?: unknown;
  order?: unknown;
}

export interface GeoDefaults {
  radius: number;
  unit: DistanceUnit;
}

export interface GeoSearch {
  /** Absent: no location search. */
  filter?: GeoFilter;
  unit: DistanceUnit;
  orderByDistance: boolean;
  /** `order=desc`; `undefined` when no known order was sent. */
  orderDesc?: boolean;
  /** Known `orderby` (80 §2), as the links repeat it. */
  orderby?: SortKey;
}

const present = (value: unknown) => value !== undefined && value !== null;

/**
 * Reads the search parameters; `failures` names each bad parameter with its reason (a missing
 * half of the centre under the missing name). Unknown `orderby`/`order` values are ignored.
 */
export function readGeoSearch(input: GeoSearchInput, defaults: GeoDefaults): { search: GeoSearch; failures: Record<string, ParamFailure> } {
  const failures: Record<string, ParamFailure> = {};
  const { orderby, desc: orderDesc } = readListOrder(input.orderby, input.order);
  const search: GeoSearch = { unit: defaults.unit, orderByDistance: orderby === 'distance', orderDesc, orderby };

  if (input.geoloc) {
    const { values } = input;
    let unit = defaults.unit;
    if (present(values.geoloc_unit)) {
      const parsed = parseUnit(values.geoloc_unit);
      if (parsed === undefined) failures.geoloc_unit = failure('geo-unknown-unit', { param: 'geoloc_unit', values: UNIT_SPELLINGS.join(', ') });
      else unit = parsed;
    }
    let radius = defaults.radius;
    if (present(values.geoloc_radius)) {
      const parsed = parseDecimal(values.geoloc_radius);
      if (parsed === undefined) failures.geoloc_radius = failure('geo-not-a-number', { param: 'geoloc_radius' });
      else if (!(parsed > 0 && parsed <= MAX_RADIUS[unit])) {
        failures.geoloc_radius = failure('geo-radius-out-of-range', { param: 'geoloc_radius', max: MAX_RADIUS[unit], unit });
      } else radius = parsed;
    }
    const lat = present(values.geoloc_lat) ? coordinate('geoloc_lat', values.geoloc_lat, 'lat') : undefined;
    const lng = present(values.geoloc_lng) ? coordinate('geoloc_lng', values.geoloc_lng, 'lng') : undefined;
    if (typeof lat === 'object') failures.geoloc_lat = lat;
    if (typeof lng === 'object') failures.geoloc_lng = lng;
    if (lat === undefined && lng !== undefined) failures.geoloc_lat = failure('geo-coordinate-missing', { param: 'geoloc_lat', other: 'geoloc_lng' });
    if (lng === undefined && lat !== undefined) failures.geoloc_lng = failure('geo-coordinate-missing', { param: 'geoloc_lng', other: 'geoloc_lat' });
    search.unit = unit;
    search.filter = typeof lat === 'number' && typeof lng === 'number' ? { centre: { lat, lng }, radiusKm: toKm(radius, unit) } : { radiusKm: toKm(radius, unit) };
  }
  if (search.orderByDistance && search.filter?.centre === undefined) {
    failures.orderby = failure('geo-distance-needs-centre', { param: 'orderby' });
  }
  return { search, failures };
}
