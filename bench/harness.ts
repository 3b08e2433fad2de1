import autocannon from 'autocannon';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** What the benches share: the bundle, started services, load, the bare yardstick, clean-up. */

export const NS = '/calendar/events/v1';
export const ADMIN_SECRET = 'bench-administrator-secret-0123456789';
export const AUTH = `Basic ${Buffer.from(`admin:${ADMIN_SECRET}`).toString('base64')}`;
export const DURATION = Number(process.env.BENCH_DURATION ?? 8);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

/** Every process a bench started, so that a failure does not leave servers behind. */
const children = new Set<ChildProcess>();
export const workDir = mkdtempSync(join(tmpdir(), 'calendar-bench-'));

/** `npm start`: its first half builds the bundle, its second runs it with node (and node's flags). */
const [buildCommand, runCommand] = (JSON.parse(readFileSync('package.json', 'utf8')).scripts.start as string).split(' && ');

export function buildBundle(): void {
  spawnSync('sh', ['-c', buildCommand], { stdio: 'inherit', env: { ...process.env, PATH: `node_modules/.bin:${process.env.PATH}` } });
}

export function spawnUntil(args: string[], env: NodeJS.ProcessEnv, pattern: RegExp): Promise<{ child: ChildProcess; match: string }> {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(child);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = pattern.exec(output);
      if (found) resolve({ child, match: found[1] });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${output}`)));
  });
}

export interface Started {
  child: ChildProcess;
  base: string;
  startupMs: number;
}

/** What `npm start` runs after bundling, on `databaseUrl`, with `settings` added to its environment. */
export async function startService(databaseUrl: string, settings: NodeJS.ProcessEnv = {}): Promise<Started> {
  const began = performance.now();
  const env = { ...process.env, DATABASE_URL: databaseUrl, PORT: '0', LOG_LEVEL: 'warn', CALENDAR_ADMIN_PASSWORD: ADMIN_SECRET, CALENDAR_TIMEZONE: 'UTC', ...settings };
  const { child, match } = await spawnUntil(runCommand.split(' ').slice(1), env, /listening on (http:\/\/[^/\s]+)/);
  return { child, base: match, startupMs: performance.now() - began };
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** The PostgreSQL server the benches add a column for: BENCH_POSTGRES_URL, else a postgres DATABASE_URL. */
export const postgresUrl = process.env.BENCH_POSTGRES_URL ?? (process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined);

/** A fresh schema on the PostgreSQL server, dropped afterwards. */
export async function withPostgresSchema<T>(url: string, work: (schemaUrl: string) => Promise<T>): Promise<T> {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  try {
    return await work(`${url}${url.includes('?') ? '&' : '?'}schema=${schema}`);
  } finally {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  }
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

/** RSS split: anonymous memory (V8's heap, malloc, SQLite's page cache) and pages of mapped files (node's binary, libraries). */
export function rssPartsMb(pid: number): { anon: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { anon: Math.round(kb('RssAnon') / 1024), file: Math.round((kb('RssFile') + kb('RssShmem')) / 1024) };
}

/** An authenticated write; `expected` is the status it must answer. */
export async function send(base: string, method: string, path: string, body: unknown, expected = 201): Promise<any> {
  const response = await fetch(`${base}${NS}${path}`, { method, headers: { authorization: AUTH, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (response.status !== expected) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** The linked records both benches give their events: venues, organizers, categories and tags made through the API. */
export interface Linked {
  venues: number[];
  organizers: number[];
  categories: number[];
  tags: number[];
}

export async function seedLinked(base: string): Promise<Linked> {
  const linked: Linked = { venues: [], organizers: [], categories: [], tags: [] };
  for (let i = 1; i <= 50; i++) linked.venues.push((await send(base, 'POST', '/venues', { venue: `Venue ${i}`, city: `City ${i % 7}`, address: `${i} Main Street` })).id);
  for (let i = 1; i <= 50; i++) linked.organizers.push((await send(base, 'POST', '/organizers', { organizer: `Organizer ${i}`, email: `o${i}@example.org` })).id);
  for (let i = 1; i <= 20; i++) linked.categories.push((await send(base, 'POST', '/categories', { name: `Category ${i}` })).id);
  for (let i = 1; i <= 40; i++) linked.tags.push((await send(base, 'POST', '/tags', { name: `Tag ${i}` })).id);
  return linked;
}

/**
 * `amount` authenticated POSTs of `body()` to `url` from `connections` clients, each answer 201:
 * the ids answered and the creates per second. autocannon's client, not fetch: on two shared
 * cores, fetch cost the bench about 1.1 ms of CPU per request, a third of what it measured. The
 * rate runs to the last answer: autocannon itself ends only on its next one-second tick.
 */
export async function post(url: string, connections: number, amount: number, body: () => unknown): Promise<{ ids: number[]; perSecond: number }> {
  const ids: number[] = [];
  const failures: string[] = [];
  const began = performance.now();
  let last = began;
  const result = await autocannon({
    url, connections, amount, pipelining: 1,
    requests: [{
      method: 'POST',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      setupRequest: (request) => ({ ...request, body: JSON.stringify(body()) }),
      onResponse: (status, answer) => {
        last = performance.now();
        if (status === 201) ids.push(Number(/"id":(\d+)/.exec(answer)![1]));
        else failures.push(`${status} ${answer.slice(0, 300)}`);
      },
    }],
  });
  if (failures.length > 0 || result.errors > 0 || ids.length !== amount) {
    throw new Error(`POST ${url}: ${ids.length} of ${amount} created, ${result.errors} errors ${failures.slice(0, 3).join('; ')}`);
  }
  return { ids, perSecond: (amount / (last - began)) * 1000 };
}

export interface Measure {
  requestsPerSecond: number;
  p99Ms: number;
}

/** GETs of `url` (with `headers`) from CONNECTIONS clients for `duration` seconds, every answer 2xx. */
export async function load(url: string, duration = DURATION, headers: Record<string, string> = {}): Promise<autocannon.Result> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration, pipelining: 1, headers });
  if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} answers other than 2xx`);
  return result;
}

