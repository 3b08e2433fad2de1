import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { UsersService } from '../src/services/users-service.ts';
import { openStorage } from '../src/storage/database.ts';

/**
 * `npm run bench:recurrence`: the cost of recurring events, through the API (Fastify inject, no
 * network) on a fresh database (SQLite file, or DATABASE_URL): creating a series of 1,000
 * occurrences, and listing one month of a calendar that holds 100,000 occurrences, uncached
 * (every request a different window or page) and cached (the same request again), as a visitor.
 */
const SERIES = Number(process.env.BENCH_SERIES ?? 100);
const PER_SERIES = 1000;
const NS = '/calendar/events/v1';
const now = new Date('2026-01-01T10:00:00Z');

const workDir = mkdtempSync(join(tmpdir(), 'calendar-bench-recurrence-'));
const databaseUrl = process.env.DATABASE_URL ?? `sqlite:${join(workDir, 'bench.db')}`;
// 1,000 daily instances need a horizon past 33 months.
const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', CALENDAR_RECURRENCE_HORIZON_MONTHS: '48', CALENDAR_PUBLIC_URL: 'http://bench.test' });
const storage = await openStorage(config.databaseUrl);
const app = await buildApp({ config, storage, clock: () => now, logger: false });
const admin = await new UsersService(storage, () => now).create({ login: 'bench', role: 'administrator' });
const authorization = `Basic ${Buffer.from(`bench:${admin.password}`).toString('base64')}`;

function stats(samples: number[]): { median: number; p95: number; mean: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p95: at(0.95), mean: samples.reduce((a, b) => a + b, 0) / samples.length };
}

/** Writes as the administrator; lists as a visitor, as a public calendar reads them. */
async function timed(method: 'GET' | 'POST', url: string, body?: unknown): Promise<number> {
  const began = performance.now();
  const headers: Record<string, string> = method === 'POST' ? { authorization, 'content-type': 'application/json' } : {};
  const res = await app.inject({ method, url, headers, payload: body === undefined ? undefined : JSON.stringify(body) });
  const ms = performance.now() - began;
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return ms;
}

const creates: number[] = [];
for (let i = 0; i < SERIES; i++) {
  creates.push(await timed('POST', `${NS}/events`, {
    title: `Daily class ${i}`,
    start_date: '2026-01-05 08:00:00',
    end_date: '2026-01-05 09:30:00',
    timezone: i % 2 === 0 ? 'Europe/Rome' : 'America/New_York',
    status: 'publish',
    categories: [`Series group ${i % 10}`],
    recurrence: { rrule: `FREQ=DAILY;COUNT=${PER_SERIES}` },
  }));
}

// 28 days hold 100 × 28 occurrences; pages of 50 through it and other months are all distinct requests.
const uncached: number[] = [];
const months = ['2026-03', '2026-05', '2026-07', '2026-09', '2026-11', '2027-02', '2027-04', '2027-06'];
for (const month of months) {
  for (const page of [1, 2, Math.ceil((SERIES * 28) / 50)]) uncached.push(await timed('GET', `${NS}/events?start_date=${month}-01&end_date=${month}-28&per_page=50&page=${page}`));
}
const cached: number[] = [];
const repeated = `${NS}/events?start_date=2026-03-01&end_date=2026-03-28&per_page=50&page=1`;
for (let i = 0; i < 50; i++) cached.push(await timed('GET', repeated));
const single: number[] = [];
for (let i = 0; i < 20; i++) single.push(await timed('GET', `${NS}/events?start_date=2026-06-${String(1 + i).padStart(2, '0')}&end_date=2026-06-${String(1 + i).padStart(2, '0')}&per_page=10`));

await app.close();
await storage.close();
if (process.env.BENCH_KEEP) console.log(`kept ${databaseUrl}`);
else rmSync(workDir, { recursive: true, force: true });

const results = {
  dialect: databaseUrl.startsWith('postgres') ? 'postgres' : 'sqlite',
  occurrences: SERIES * PER_SERIES,
  create_series_1000_ms: stats(creates),
  list_month_uncached_ms: stats(uncached),
  list_month_cached_ms: stats(cached),
  list_day_uncached_ms: stats(single),
};
const round = (value: { median: number; p95: number }) => `median ${value.median.toFixed(1)} ms, p95 ${value.p95.toFixed(1)} ms`;
console.log(`recurrence bench (${results.dialect}, ${results.occurrences.toLocaleString('en')} occurrences in ${SERIES} series)`);
console.log(`  create a series of 1,000 occurrences: ${round(results.create_series_1000_ms)}`);
console.log(`  list a month (50 per page), uncached:  ${round(results.list_month_uncached_ms)}`);
console.log(`  list a month (50 per page), cached:    ${round(results.list_month_cached_ms)}`);
console.log(`  list a day (10 per page), uncached:    ${round(results.list_day_uncached_ms)}`);
mkdirSync('bench/results', { recursive: true });
writeFileSync(`bench/results/recurrence-${results.dialect}.json`, `${JSON.stringify(results, null, 2)}\n`);
