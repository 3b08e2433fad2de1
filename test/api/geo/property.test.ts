import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { VENUE } from '../../../src/domain/linked-posts/linked-post-type.ts';
import { LinkedPostsRepository } from '../../../src/storage/repositories/linked-posts-repository.ts';
import { ObjectsRepository } from '../../../src/storage/repositories/objects-repository.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { clock, NOW } from '../events/fixtures.ts';
import { oracleKm } from './support.ts';

/** Venues whose oracle distance lies this close to the radius are not judged (libm last-bit differences). */
const BORDER_KM = 1e-6;
const VENUE_COUNT = 1500;

/** A deterministic pseudo-random sequence, so that a failure names reproducible data. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Venue coordinates spread over the sphere, crowded at the poles and on both sides of ±180°. */
function venueCoordinates(count: number): Array<[number, number]> {
  const next = random(17);
  const points: Array<[number, number]> = [[90, 0], [-90, 123], [0, 180], [0, -180], [89.999, 179.999], [-89.999, -179.999]];
  while (points.length < count) {
    const kind = points.length % 4;
    const uniformLat = (Math.asin(2 * next() - 1) * 180) / Math.PI;
    const lng = next() * 360 - 180;
    if (kind === 0) points.push([uniformLat, lng]);
    else if (kind === 1) points.push([(next() < 0.5 ? -1 : 1) * (80 + next() * 10), lng]);
    else if (kind === 2) points.push([uniformLat, (next() < 0.5 ? -1 : 1) * (178 + next() * 2)]);
    else points.push([next() * 2 - 1, next() * 2 - 1]);
  }
  return points;
}

const latitude = fc.oneof(
  fc.double({ min: -90, max: 90, noNaN: true }),
  fc.double({ min: 85, max: 90, noNaN: true }),
  fc.double({ min: -90, max: -85, noNaN: true }),
);
const longitude = fc.oneof(
  fc.double({ min: -180, max: 180, noNaN: true }),
  fc.double({ min: 178, max: 180, noNaN: true }),
  fc.double({ min: -180, max: -178, noNaN: true }),
);
/** From a few metres to half the Earth, spread evenly over the orders of magnitude. */
const radiusKm = fc.double({ min: Math.log(0.002), max: Math.log(20015), noNaN: true }).map(Math.exp);

// 70-geo §4 and the property test: the search against an independent haversine over
// every venue, on both databases; no false positive, no false negative.
for (const dialect of DIALECTS) {
  describe(`geo: search = haversine over every venue [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let venues: Array<{ id: number; lat: number; lng: number }>;
    before(async () => {
      t = await startTestApp(dialect, { clock });
      venues = [];
      const db = t.storage.db;
      await db.transaction().execute(async (trx) => {
        for (const [lat, lng] of venueCoordinates(VENUE_COUNT)) {
          const id = await new ObjectsRepository(trx).allocate('venue');
          await trx.insertInto('venues').values({
            id, author: t.users.administrator.id, status: 'publish', pre_trash_status: null, slug: `v${id}`, pre_trash_slug: null,
            password: '', description: '', excerpt: '', date_local: '2024-01-01 00:00:00', date_utc: '2024-01-01 00:00:00',
            modified_local: '2024-01-01 00:00:00', modified_utc: '2024-01-01 00:00:00', image_id: null, name: `V${id}`,
            address: '', city: '', country: '', province: '', state: '', zip: '', phone: '', website: '', stateprovince: '',
            show_map: 1, show_map_link: 1, geo_lat: lat, geo_lng: lng,
          }).execute();
          venues.push({ id, lat, lng });
        }
      });
    });
    after(() => t.close());

    test('random centres and radii (poles, antimeridian, metres to half the Earth)', async () => {
      const repository = new LinkedPostsRepository(t.storage.db, VENUE, '2025-04-01 10:00:00');
      assert.equal(NOW.toISOString().slice(0, 10), '2025-04-01');
      let judged = 0;
      await fc.assert(
        fc.asyncProperty(latitude, longitude, radiusKm, fc.nat(VENUE_COUNT - 1), fc.boolean(), async (lat, lng, radius, anchor, nearVenue) => {
          // Half the cases centre on (a hair off) an existing venue so that small radii find something.
          const centre = nearVenue ? { lat: venues[anchor].lat, lng: venues[anchor].lng } : { lat, lng };
          const { records, distances } = await repository.list({ statuses: ['publish'], geo: { centre, radiusKm: radius } }, 0, VENUE_COUNT + 10);
          const found = new Set(records.map((record) => record.id));
          for (const venue of venues) {
            const km = oracleKm(centre.lat, centre.lng, venue.lat, venue.lng);
            if (Math.abs(km - radius) < BORDER_KM) continue;
            judged++;
            const where = `centre ${centre.lat},${centre.lng} r=${radius} venue ${venue.id} at ${venue.lat},${venue.lng} d=${km}`;
            assert.equal(found.has(venue.id), km <= radius, where);
            if (found.has(venue.id)) assert.ok(Math.abs(distances!.get(venue.id)! - km) < BORDER_KM, where);
          }
        }),
        { numRuns: 120 },
      );
      assert.ok(judged > 120 * (VENUE_COUNT - 5));
    });
  });
}
