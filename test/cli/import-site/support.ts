import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';

/** A second instance of the service, listening on a free port, as the import's source. */
export interface SourceInstance {
  t: TestApp;
  origin: string;
  /** The namespace root clients use (the alias's when the instance has one). */
  root: string;
  admin: { login: string; password: string };
  /** An API call to the source as its administrator. */
  call(method: string, path: string, body?: unknown): Promise<any>;
  close(): Promise<void>;
}

export async function startSource(options: { wordpressLayout?: boolean; env?: Record<string, string> } = {}): Promise<SourceInstance> {
  const env: Record<string, string> = { CALENDAR_PUBLIC_URL: '', ...options.env };
  if (options.wordpressLayout) Object.assign(env, { CALENDAR_BASE_PATH: '/wp-json', CALENDAR_NAMESPACE_ALIASES: 'tribe/events/v1' });
  const t = await startTestApp('sqlite', { env });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const root = `${origin}${options.wordpressLayout ? '/wp-json/tribe/events/v1' : '/calendar/events/v1'}`;
  const admin = t.users.administrator;
  return {
    t,
    origin,
    root,
    admin,
    async call(method, path, body) {
      const response = await fetch(`${root}${path}`, {
        method,
        headers: { authorization: t.authHeader(admin), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = await response.json();
      assert.ok(response.status < 300, `${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
      return json;
    },
    close: () => t.close(),
  };
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The `--json` summary, when the run printed one. */
  report?: any;
}

let bundled: Promise<string> | undefined;

/**
 * The command bundled once per test file, as `npm start` bundles the server: a process then
 * starts in a fraction of the time tsx needs to compile the sources on a busy machine. It lives
 * under node_modules so that its package imports resolve.
 */
function commandBundle(): Promise<string> {
  bundled ??= (async () => {
    const dir = join('node_modules', '.cache', 'calendar-test', String(process.pid));
    mkdirSync(dir, { recursive: true });
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const outfile = join(dir, 'calendar.mjs');
    await build({ entryPoints: ['src/cli/main.ts'], bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', outfile, logLevel: 'warning' });
    return outfile;
  })();
  return bundled;
}

/** `calendar import site …` as a user runs it: a separate process on the target's database. */
export async function runImport(databaseUrl: string, args: string[], onStart?: (child: import('node:child_process').ChildProcess) => void, env: Record<string, string> = {}): Promise<CliRun> {
  const command = await commandBundle();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [command, 'import', 'site', ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      let report: unknown;
      if (args.includes('--json')) {
        try {
          report = JSON.parse(stdout.trim().split('\n').at(-1) ?? '');
        } catch {
          report = undefined;
        }
      }
      resolve({ code, stdout, stderr, report });
    });
    onStart?.(child);
  });
}

/** Fills a source through its API with every kind and the cases that matter to a copy. */
export async function fillSource(source: SourceInstance): Promise<void> {
  const { call } = source;
  const arts = await call('POST', '/categories', { name: 'Arts', description: 'All the <em>arts</em>' });
  const music = await call('POST', '/categories', { name: 'Music', slug: 'music-and-song', parent: arts.id });
  await call('POST', '/categories', { name: 'Chamber', parent: music.id });
  const outdoor = await call('POST', '/tags', { name: 'Outdoor' });
  await call('POST', '/tags', { name: 'Free entry', slug: 'free' });
  const hall = await call('POST', '/venues', { venue: 'Town Hall', address: 'Main Street 1', city: 'Aarhus', country: 'Denmark', zip: '8000', phone: '+45 1234', website: 'https://hall.example.org', show_map: false });
  const park = await call('POST', '/venues', { venue: 'City Park', description: '<p>Under the trees</p>', status: 'draft' });
  await call('POST', '/venues', { venue: 'Secret Cellar', password: 'cellar' });
  const friends = await call('POST', '/organizers', { organizer: 'Friends of Music', email: 'friends@example.org', website: 'https://friends.example.org' });
  const club = await call('POST', '/organizers', { organizer: 'Jazz Club', phone: '555' });
  await call('POST', '/events', {
    title: 'Spring Concert', description: '<p>An evening of <strong>Brahms</strong>.</p>', excerpt: 'Brahms',
    start_date: '2030-04-12 19:30:00', end_date: '2030-04-12 22:00:00', timezone: 'Europe/Rome',
    cost: ['€15', '€25'], website: 'https://concert.example.org', featured: true, sticky: true,
    venue: hall.id, organizer: [friends.id, club.id], categories: [music.id], tags: [outdoor.id],
  });
  await call('POST', '/events', { title: 'Harvest Fair', start_date: '2030-09-01 00:00:00', end_date: '2030-09-03 23:59:59', all_day: true, timezone: 'America/New_York', venue: park.id, show_map: true, show_map_link: false });
  await call('POST', '/events', { title: 'Night Walk', start_date: '2030-06-21 22:00:00', end_date: '2030-06-22 02:00:00', timezone: 'Asia/Tokyo', cost: 'Free', status: 'draft' });
  await call('POST', '/events', { title: 'Board Meeting', start_date: '2030-02-02 10:00:00', end_date: '2030-02-02 11:00:00', status: 'private', categories: [arts.id] });
  await call('POST', '/events', { title: 'Members Evening', start_date: '2030-03-03 18:00:00', end_date: '2030-03-03 20:00:00', password: 'members', image: 'https://images.example.org/members.jpg' });
  await call('POST', '/events', { title: 'Spring Concert', start_date: '2030-04-13 19:30:00', end_date: '2030-04-13 22:00:00', tags: [outdoor.id] });
}

// Term parents are ids; the category `url` carries the chain of ancestor slugs instead.
const VOLATILE = new Set(['id', 'term_id', 'term_taxonomy_id', 'parent', 'author', 'modified', 'modified_utc', 'global_id', 'global_id_lineage', 'rest_url', 'next_rest_url', 'previous_rest_url', 'urls', '_links', 'count']);

/**
 * A record as both sides should agree on it: own ids, authors and modification times dropped,
 * the two origins made one, references to other records named by slug.
 */
export function comparable(value: unknown, origins: string[]): unknown {
  if (typeof value === 'string') {
    let text = value;
    for (const origin of origins) text = text.split(origin).join('ORIGIN');
    return text.replace(/([?&]p=)\d+/g, '$1ID').replace(/\?id=\d+/g, '?id=ID');
  }
  if (Array.isArray(value)) return value.map((item) => comparable(item, origins));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    // A floating draft (no publication date yet) shows the moment it was last saved as its date.
    const floating = 'date_utc' in value && String((value as { date_utc: unknown }).date_utc).startsWith('0000');
    for (const [key, item] of Object.entries(value)) {
      if (VOLATILE.has(key) || (floating && key === 'date')) continue;
      out[key] = comparable(item, origins);
    }
    return out;
  }
  return value;
}

export const COLLECTIONS = ['categories', 'tags', 'venues', 'organizers', 'events'] as const;

/** Every record of a collection as an administrator lists it, whole (protected ones re-read with context=edit). */
export async function everything(get: (path: string) => Promise<any>, collection: (typeof COLLECTIONS)[number]): Promise<{ total: number; records: any[] }> {
  const query = collection === 'events' ? 'start_date=1970-01-01&end_date=2100-12-31&status=any' : collection === 'categories' || collection === 'tags' ? 'hide_empty=0' : 'status=any';
  const records: any[] = [];
  let total = 0;
  for (let page = 1; ; page++) {
    const body = await get(`/${collection}?per_page=50&${query}&page=${page}&context=edit`);
    total = body.total;
    records.push(...body[collection]);
    if (page >= body.total_pages) break;
  }
  return { total, records };
}
