import assert from 'node:assert/strict';
import type { Role } from '../../../src/domain/auth/capabilities.ts';
import { NS, type TestApp, type TestResponse } from '../../helpers/test-app.ts';
import { createEvent } from '../events/fixtures.ts';

/**
 * Spherical geometry written independently of src/domain/geo (the tests' oracle): the
 * haversine with the reference's 6371 km, and the destination point at a distance and bearing.
 */
export const R_KM = 6371;
const RAD = Math.PI / 180;

export function oracleKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const a = Math.sin(((lat2 - lat1) * RAD) / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(((lng2 - lng1) * RAD) / 2) ** 2;
  return 2 * R_KM * Math.asin(Math.sqrt(Math.min(1, a)));
}

/** The point `km` away from (lat, lng) along `bearing` degrees (great circle). */
export function destination(lat: number, lng: number, km: number, bearing: number): [number, number] {
  const d = km / R_KM;
  const φ1 = lat * RAD;
  const θ = bearing * RAD;
  const φ2 = Math.asin(Math.sin(φ1) * Math.cos(d) + Math.cos(φ1) * Math.sin(d) * Math.cos(θ));
  const λ2 = lng * RAD + Math.atan2(Math.sin(θ) * Math.sin(d) * Math.cos(φ1), Math.cos(d) - Math.sin(φ1) * Math.sin(φ2));
  const wrapped = ((λ2 / RAD + 540) % 360) - 180;
  return [φ2 / RAD, wrapped];
}

let sequence = 0;

/** A venue created through the API (published unless `fields` say otherwise). */
export async function venueAt(t: TestApp, lat: number, lng: number, fields: Record<string, unknown> = {}, as: Role = 'administrator'): Promise<number> {
  const res = await t.request('POST', `${NS}/venues`, { as, body: { venue: `Geo place ${++sequence}`, geo_lat: lat, geo_lng: lng, ...fields } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id;
}

/** A published event at the venue, inside the default list window of the events fixtures. */
export async function eventAt(t: TestApp, venueId: number, fields: Record<string, unknown> = {}): Promise<number> {
  return (await createEvent(t, 'administrator', { venue: venueId, ...fields })).id;
}

export function query(params: Record<string, string | number>): string {
  return `?${new URLSearchParams(Object.entries(params).map(([key, value]) => [key, String(value)])).toString()}`;
}

/** Follows next_rest_url from the first page and returns every listed object, page by page. */
export async function allPages(t: TestApp, url: string, key: 'events' | 'venues', as: Role | 'visitor' = 'visitor'): Promise<{ items: any[]; total: number }> {
  const items: any[] = [];
  let next: string | undefined = url;
  let total = -1;
  while (next !== undefined) {
    const res: TestResponse = await t.request('GET', next.replace(/^https?:\/\/[^/]+/, ''), { as });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    items.push(...res.body[key]);
    total = res.body.total;
    next = res.body.next_rest_url;
  }
  return { items, total };
}
