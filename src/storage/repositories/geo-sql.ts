import { sql, type AliasedRawBuilder, type RawBuilder, type SqlBool } from 'kysely';
import { boundingBox, distanceLongitude, DISTANCE_EPSILON_KM, EARTH_RADIUS_KM, flushNegligible, type GeoFilter } from '../../domain/geo/geo.ts';
import { effectiveStatusIn } from './linked-posts-repository.ts';

/** A venue a location search may find, with its distance from the centre (null without one). */
export interface NearVenue {
  venue_id: number;
  distance_km: number | null;
}

const RAD = Math.PI / 180;

/** Every number goes out as a parameter, typed so that PostgreSQL reads it as a double too. */
function double(value: number): RawBuilder<number> {
  return sql<number>`cast(${value} as double precision)`;
}

/**
 * Published (as read now), not password-protected, coordinates stored (70 §3.2): a hidden
 * location can never be triangulated through the search.
 */
function eligible(nowUtc: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${effectiveStatusIn('v', ['publish'], nowUtc)} and v.password = '' and v.geo_lat is not null`;
}

/** The bounding box (70 §4.3) as index ranges: latitude band, then one or two longitude ranges. */
function inBox(filter: GeoFilter & { centre: object }): RawBuilder<SqlBool> {
  const box = boundingBox(filter.centre, filter.radiusKm);
  if (box === null) return sql<SqlBool>`1 = 1`;
  const lat = sql<SqlBool>`v.geo_lat between ${double(box.minLat)} and ${double(box.maxLat)}`;
  if (box.lngRanges === null) return lat;
  const ranges = box.lngRanges.map(([from, to]) => sql<SqlBool>`v.geo_lng between ${double(from)} and ${double(to)}`);
  return sql<SqlBool>`${lat} and (${sql.join(ranges, sql` or `)})`;
}

/**
 * The venues of a location search as a derived table `near (venue_id, distance_km)`, for a join:
 * distances are computed once per venue, in SQL, so a page, its order and its total come from
 * one set. The haversine uses only functions both engines have (SQLite's math functions are
 * checked at start-up) and clamps with CASE, portable where min()/least() are not: SQLite's
 * asin() of a hair above 1 returns NULL (the venue would silently drop) and PostgreSQL's raises.
 */
export function nearVenues(filter: GeoFilter, nowUtc: string): AliasedRawBuilder<NearVenue, 'near'> {
  const centre = filter.centre && { lat: flushNegligible(filter.centre.lat), lng: flushNegligible(filter.centre.lng) };
  if (centre === undefined) {
    return sql<NearVenue>`(select v.id as venue_id, null as distance_km from venues v where ${eligible(nowUtc)})`.as('near');
  }
  const lat = double(centre.lat * RAD);
  const lng = double(distanceLongitude(centre) * RAD);
  const cosLat = double(Math.cos(centre.lat * RAD));
  const rad = double(RAD);
  // distanceLongitude() in SQL: one longitude per place, so that one place is one distance.
  const venueLng = sql`(case when v.geo_lat = 90 or v.geo_lat = -90 then 0 when v.geo_lng = -180 then 180 else v.geo_lng end)`;
  const haversine = sql`
    select v.id, (sin((v.geo_lat * ${rad} - ${lat}) / 2) * sin((v.geo_lat * ${rad} - ${lat}) / 2)
      + ${cosLat} * cos(v.geo_lat * ${rad}) * sin((${venueLng} * ${rad} - ${lng}) / 2) * sin((${venueLng} * ${rad} - ${lng}) / 2)) as h
    from venues v where ${eligible(nowUtc)} and ${inBox({ ...filter, centre })}`;
  const distance = sql`select hv.id, ${double(2 * EARTH_RADIUS_KM)} * asin(sqrt(case when hv.h > 1 then 1 else hv.h end)) as distance_km from (${haversine}) hv`;
  return sql<NearVenue>`(select dv.id as venue_id, dv.distance_km from (${distance}) dv where dv.distance_km <= ${double(filter.radiusKm + DISTANCE_EPSILON_KM)})`.as('near');
}
