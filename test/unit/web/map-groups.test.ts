import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { EventView, LinkedView } from '../../../src/web/model.ts';
import { mapGroups } from '../../../src/web/pages/map.tsx';

const venue = (id: number, extra: Partial<LinkedView> = {}): LinkedView =>
  ({ id, url: `http://calendar.test/venue/v${id}/`, slug: `v${id}`, status: 'publish', venue: `Venue ${id}`, show_map_link: true, geo_lat: 56 + id / 100, geo_lng: 10, ...extra });
const event = (id: number, place: LinkedView | []): EventView => ({ id, title: `Event ${id}`, venue: place } as unknown as EventView);

// 130 §7.1: which events the map can place, from the visitor's event objects alone.
describe('map view grouping', () => {
  test('venues a visitor may place, in first-appearance order, each with its events in list order', () => {
    const a = venue(1);
    const b = venue(2);
    const { located, unlocated } = mapGroups([event(10, b), event(11, a), event(12, b), event(13, [])]);
    assert.deepEqual(located.map((group) => [group.venue.id, group.lat, group.lng, group.events.map((e) => e.id)]), [[2, 56.02, 10, [10, 12]], [1, 56.01, 10, [11]]]);
    assert.deepEqual(unlocated.map((e) => e.id), [13]);
  });

  test('not placed: no coordinates, a locked copy (null flags, 0/0), an unpublished venue, a protected event (venue blanked)', () => {
    const { located, unlocated } = mapGroups([
      event(1, venue(1, { geo_lat: undefined, geo_lng: undefined })),
      event(2, venue(2, { show_map_link: null, geo_lat: 0, geo_lng: 0 })),
      event(3, venue(3, { status: 'draft' })),
      event(4, []),
    ]);
    assert.deepEqual(located, []);
    assert.deepEqual(unlocated.map((e) => e.id), [1, 2, 3, 4]);
  });

  test('a venue at 0/0 that is not locked is placed', () => {
    assert.equal(mapGroups([event(1, venue(1, { geo_lat: 0, geo_lng: 0 }))]).located.length, 1);
  });
});