export async function measure(url: string, duration = DURATION, headers: Record<string, string> = {}): Promise<Measure> {
  const result = await load(url, duration, headers);
  return { requestsPerSecond: Math.round(result.requests.average), p99Ms: result.latency.p99 };
}

/**
 * Slices each side of a comparison gets, taken in turns: this VM's speed drifts over minutes (the
 * bare server ran 9,700–41,000 req/s within one run), and two figures measured one after the
 * other drifted apart with it (the same cached page 0.47–0.81 of bare in three runs).
 */
export const SLICES = Number(process.env.BENCH_SLICES ?? 4);

/**
 * `first` and `second` measured in turns, SLICES slices each, the slices adding up to `duration`
 * seconds per side: each one's results in slice order.
 */
export async function inTurns<A, B>(first: (seconds: number) => Promise<A>, second: (seconds: number) => Promise<B>, duration = DURATION): Promise<[A[], B[]]> {
  const seconds = Math.max(1, Math.round(duration / SLICES));
  const results: [A[], B[]] = [[], []];
  for (let slice = 0; slice < SLICES; slice++) {
    results[0].push(await first(seconds));
    results[1].push(await second(seconds));
  }
  return results;
}

/** Slices of one measurement as one: requests/s averaged, the worst slice's p99. */
export function combined(slices: readonly Measure[]): Measure {
  return {
    requestsPerSecond: Math.round(slices.reduce((sum, slice) => sum + slice.requestsPerSecond, 0) / slices.length),
    p99Ms: Math.max(...slices.map((slice) => slice.p99Ms)),
  };
}

/**
 * `url` measured in turns with the yardstick: a bare node:http server (its own process) returning
 * `bytes`, the very answer of `url`. With `encoding`, the requests accept that coding only, and
 * `bytes` are the answer in it.
 */
export async function measureAgainstBare(url: string, bytes: Buffer, contentType: string, encoding?: string): Promise<{ service: Measure; bare: Measure }> {
  const file = join(workDir, 'body');
  writeFileSync(file, bytes);
  const bare = await spawnUntil(['--import', 'tsx', 'bench/bare-server.ts', file, contentType, ...(encoding ? [encoding] : [])], process.env, /listening on (\d+)/);
  const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
  try {
    const [service, yardstick] = await inTurns((seconds) => measure(url, seconds, headers), (seconds) => measure(`http://127.0.0.1:${bare.match}/`, seconds, headers));
    return { service: combined(service), bare: combined(yardstick) };
  } finally {
    await stop(bare.child);
  }
}

export function ratio(part: number, whole: number): number {
  return Math.round((part / whole) * 1000) / 10;
}

/** Runs a bench's main and always cleans up after it. */
export function runBench(main: () => Promise<void>): void {
  main()
    .catch((error) => {
      console.error(error);
      process.exitCode = 1;
    })
    .finally(() => {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(workDir, { recursive: true, force: true });
    });
}
