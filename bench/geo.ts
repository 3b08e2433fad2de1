import { mkdtempSync, rmSync } from 'node:fs';
import { NO_RECURRENCE } from '../src/services/series-service.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openStorage, type Storage } from '../src/storage/database.ts';
import type { EventRow, VenueRow } from '../src/storage/schema.ts';

/**
 * `npm run bench:geo`: location search latency over 20,000 venues and 200,000 events, on SQLite
 * (or the PostgreSQL of DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test?schema=bench_geo).
 * Rows go straight into the tables; requests go through the app in-process (Fastify inject), so
 * the figures are the service's own time per request (query, serialization), without a socket.
 * Each request has a new centre, so the read cache never answers. Prints the median and p95.
 */
const VENUES = Number(process.env.BENCH_VENUES ?? 20_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 200_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 100);
const NS = '/calendar/events/v1';
const NOW = new Date('2025-04-01T10:00:00Z');

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
const next = random(2025);

/** 200 "cities" with venues around them (a few km), and a tenth spread over the whole sphere. */
const cities = Array.from({ length: 200 }, () => [Math.asin(2 * next() - 1) * (180 / Math.PI) * 0.8, next() * 360 - 180] as const);
function venuePoint(): [number, number] {
  if (next() < 0.1) return [Math.asin(2 * next() - 1) * (180 / Math.PI), next() * 360 - 180];
  const [lat, lng] = cities[Math.floor(next() * cities.length)];
  const clamp = (value: number, limit: number) => Math.max(-limit, Math.min(limit, value));
  return [clamp(lat + (next() - 0.5) * 0.3, 90), clamp(lng + (next() - 0.5) * 0.3, 180)];
}

const wall = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

