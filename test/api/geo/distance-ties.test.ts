import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { clock, listedIds } from '../events/fixtures.ts';
import { eventAt, query, venueAt } from './support.ts';

/**
 * 70 §3.2: `orderby=distance` breaks ties by start, publication date and id. Two ways of writing
 * one place (longitude 180 and −180; any longitude at a pole) are one distance, not two that
 * differ in their last bits, or the events there would be ordered by floating-point noise.
 */
for (const dialect of DIALECTS) {
  describe(`geo: distance ties between representations of one place [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock });
    });
    after(() => t.close());

    const at = (hour: number) => ({ start_date: `2025-04-20 ${hour}:00:00`, end_date: `2025-04-20 ${hour}:30:00` });
    const byDistance = (lat: number, lng: number, order: 'asc' | 'desc') =>
      listedIds(t, query({ geoloc: 1, geoloc_lat: lat, geoloc_lng: lng, geoloc_radius: 3000, geoloc_unit: 'km', orderby: 'distance', order, per_page: 50 }));

    /** Events at two venues of one place, their starts alternating between the venues. */
    async function samePlace(first: [number, number], second: [number, number]): Promise<number[]> {
      const [a, b] = [await venueAt(t, ...first), await venueAt(t, ...second)];
      return [await eventAt(t, a, at(10)), await eventAt(t, b, at(11)), await eventAt(t, b, at(12)), await eventAt(t, a, at(13))];
    }

    test('longitude 180 and −180: equal distances from every centre, so start decides; coordinates read back as given', async () => {
      const byStart = await samePlace([10, 180], [10, -180]);
      for (const [lat, lng] of [[10.5, 179.7], [9.3, -179.2], [0, 175], [20, -170], [10, 178.123456789], [-5.5, -176.25]]) {
        assert.deepEqual(await byDistance(lat, lng, 'asc'), byStart, `centre ${lat}, ${lng}`);
        assert.deepEqual(await byDistance(lat, lng, 'desc'), [...byStart].reverse(), `centre ${lat}, ${lng}, desc`);
      }
      const venues = (await t.request('GET', `${NS}/venues${query({ per_page: 50 })}`)).body.venues;
      assert.deepEqual(venues.map((venue: any) => venue.geo_lng).sort(), [-180, 180]);
    });

    test('the North Pole at any longitude: one distance, so start decides', async () => {
      const byStart = await samePlace([90, 0], [90, 135]);
      for (const [lat, lng] of [[85, 10], [80.25, -120], [88.8, 179.9], [72, 45]]) {
        assert.deepEqual(await byDistance(lat, lng, 'asc'), byStart, `centre ${lat}, ${lng}`);
      }
    });
  });
}
