/**
 * Great-circle geometry of the location search (70-geo §4): the Earth as a sphere of the
 * reference's radius, the exact haversine distance, and the bounding box that lets an index
 * narrow the candidates before the exact test.
 */

/** The reference's Earth radius (Pro's haversine helper), so borderline results match its map view. */
export const EARTH_RADIUS_KM = 6371;
export const KM_PER_MILE = 1.609344;
/** Slack of the "within the radius" test: a venue exactly on the circle matches on both engines. */
export const DISTANCE_EPSILON_KM = 1e-9;

export type DistanceUnit = 'mi' | 'km';

/** The largest radius a request may give: half the Earth's circumference (70 §3.1). */
export const MAX_RADIUS: Readonly<Record<DistanceUnit, number>> = { km: 20015, mi: 12437 };

const UNIT_NAMES: Readonly<Record<string, DistanceUnit>> = { miles: 'mi', mi: 'mi', kms: 'km', km: 'km' };
export const UNIT_SPELLINGS = Object.keys(UNIT_NAMES);

export interface LatLng {
  lat: number;
  lng: number;
}

const RAD = Math.PI / 180;

export function parseUnit(value: unknown): DistanceUnit | undefined {
  return typeof value === 'string' && Object.hasOwn(UNIT_NAMES, value) ? UNIT_NAMES[value] : undefined;
}

export function toKm(value: number, unit: DistanceUnit): number {
  return unit === 'mi' ? value * KM_PER_MILE : value;
}

export function fromKm(km: number, unit: DistanceUnit): number {
  return unit === 'mi' ? km / KM_PER_MILE : km;
}

/** A decimal number as a JSON number or a plain decimal string (no exponent, `.` decimal). */
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

export function parseDecimal(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || !DECIMAL.test(value)) return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

/**
 * Coordinates nearer to 0 than this are 0. Nobody means 1e-150 degrees, and such values would
 * let a difference of two coordinates square to below the smallest double, which PostgreSQL
 * refuses ("value out of range: underflow") instead of rounding to 0.
 */
const NEGLIGIBLE_DEGREES = 1e-100;

export function flushNegligible(degrees: number): number {
  return Math.abs(degrees) < NEGLIGIBLE_DEGREES ? 0 : degrees;
}

export function isLatitude(value: number): boolean {
  return value >= -90 && value <= 90;
}

export function isLongitude(value: number): boolean {
  return value >= -180 && value <= 180;
}

/**
 * The longitude a distance is computed from: one value per place, so that the ways of writing a
 * place (180 and −180; any longitude at a pole) give bit-identical distances, which then tie and
 * leave the order to start, publication date and id (70 §3.2). Normalising the input, rather than
 * rounding the distance, keeps distinct places apart however close and has no rounding edge
 * where two equal distances could still fall on either side. The search's SQL writes it again.
 */
export function distanceLongitude(place: LatLng): number {
  if (place.lat === 90 || place.lat === -90) return 0;
  return place.lng === -180 ? 180 : place.lng;
}

/** Inclusive longitude interval, -180 ≤ from ≤ to ≤ 180. */
export type LngRange = readonly [number, number];

/**
 * A superset of the circle (70 §4.3): latitude band and, unless the circle covers a pole or is
 * too large for a useful box, one or two longitude ranges (two when it crosses ±180°). `null`
 * longitudes mean every longitude; a `null` box means no box at all.
 */
export interface BoundingBox {
  minLat: number;
  maxLat: number;
  lngRanges: LngRange[] | null;
}

/** Keeps the box a superset despite rounding in the trigonometry above. */
const BOX_MARGIN_DEG = 1e-9;

export function boundingBox(centre: LatLng, radiusKm: number): BoundingBox | null {
  const angular = radiusKm / EARTH_RADIUS_KM;
  if (angular >= Math.PI / 2) return null;
  const dLat = angular / RAD + BOX_MARGIN_DEG;
  const minLat = centre.lat - dLat;
  const maxLat = centre.lat + dLat;
  if (minLat <= -90 || maxLat >= 90) return { minLat: Math.max(-90, minLat), maxLat: Math.min(90, maxLat), lngRanges: null };
  const dLng = Math.asin(Math.min(1, Math.sin(angular) / Math.cos(centre.lat * RAD))) / RAD + BOX_MARGIN_DEG;
  if (dLng >= 180) return { minLat, maxLat, lngRanges: null };
  const from = centre.lng - dLng;
  const to = centre.lng + dLng;
  let lngRanges: LngRange[];
  if (from < -180) lngRanges = [[from + 360, 180], [-180, to]];
  else if (to > 180) lngRanges = [[from, 180], [-180, to - 360]];
  else lngRanges = [[from, to]];
  return { minLat, maxLat, lngRanges };
}

/**
 * A location search as the storage runs it: venues that are eligible (published, no password,
 * coordinates stored) and, with a centre, within `radiusKm` of it.
 */
export interface GeoFilter {
  centre?: LatLng;
  radiusKm: number;
}

/** The distance a list object shows (70 §3.2): in the requested unit, rounded to 2 decimals. */
export function distanceValue(km: number, unit: DistanceUnit): { value: number; unit: DistanceUnit } {
  return { value: Math.round(fromKm(km, unit) * 100) / 100, unit };
}