async function seed(storage: Storage): Promise<void> {
  const { db } = storage;
  const base = {
    author: 1, status: 'publish', pre_trash_status: null, pre_trash_slug: null, password: '', description: '', excerpt: '',
    date_local: '2024-01-01 00:00:00', date_utc: '2024-01-01 00:00:00', modified_local: '2024-01-01 00:00:00',
    modified_utc: '2024-01-01 00:00:00', image_id: null,
  };
  const venueIds: number[] = [];
  for (let made = 0; made < VENUES; made += 500) {
    await db.transaction().execute(async (trx) => {
      const ids = await trx.insertInto('objects').values(Array.from({ length: 500 }, () => ({ kind: 'venue' as const }))).returning('id').execute();
      const rows: VenueRow[] = ids.map(({ id }) => {
        const [geo_lat, geo_lng] = venuePoint();
        return {
          ...base, id, slug: `venue-${id}`, name: `Venue ${id}`, address: '', city: '', country: '', province: '', state: '', zip: '',
          phone: '', website: '', stateprovince: '', show_map: 1, show_map_link: 1,
          // One venue in twenty has no coordinates, one in fifty is a draft.
          ...(id % 20 === 0 ? { geo_lat: null, geo_lng: null } : { geo_lat, geo_lng }),
          ...(id % 50 === 0 ? { status: 'draft' } : {}),
        };
      });
      await trx.insertInto('venues').values(rows).execute();
      venueIds.push(...ids.map(({ id }) => id));
    });
  }
  for (let made = 0; made < EVENTS; made += 500) {
    await db.transaction().execute(async (trx) => {
      const ids = await trx.insertInto('objects').values(Array.from({ length: 500 }, () => ({ kind: 'event' as const }))).returning('id').execute();
      const rows: EventRow[] = ids.map(({ id }) => {
        // Starts spread over two years around now, so the default window keeps about half.
        const start = wall(new Date(NOW.getTime() + (next() - 0.5) * 2 * 365 * 86_400_000));
        return {
          ...base, ...NO_RECURRENCE, id, slug: `event-${id}`, title: `Event ${id}`, start_local: start, end_local: start, start_utc: start, end_utc: start,
          timezone: 'UTC', timezone_abbr: 'UTC', all_day: 0, cost: '[]', currency_symbol: '', currency_position: '', website: null,
          show_map: null, show_map_link: null, hide_from_listings: 0, sticky: 0, featured: 0,
          venue_id: venueIds[Math.floor(next() * venueIds.length)], post_parent: 0,
        };
      });
      await trx.insertInto('events').values(rows).execute();
    });
  }
  // Fresh planner statistics on both engines, as a running site has them.
  await sql`analyze`.execute(db);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'calendar-bench-geo-'));
  const databaseUrl = process.env.DATABASE_URL ?? `sqlite:${join(dir, 'geo.db')}`;
  const config = loadConfig({ DATABASE_URL: databaseUrl, CALENDAR_PUBLIC_URL: 'http://bench.test', LOG_LEVEL: 'silent' });
  const storage = await openStorage(databaseUrl);
  try {
    const seeding = performance.now();
    const existing = await storage.db.selectFrom('venues').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    // A DATABASE_URL that already holds the data (a previous run on a kept file) is measured as is.
    if (Number(existing.n) === 0) await seed(storage);
    console.log(`${storage.dialect}: seeded ${VENUES} venues and ${EVENTS} events in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
    const app = await buildApp({ config, storage, clock: () => NOW, logger: false });
    const cases: Array<[string, (lat: number, lng: number) => string]> = [
      ['events, 10 km', (lat, lng) => `/events?geoloc=1&geoloc_lat=${lat}&geoloc_lng=${lng}&geoloc_radius=10&geoloc_unit=km`],
      ['events, 25 mi (default), nearest first', (lat, lng) => `/events?geoloc=1&geoloc_lat=${lat}&geoloc_lng=${lng}&orderby=distance`],
      ['events, 500 km, nearest first, page 3', (lat, lng) => `/events?geoloc=1&geoloc_lat=${lat}&geoloc_lng=${lng}&geoloc_radius=500&geoloc_unit=km&orderby=distance&page=3`],
      ['events, 2,000 km', (lat, lng) => `/events?geoloc=1&geoloc_lat=${lat}&geoloc_lng=${lng}&geoloc_radius=2000&geoloc_unit=km`],
      ['venues, 25 mi, nearest first', (lat, lng) => `/venues?geoloc=1&geoloc_lat=${lat}&geoloc_lng=${lng}&orderby=distance`],
      ['venues, 5,000 km', (lat, lng) => `/venues?geoloc=1&geoloc_lat=${lat}&geoloc_lng=${lng}&geoloc_radius=5000&geoloc_unit=km`],
      ['events, no geo filter (reference point)', () => '/events'],
    ];
    console.log(`| request (${storage.dialect}, ${VENUES} venues, ${EVENTS} events) | median ms | p95 ms | mean total |`);
    console.log('|---|---|---|---|');
    for (const [label, path] of cases) {
      const times: number[] = [];
      let totals = 0;
      for (let i = 0; i < REQUESTS; i++) {
        const [lat, lng] = next() < 0.8 ? cities[Math.floor(next() * cities.length)] : [Math.round((next() * 170 - 85) * 1e4) / 1e4, Math.round((next() * 360 - 180) * 1e4) / 1e4];
        // A new centre each time (a few metres apart at least): the read cache never answers.
        const url = `${NS}${path(Number((lat + i * 1e-5).toFixed(5)), Number(lng.toFixed(5)))}`;
        const began = performance.now();
        const res = await app.inject({ method: 'GET', url });
        times.push(performance.now() - began);
        if (res.statusCode !== 200 && res.statusCode !== 404) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
        totals += Number(res.headers['x-tec-total'] ?? 0);
      }
      times.sort((a, b) => a - b);
      console.log(`| ${label} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 95).toFixed(1)} | ${Math.round(totals / REQUESTS)} |`);
    }
    await app.close();
  } finally {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
