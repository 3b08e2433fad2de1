import autocannon from 'autocannon';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyEvents } from './bulk-copy.ts';

/**
 * `npm run bench`: starts the service on a fresh database, seeds it through the public API,
 * measures the read paths against a bare node:http server returning the same bytes in the same
 * run, then grows the data tenfold (copies written straight into the tables) and measures the
 * lists again. Prints a table and writes JSON.
 */
const EVENTS = Number(process.env.BENCH_EVENTS ?? 20_000);
const LARGE_EVENTS = Number(process.env.BENCH_LARGE_EVENTS ?? 200_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SEED_CLIENTS = 16;
const ADMIN_SECRET = 'bench-administrator-secret-0123456789';
const AUTH = `Basic ${Buffer.from(`admin:${ADMIN_SECRET}`).toString('base64')}`;
const NS = '/calendar/events/v1';

const workDir = mkdtempSync(join(tmpdir(), 'calendar-bench-'));
const databaseUrl = process.env.DATABASE_URL ?? `sqlite:${join(workDir, 'bench.db')}`;
const dialect = databaseUrl.startsWith('postgres') ? 'postgres' : 'sqlite';

interface Started {
  child: ChildProcess;
  base: string;
  startupMs: number;
}

/** Every process the bench started, so that a failure does not leave servers behind. */
const children = new Set<ChildProcess>();

function startService(): Promise<Started> {
  const began = performance.now();
  return new Promise((resolve, reject) => {
    // What `npm start` runs after bundling.
    const child = spawn(process.execPath, ['--enable-source-maps', 'dist/server.js'], {
      env: { ...process.env, DATABASE_URL: databaseUrl, PORT: '0', LOG_LEVEL: 'warn', CALENDAR_ADMIN_PASSWORD: ADMIN_SECRET, CALENDAR_TIMEZONE: 'UTC' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.add(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^/\s]+)/.exec(output);
      if (match) resolve({ child, base: match[1], startupMs: performance.now() - began });
    });
    child.once('exit', (code) => reject(new Error(`service exited with ${code}: ${output}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

async function post(base: string, path: string, body: unknown): Promise<any> {
  const response = await fetch(`${base}${NS}${path}`, { method: 'POST', headers: { authorization: AUTH, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

interface Linked {
  venues: number[];
  organizers: number[];
  categories: number[];
  tags: number[];
}

async function seedLinked(base: string): Promise<Linked> {
  const linked: Linked = { venues: [], organizers: [], categories: [], tags: [] };
  for (let i = 1; i <= 50; i++) linked.venues.push((await post(base, '/venues', { venue: `Venue ${i}`, city: `City ${i % 7}`, address: `${i} Main Street` })).id);
  for (let i = 1; i <= 50; i++) linked.organizers.push((await post(base, '/organizers', { organizer: `Organizer ${i}`, email: `o${i}@example.org` })).id);
  for (let i = 1; i <= 20; i++) linked.categories.push((await post(base, '/categories', { name: `Category ${i}` })).id);
  for (let i = 1; i <= 40; i++) linked.tags.push((await post(base, '/tags', { name: `Tag ${i}` })).id);
  return linked;
}

const WORDS = ['jazz', 'opera', 'market', 'lecture', 'festival', 'workshop', 'concert', 'tour', 'fair', 'reading'];
const DAY = 86_400_000;

function eventBody(index: number, linked: Linked, spanStart: number): Record<string, unknown> {
  // Spread over two years from yesterday, so that the default window (yesterday .. +24 months) holds them.
  const start = new Date(spanStart + ((index * 7919) % (730 * 24)) * 3_600_000);
  const end = new Date(start.getTime() + 2 * 3_600_000);
  const pick = (list: number[], n: number) => list[(index * n) % list.length];
  return {
    title: `${WORDS[index % WORDS.length]} evening ${index}`,
    description: `An evening of ${WORDS[(index + 3) % WORDS.length]} number ${index}.`,
    start_date: start.toISOString().slice(0, 19).replace('T', ' '),
    end_date: end.toISOString().slice(0, 19).replace('T', ' '),
    cost: index % 3 === 0 ? '0' : `${10 + (index % 20)}$`,
    venue: pick(linked.venues, 1),
    organizer: [pick(linked.organizers, 3)],
    categories: [pick(linked.categories, 1), pick(linked.categories, 7)].filter((id, i, all) => all.indexOf(id) === i),
    tags: [pick(linked.tags, 1), pick(linked.tags, 11)].filter((id, i, all) => all.indexOf(id) === i),
  };
}

async function seedEvents(base: string, linked: Linked, from: number, to: number): Promise<number> {
  const spanStart = Date.now() - DAY / 2;
  let next = from;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: SEED_CLIENTS }, async () => {
      while (next < to) {
        const index = next++;
        await post(base, '/events', eventBody(index, linked, spanStart));
      }
    }),
  );
  return ((to - from) / (performance.now() - began)) * 1000;
}

interface Measure {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
}

async function load(url: string, duration = DURATION): Promise<Measure> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration, pipelining: 1 });
  return { requestsPerSecond: Math.round(result.requests.average), p99Ms: result.latency.p99, non2xx: result.non2xx };
}

async function bare(bytes: Buffer, contentType: string): Promise<{ url: string; child: ChildProcess }> {
  const file = join(workDir, 'body.json');
  writeFileSync(file, bytes);
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/bare-server.ts', file, contentType], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(child);
  const port = await new Promise<string>((resolve) => child.stdout!.on('data', (chunk: Buffer) => resolve(/listening on (\d+)/.exec(chunk.toString())![1])));
  return { url: `http://127.0.0.1:${port}/`, child };
}

interface RouteResult {
  name: string;
  path: string;
  bytes: number;
  service: Measure;
  bare?: Measure;
  ratio?: number;
}

async function measureRoute(base: string, name: string, path: string, withBare: boolean): Promise<RouteResult> {
  const response = await fetch(`${base}${path}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${bytes.toString().slice(0, 300)}`);
  await load(`${base}${path}`, 2); // warm-up: JIT and caches, not measured
  const service = await load(`${base}${path}`);
  const result: RouteResult = { name, path, bytes: bytes.length, service };
  if (withBare) {
    const server = await bare(bytes, response.headers.get('content-type') ?? 'application/json');
    result.bare = await load(server.url);
    result.ratio = Math.round((service.requestsPerSecond / result.bare.requestsPerSecond) * 1000) / 10;
    await stop(server.child);
  }
  return result;
}

function routes(linked: Linked, firstEventId: number): Array<[string, string]> {
  const today = new Date().toISOString().slice(0, 10);
  const inAYear = new Date(Date.now() + 365 * DAY).toISOString().slice(0, 10);
  return [
    ['events (defaults)', `${NS}/events`],
    ['events per_page=50', `${NS}/events?per_page=50`],
    ['events filtered', `${NS}/events?categories=${linked.categories[0]}&search=jazz&start_date=${today}&end_date=${inAYear}`],
    ['event by id', `${NS}/events/${firstEventId}`],
    ['venues per_page=20', `${NS}/venues?per_page=20`],
  ];
}

function printTable(title: string, results: RouteResult[]): void {
  console.log(`\n${title}`);
  console.log('| route | bytes | service req/s | p99 ms | bare req/s | ratio |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of results) {
    console.log(`| ${r.name} | ${r.bytes} | ${r.service.requestsPerSecond} | ${r.service.p99Ms} | ${r.bare?.requestsPerSecond ?? '–'} | ${r.ratio !== undefined ? `${r.ratio} %` : '–'} |`);
  }
}

async function main(): Promise<void> {
  // The bundle `npm start` builds before it runs it: the first half of that script.
  const startScript: string = JSON.parse(readFileSync('package.json', 'utf8')).scripts.start;
  spawnSync('sh', ['-c', startScript.split(' && ')[0]], { stdio: 'inherit', env: { ...process.env, PATH: `node_modules/.bin:${process.env.PATH}` } });
  console.log(`bench: ${dialect}, ${EVENTS} events then ${LARGE_EVENTS}, ${CONNECTIONS} connections, ${DURATION} s per route, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'})`);
  let service = await startService();
  const coldStartMs = service.startupMs;
  const linked = await seedLinked(service.base);
  const firstEvent = await post(service.base, '/events', eventBody(0, linked, Date.now()));
  const seedRate = await seedEvents(service.base, linked, 1, EVENTS);
  const rssAfterSeed = rssMb(service.child.pid!);
  const small: RouteResult[] = [];
  for (const [name, path] of routes(linked, firstEvent.id)) small.push(await measureRoute(service.base, name, path, true));
  const rssAfterLoad = rssMb(service.child.pid!);
  await stop(service.child);

  service = await startService();
  const seededStartMs = service.startupMs;
  const large: RouteResult[] = [];
  if (LARGE_EVENTS > EVENTS) {
    await copyEvents(databaseUrl, LARGE_EVENTS);
    for (const [name, path] of routes(linked, firstEvent.id).filter(([name]) => name.startsWith('events'))) {
      large.push(await measureRoute(service.base, name, path, false));
    }
  }
  const rssLarge = rssMb(service.child.pid!);
  await stop(service.child);

  printTable(`${EVENTS} events`, small);
  if (large.length) printTable(`${LARGE_EVENTS} events`, large);
  const keep = large.length ? Math.round((large[0].service.requestsPerSecond / small[0].service.requestsPerSecond) * 1000) / 10 : null;
  console.log(`\nseeding: ${Math.round(seedRate)} event creates/s (${SEED_CLIENTS} clients)`);
  console.log(`resident memory: ${rssAfterSeed} MB after seeding, ${rssAfterLoad} MB after the load, ${rssLarge} MB at ${LARGE_EVENTS} events`);
  console.log(`start-up: ${Math.round(coldStartMs)} ms on an empty database, ${Math.round(seededStartMs)} ms on the seeded one`);
  if (keep !== null) console.log(`default list at ${LARGE_EVENTS} events keeps ${keep} % of its ${EVENTS}-event throughput`);

  const figures = { date: new Date().toISOString(), dialect, cpu: cpus()[0]?.model, cores: cpus().length, events: EVENTS, largeEvents: LARGE_EVENTS, connections: CONNECTIONS, durationSeconds: DURATION, small, large, seedCreatesPerSecond: Math.round(seedRate), rssMb: { afterSeed: rssAfterSeed, afterLoad: rssAfterLoad, large: rssLarge }, startupMs: { empty: Math.round(coldStartMs), seeded: Math.round(seededStartMs) }, largeKeepsPercent: keep };
  mkdirSync('bench/results', { recursive: true });
  const file = `bench/results/${dialect}.json`;
  writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
  console.log(`figures written to ${file}`);
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(workDir, { recursive: true, force: true });
  });
