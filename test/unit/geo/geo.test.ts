import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { readGeoSearch } from '../../../src/domain/geo/geo-input.ts';
import { boundingBox, distanceLongitude, flushNegligible, parseDecimal } from '../../../src/domain/geo/geo.ts';

describe('geo: configuration (70-geo §5)', () => {
  test('defaults: 25 miles; both variables read; invalid values stop the start', () => {
    const defaults = loadConfig({});
    assert.equal(defaults.geofenceRadius, 25);
    assert.equal(defaults.distanceUnit, 'mi');
    const set = loadConfig({ CALENDAR_GEOFENCE_RADIUS: '40.5', CALENDAR_DISTANCE_UNIT: 'kms' });
    assert.equal(set.geofenceRadius, 40.5);
    assert.equal(set.distanceUnit, 'km');
    for (const env of [
      { CALENDAR_DISTANCE_UNIT: 'feet' },
      { CALENDAR_GEOFENCE_RADIUS: '0' },
      { CALENDAR_GEOFENCE_RADIUS: '-1' },
      { CALENDAR_GEOFENCE_RADIUS: 'far' },
      { CALENDAR_GEOFENCE_RADIUS: '12438' },
      { CALENDAR_GEOFENCE_RADIUS: '20016', CALENDAR_DISTANCE_UNIT: 'kms' },
    ]) {
      assert.throws(() => loadConfig(env), ConfigError, JSON.stringify(env));
    }
  });

  test('the configured defaults are what a search without radius or unit uses', () => {
    const { search } = readGeoSearch({ geoloc: true, values: { geoloc_lat: '1', geoloc_lng: '2' } }, { radius: 10, unit: 'km' });
    assert.deepEqual(search.filter, { centre: { lat: 1, lng: 2 }, radiusKm: 10 });
    const miles = readGeoSearch({ geoloc: true, values: { geoloc_lat: '1', geoloc_lng: '2' } }, { radius: 10, unit: 'mi' });
    assert.equal(miles.search.filter!.radiusKm, 16.09344);
  });
});

describe('geo: numbers and the bounding box', () => {
  test('decimals: plain notation only', () => {
    assert.equal(parseDecimal('-12.5'), -12.5);
    assert.equal(parseDecimal('.5'), 0.5);
    assert.equal(parseDecimal(3), 3);
    for (const bad of ['1e3', '45,5', 'NaN', 'Infinity', '', ' 1', '0x10', Number.NaN, Number.POSITIVE_INFINITY, true, null]) {
      assert.equal(parseDecimal(bad), undefined, String(bad));
    }
  });

  test('one longitude per place for distances: −180 is 180, a pole is 0, anything else as given', () => {
    assert.deepEqual(
      [[10, -180], [10, 180], [90, 135], [-90, -180], [89.999, -180], [-33.5, 151.25], [0, -179.999]].map(([lat, lng]) => distanceLongitude({ lat, lng })),
      [180, 180, 0, 0, 180, 151.25, -179.999],
    );
  });

  test('coordinates nearer to 0 than 1e-100 are 0 (PostgreSQL refuses float underflow)', () => {
    assert.equal(flushNegligible(1e-150), 0);
    assert.equal(flushNegligible(-1e-200), 0);
    assert.equal(flushNegligible(1e-9), 1e-9);
  });

  test('box: two longitude ranges across ±180, none around a pole or for a hemisphere', () => {
    const east = boundingBox({ lat: 10, lng: 179.9 }, 50)!;
    assert.equal(east.lngRanges!.length, 2);
    assert.equal(east.lngRanges![1][0], -180);
    const west = boundingBox({ lat: -10, lng: -179.9 }, 50)!;
    assert.equal(west.lngRanges![0][1], 180);
    assert.equal(boundingBox({ lat: 89.9, lng: 0 }, 50)!.lngRanges, null);
    assert.equal(boundingBox({ lat: -89.9, lng: 0 }, 50)!.lngRanges, null);
    assert.equal(boundingBox({ lat: 0, lng: 0 }, 10_008), null);
    const plain = boundingBox({ lat: 60, lng: 10 }, 100)!;
    assert.equal(plain.lngRanges!.length, 1);
    // Wider than the reference's small-radius approximation deg(r/R/cos φ) never narrower.
    const approx = ((100 / 6371) * 180) / Math.PI / Math.cos((60 * Math.PI) / 180);
    assert.ok(plain.lngRanges![0][1] - 10 >= approx * 0.999);
  });
});
