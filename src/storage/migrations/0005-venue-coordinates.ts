import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Venue coordinates (70-geo §4.1). Both engines store IEEE doubles, so a distance computed by
 * either gives the same answer. SQLite cannot add a table constraint to an existing table; a
 * column CHECK may name the other column, so the pair rule rides on `geo_lng`.
 * The partial index serves the bounding-box range on latitude (and longitude from the index
 * entries) of every location search; venues without coordinates are left out of it.
 */
export function venueCoordinates(dialect: Dialect) {
  const double = dialect === 'postgres' ? 'double precision' : 'real';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await sql.raw(`alter table venues add column geo_lat ${double} check (geo_lat between -90 and 90)`).execute(db);
      await sql
        .raw(`alter table venues add column geo_lng ${double} check (geo_lng between -180 and 180) check ((geo_lat is null) = (geo_lng is null))`)
        .execute(db);
      await sql.raw('create index venues_geo on venues (geo_lat, geo_lng) where geo_lat is not null').execute(db);
    },
  };
}
