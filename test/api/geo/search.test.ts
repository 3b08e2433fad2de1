import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { clock, EVENTS, invalidParams, list, listedIds } from '../events/fixtures.ts';
import { allPages, destination, eventAt, oracleKm, query, R_KM, venueAt } from './support.ts';

const VENUES = `${NS}/venues`;
const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

// 70-geo §3, §4, §7: the location search of the event and venue lists, on both databases.
for (const dialect of DIALECTS) {
  describe(`geo: location search [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock });
    });
    after(() => t.close());

    const near = (lat: number, lng: number, radius: number, extra: Record<string, string | number> = {}) =>
      query({ geoloc: 1, geoloc_lat: lat, geoloc_lng: lng, geoloc_radius: radius, geoloc_unit: 'km', per_page: 50, ...extra });

    test('exact circle: r − 1 m is in, r + 1 m is out, a box corner is out (the reference would include it)', async () => {
      const [lat, lng, r] = [55.6761, 12.5683, 10];
      const inside = await eventAt(t, await venueAt(t, ...destination(lat, lng, r - 0.001, 37)));
      const outside = await eventAt(t, await venueAt(t, ...destination(lat, lng, r + 0.001, 37)));
      // The reference's box: lat ± deg(r/R), lng ± deg(r/R/cos lat); 95 % towards its corner.
      const dLat = ((r / R_KM) * 180) / Math.PI;
      const dLng = dLat / Math.cos((lat * Math.PI) / 180);
      const corner = await eventAt(t, await venueAt(t, lat + 0.95 * dLat, lng + 0.95 * dLng));
      const ids = await listedIds(t, near(lat, lng, r));
      assert.ok(ids.includes(inside));
      assert.ok(!ids.includes(outside));
      assert.ok(!ids.includes(corner));
      assert.deepEqual(ids, [inside]);
      // The same radius in miles gives the same set.
      assert.deepEqual(await listedIds(t, near(lat, lng, r / 1.609344, { geoloc_unit: 'miles' })), [inside]);
    });

    test('across the antimeridian and around the North Pole', async () => {
      const east = await eventAt(t, await venueAt(t, 10, -179.9));
      const far = await eventAt(t, await venueAt(t, 10, 179.4));
      assert.deepEqual(await listedIds(t, near(10, 179.9, 25)), [east]);
      assert.deepEqual(sorted(await listedIds(t, near(10, -179.95, 80))), sorted([east, far]));

      const pole = [
        await eventAt(t, await venueAt(t, 89.9, 180)),
        await eventAt(t, await venueAt(t, 89.95, -90)),
        await eventAt(t, await venueAt(t, 89.6, 45)),
        await eventAt(t, await venueAt(t, 90, 0)),
      ];
      const tooFar = await eventAt(t, await venueAt(t, 89.0, 180));
      const ids = await listedIds(t, near(89.9, 0, 50));
      assert.deepEqual(sorted(ids), sorted(pole));
      assert.ok(!ids.includes(tooFar));
    });

    test('antipodal venues at the largest radius answer 200 (the asin clamp) on both engines', async () => {
      const pairs: Array<[number, number, number, number]> = [
        [35.0737, 58.3468, -35.0737, -121.6532],
        [18.6024, 117.5967, -18.6024, -62.4033],
        [-10.3549, 92.7281, 10.3549, -87.2719],
      ];
      // A centre a hair off 0 next to a venue at 0 would underflow PostgreSQL's float products.
      await venueAt(t, 90, 0);
      const tiny = `0.${'0'.repeat(200)}1`;
      for (const base of [EVENTS, VENUES]) {
        const res = await t.request('GET', `${base}?geoloc=1&geoloc_lat=0&geoloc_lng=${tiny}&geoloc_radius=20015&geoloc_unit=km&orderby=distance`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }
      for (const [lat, lng, alat, alng] of pairs) {
        await venueAt(t, alat, alng);
        for (const extra of [{}, { orderby: 'distance' }] as Array<Record<string, string>>) {
          const res = await t.request('GET', `${VENUES}${near(lat, lng, 20015, extra)}`);
          assert.equal(res.status, 200, JSON.stringify(res.body));
          const events = await t.request('GET', `${EVENTS}${near(lat, lng, 20015, extra)}`);
          assert.equal(events.status, 200, JSON.stringify(events.body));
        }
      }
    });

    test('geo_distance in the requested unit, rounded to 2 decimals; orderby=distance nearest first', async () => {
      const one = await eventAt(t, await venueAt(t, -40, 1));
      const half = await eventAt(t, await venueAt(t, -40, 0.5));
      const body = await list(t, near(-40, 0, 200, { orderby: 'distance' }));
      assert.deepEqual(body.events.map((event: any) => event.id), [half, one]);
      const expected = oracleKm(-40, 0, -40, 1);
      assert.deepEqual(body.events[1].geo_distance, { value: Math.round(expected * 100) / 100, unit: 'km' });
      assert.equal(Object.keys(body.events[1]).at(-1), 'geo_distance');
      const miles = await list(t, near(-40, 0, 200, { geoloc_unit: 'mi', orderby: 'distance', order: 'desc' }));
      assert.deepEqual(miles.events.map((event: any) => event.id), [one, half]);
      assert.deepEqual(miles.events[0].geo_distance, { value: Math.round((expected / 1.609344) * 100) / 100, unit: 'mi' });
      // Without a centre (geoloc=1 alone) no distance is shown.
      const plain = await list(t, query({ geoloc: 1, per_page: 50 }));
      assert.ok(plain.events.every((event: any) => !('geo_distance' in event)));
    });

    test('the default radius is 25 miles', async () => {
      const at40 = await eventAt(t, await venueAt(t, ...destination(-60, 100, 40, 90)));
      const at41 = await eventAt(t, await venueAt(t, ...destination(-60, 100, 41, 90)));
      const ids = await listedIds(t, query({ geoloc: 1, geoloc_lat: -60, geoloc_lng: 100 }));
      assert.ok(ids.includes(at40));
      assert.ok(!ids.includes(at41));
    });

    test('geoloc=1 alone: the events whose venue is published with coordinates; geoloc=0 ignores the rest', async () => {
      const withCoordinates = await eventAt(t, await venueAt(t, -20, -20));
      const noVenueCoordinates = (await t.request('POST', `${VENUES}`, { as: 'administrator', body: { venue: 'No coordinates' } })).body.id;
      const without = await eventAt(t, noVenueCoordinates);
      const ids = await listedIds(t, query({ geoloc: 1, per_page: 50 }));
      assert.ok(ids.includes(withCoordinates));
      assert.ok(!ids.includes(without));
      const all = await listedIds(t, query({ per_page: 50 }));
      assert.deepEqual(await listedIds(t, query({ geoloc: 0, geoloc_lat: 'abc', geoloc_radius: -3, geoloc_unit: 'feet', per_page: 50 })), all);
      assert.ok(all.includes(without));
      // Venue list alike.
      const venues = (await t.request('GET', `${VENUES}${query({ geoloc: 1, per_page: 50 })}`)).body.venues.map((venue: any) => venue.id);
      assert.ok(!venues.includes(noVenueCoordinates));
    });

    test('draft, private, pending and password-protected venues never match, for any caller', async () => {
      const [lat, lng] = [-45, 170];
      const published = await venueAt(t, lat, lng);
      const hidden = [
        await venueAt(t, lat, lng, { status: 'draft' }),
        await venueAt(t, lat, lng, { status: 'private' }),
        await venueAt(t, lat, lng, { status: 'pending' }),
        await venueAt(t, lat, lng, { password: 'x' }),
      ];
      const shown = await eventAt(t, published);
      for (const venue of hidden) await eventAt(t, venue);
      for (const as of ['visitor', 'administrator', 'editor', 'contributor'] as const) {
        assert.deepEqual(await listedIds(t, near(lat, lng, 5), as), [shown], as);
        const res = await t.request('GET', `${VENUES}${near(lat, lng, 5, { status: as === 'visitor' ? 'publish' : 'any' })}`, { as });
        assert.deepEqual(res.body.venues.map((venue: any) => venue.id), [published], as);
      }
    });

    test('every role and status rule of the event list holds with the filter on', async () => {
      const [lat, lng] = [30, -100];
      const inVenue = await venueAt(t, lat, lng);
      const outVenue = await venueAt(t, lat + 1, lng);
      const ids: number[] = [];
      for (const venue of [inVenue, outVenue]) {
        for (const status of ['publish', 'draft', 'pending', 'private', 'future']) {
          const fields: Record<string, unknown> = { status };
          if (status === 'future') fields.date = '2030-01-01 00:00:00';
          ids.push(await eventAt(t, venue, fields));
          ids.push(await eventAt(t, venue, { ...fields, author: t.users.contributor.id }));
        }
        ids.push(await eventAt(t, venue, { password: 'pw' }));
        ids.push(await eventAt(t, venue, { hide_from_listings: true }));
      }
      const atIn = new Set((await t.storage.db.selectFrom('events').select('id').where('venue_id', '=', inVenue).execute()).map((row) => row.id));
      for (const as of ['visitor', 'subscriber', 'contributor', 'author', 'editor', 'administrator'] as const) {
        for (const status of [undefined, 'any', 'draft', 'private', 'publish,private', 'future']) {
          const extra: Record<string, string> = status === undefined ? {} : { status };
          const plain = await t.request('GET', `${EVENTS}${query({ per_page: 50, ...extra })}`, { as });
          const geo = await t.request('GET', `${EVENTS}${near(lat, lng, 10, extra)}`, { as });
          assert.equal(geo.status, plain.status, `${as} ${status}`);
          if (plain.status !== 200) continue;
          const expected = plain.body.events.filter((event: any) => atIn.has(event.id));
          // Same events, same order, same blanking; only geo_distance is added (not on locked ones).
          assert.deepEqual(
            geo.body.events.map(({ geo_distance, ...event }: any) => event),
            expected,
            `${as} ${status}`,
          );
          for (const event of geo.body.events) assert.equal('geo_distance' in event, !Array.isArray(event.venue), `${as} ${status} ${event.id}`);
        }
      }
    });

    test('total counts every page; the links keep the parameters and walk the same ordered set without gaps', async () => {
      const [lat, lng] = [-5, 25];
      const expected: Array<{ id: number; km: number }> = [];
      for (const km of [1, 2, 2, 3, 3, 3, 4]) {
        const [vlat, vlng] = destination(lat, lng, km, 10);
        const venue = await venueAt(t, vlat, vlng);
        // Two events per venue: ties in distance, broken by start, publication date and id.
        for (const start of ['2025-04-12 19:30:00', '2025-04-12 19:30:00']) {
          expected.push({ id: await eventAt(t, venue, { start_date: start, end_date: '2025-04-12 22:00:00' }), km: oracleKm(lat, lng, vlat, vlng) });
        }
      }
      const first = await list(t, near(lat, lng, 5, { orderby: 'distance', per_page: 3 }));
      assert.equal(first.total, expected.length);
      assert.equal(first.total_pages, Math.ceil(expected.length / 3));
      for (const param of ['geoloc=1', `geoloc_lat=${lat}`, `geoloc_lng=${lng}`, 'geoloc_radius=5', 'geoloc_unit=km', 'orderby=distance']) {
        assert.ok(first.next_rest_url.includes(param), `${param} in ${first.next_rest_url}`);
      }
      const url = `${EVENTS}${near(lat, lng, 5, { orderby: 'distance', per_page: 3 })}`;
      const walked = await allPages(t, url, 'events');
      const ids = walked.items.map((event) => event.id);
      assert.equal(new Set(ids).size, ids.length);
      assert.equal(ids.length, walked.total);
      assert.deepEqual(sorted(ids), sorted(expected.map((entry) => entry.id)));
      const onePage = await listedIds(t, near(lat, lng, 5, { orderby: 'distance' }));
      assert.deepEqual(ids, onePage);
      const distances = walked.items.map((event) => event.geo_distance.value);
      assert.deepEqual(distances, [...distances].sort((a, b) => a - b));
      // desc reverses the whole order, ties included.
      assert.deepEqual(await listedIds(t, near(lat, lng, 5, { orderby: 'distance', order: 'desc' })), [...onePage].reverse());

      const venuesWalk = await allPages(t, `${VENUES}${near(lat, lng, 5, { orderby: 'distance', per_page: 2 })}`, 'venues');
      assert.equal(venuesWalk.items.length, 7);
      assert.equal(venuesWalk.total, 7);
      const venueKm = venuesWalk.items.map((venue) => venue.geo_distance.value);
      assert.deepEqual(venueKm, [...venueKm].sort((a, b) => a - b));
      assert.equal(new Set(venuesWalk.items.map((venue) => venue.id)).size, 7);
    });

    test('validation of the search parameters (§3.4), with reasons; unknown orderby/order ignored', async () => {
      const cases: Array<[Record<string, string | number>, string, string]> = [
        [{ geoloc_lat: 'abc', geoloc_lng: 1 }, 'geoloc_lat', 'geo-not-a-number'],
        [{ geoloc_lat: 'NaN', geoloc_lng: 1 }, 'geoloc_lat', 'geo-not-a-number'],
        [{ geoloc_lat: 'Infinity', geoloc_lng: 1 }, 'geoloc_lat', 'geo-not-a-number'],
        [{ geoloc_lat: '1e3', geoloc_lng: 1 }, 'geoloc_lat', 'geo-not-a-number'],
        [{ geoloc_lat: '45,5', geoloc_lng: 1 }, 'geoloc_lat', 'geo-not-a-number'],
        [{ geoloc_lat: 10 }, 'geoloc_lng', 'geo-coordinate-missing'],
        [{ geoloc_lng: 10 }, 'geoloc_lat', 'geo-coordinate-missing'],
        [{ geoloc_lat: 90.5, geoloc_lng: 0 }, 'geoloc_lat', 'geo-latitude-out-of-range'],
        [{ geoloc_lat: 0, geoloc_lng: -181 }, 'geoloc_lng', 'geo-longitude-out-of-range'],
        [{ geoloc_lat: 0, geoloc_lng: 0, geoloc_radius: 0 }, 'geoloc_radius', 'geo-radius-out-of-range'],
        [{ geoloc_lat: 0, geoloc_lng: 0, geoloc_radius: -1 }, 'geoloc_radius', 'geo-radius-out-of-range'],
        [{ geoloc_lat: 0, geoloc_lng: 0, geoloc_radius: 'far' }, 'geoloc_radius', 'geo-not-a-number'],
        [{ geoloc_lat: 0, geoloc_lng: 0, geoloc_radius: 12438 }, 'geoloc_radius', 'geo-radius-out-of-range'],
        [{ geoloc_lat: 0, geoloc_lng: 0, geoloc_radius: 20016, geoloc_unit: 'km' }, 'geoloc_radius', 'geo-radius-out-of-range'],
        [{ geoloc_lat: 0, geoloc_lng: 0, geoloc_unit: 'feet' }, 'geoloc_unit', 'geo-unknown-unit'],
        [{ orderby: 'distance' }, 'orderby', 'geo-distance-needs-centre'],
      ];
      for (const [params, name, code] of cases) {
        for (const base of [EVENTS, VENUES]) {
          const res = await t.request('GET', `${base}${query({ geoloc: 1, ...params })}`);
          assert.deepEqual(invalidParams(res), [name], `${base} ${JSON.stringify(params)}`);
          assert.equal(res.body.data.details[name].code, code, JSON.stringify(params));
        }
      }
      const noGeoloc = await t.request('GET', `${EVENTS}?orderby=distance`);
      assert.deepEqual(invalidParams(noGeoloc), ['orderby']);
      const italian = await t.request('GET', `/it${EVENTS}${query({ geoloc: 1, geoloc_lat: 91, geoloc_lng: 0 })}`);
      assert.notEqual(italian.body.data.details.geoloc_lat.message, (await t.request('GET', `${EVENTS}${query({ geoloc: 1, geoloc_lat: 91, geoloc_lng: 0 })}`)).body.data.details.geoloc_lat.message);
      assert.equal((await t.request('GET', `${EVENTS}?geoloc=0&geoloc_lat=abc`)).status, 200);
      const plain = await listedIds(t, query({ per_page: 50 }));
      assert.deepEqual(await listedIds(t, query({ per_page: 50, orderby: 'date', order: 'sideways' })), plain);
      assert.deepEqual(await listedIds(t, query({ per_page: 50, orderby: 'start', order: 'desc' })), [...plain].reverse());
    });
  });
}
