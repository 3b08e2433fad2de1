import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { SigninService } from '../src/services/signin/signin-service.ts';
import { UsersService } from '../src/services/users-service.ts';
import { openStorage, type Storage } from '../src/storage/database.ts';
import { copyEvents } from './bulk-copy.ts';
import { NS, postgresUrl, runBench, withPostgresSchema, workDir } from './harness.ts';

/**
 * `npm run bench:admin` (100 §14): server time of the back office's heaviest GETs — the event list
 * (default tab, page 1 and page 50), the dashboard and an event editor — at 20,000 events, on
 * SQLite and PostgreSQL (when BENCH_POSTGRES_URL or a postgres DATABASE_URL is set), with the
 * statements each request runs. In process (Fastify injection): the time is the server's alone.
 * Target: median below 50 ms. Results: bench/results/admin-{sqlite,postgres}.json.
 */
const TARGET_EVENTS = Number(process.env.BENCH_ADMIN_EVENTS ?? 20_000);
const SEEDED = 400;
const SERIES = 20;
const SAMPLES = Number(process.env.BENCH_ADMIN_SAMPLES ?? 60);
const PASSWORD = 'bench sign-in password 0123';
const ORIGIN = 'http://calendar.test';
const DAY = 86_400_000;

function wall(millis: number): string {
  return new Date(millis).toISOString().slice(0, 16).replace('T', ' ');
}

/** A config for the bench database: cheap sign-in hashes (the bench measures pages, not scrypt). */
function configFor(databaseUrl: string) {
  return loadConfig({ DATABASE_URL: databaseUrl, CALENDAR_PUBLIC_URL: ORIGIN, LOG_LEVEL: 'silent', CALENDAR_SIGNIN_HASH_COST: '14' });
}

/**
 * The API seeds a spread of events (statuses, venues, categories, two authors), the copy grows them
 * to the target, then the API adds series (the copy takes rows one by one: it cannot copy series).
 */
async function seed(databaseUrl: string): Promise<void> {
  await seedThroughApi(databaseUrl, false);
  await copyEvents(databaseUrl, TARGET_EVENTS - SERIES * 6);
  await seedThroughApi(databaseUrl, true);
}

async function seedThroughApi(databaseUrl: string, series: boolean): Promise<void> {
  const config = configFor(databaseUrl);
  const storage = await openStorage(config.databaseUrl, config.postgresLimits);
  const app = await buildApp({ config, storage, logger: false });
  try {
    const users = new UsersService(storage, () => new Date());
    const admin = await users.create({ login: series ? 'benchseries' : 'benchadmin', role: 'administrator', email: series ? 'benchseries@example.test' : 'benchadmin@example.test' });
    if (!series) await new SigninService(storage, 14, () => new Date()).setPassword(admin.user, PASSWORD);
    const author = series ? admin : await users.create({ login: 'benchauthor', role: 'author', email: 'benchauthor@example.test' });
    const auth = `Basic ${Buffer.from(`${admin.user.login}:${admin.password}`).toString('base64')}`;
    const start = Date.now() - 60 * DAY;
    const count = series ? SERIES : SEEDED;
    for (let i = 0; i < count; i++) {
      const begins = start + Math.floor((i / count) * 240 * DAY) + (i % 9) * 3_600_000;
      const status = i % 10 === 0 ? 'draft' : i % 17 === 0 ? 'pending' : 'publish';
      const body = {
        title: `Bench event ${i}`, status, start_date: wall(begins), end_date: wall(begins + 2 * 3_600_000),
        description: `<p>Event number ${i}.</p>`, categories: `category-${i % 7}`, tags: `tag-${i % 11}`,
        venue: { venue: `Venue ${i % 40}`, city: 'Aarhus' }, organizer: [{ organizer: `Organizer ${i % 25}` }],
        author: i % 2 === 0 ? admin.user.id : author.user.id,
        ...(series ? { recurrence: { rrule: 'FREQ=WEEKLY;COUNT=6' } } : {}),
      };
      const response = await app.inject({ method: 'POST', url: `${NS}/events`, headers: { authorization: auth, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
      if (response.statusCode !== 201) throw new Error(`seeding: ${response.statusCode} ${response.body}`);
    }
  } finally {
    await app.close();
    await storage.close();
  }
}

/** The app with a statement counter, and a signed-in administrator's cookie (through the login form). */
async function open(databaseUrl: string) {
  const config = configFor(databaseUrl);
  const opened = await openStorage(config.databaseUrl, config.postgresLimits);
  let statements = 0;
  const storage: Storage = {
    ...opened,
    db: opened.db.withPlugin({ transformQuery: (args) => args.node, transformResult: async (args) => { statements++; return args.result; } }),
  };
  const app = await buildApp({ config, storage, logger: false });
  const form = await app.inject({ method: 'GET', url: '/admin/login' });
  const preCookie = String(form.headers['set-cookie'] ?? '').split(';')[0];
  const token = /name="_token" value="([^"]+)"/.exec(form.body)?.[1] ?? '';
  const login = await app.inject({
    method: 'POST', url: '/admin/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, ...(preCookie === '' ? {} : { cookie: preCookie }) },
    payload: new URLSearchParams({ _token: token, login: 'benchadmin', password: PASSWORD }).toString(),
  });
  const setCookie = ([] as string[]).concat(login.headers['set-cookie'] ?? []).find((line) => line.startsWith('cal_session='));
  if (login.statusCode !== 303 || setCookie === undefined) throw new Error(`sign-in failed: ${login.statusCode}`);
  const cookie = setCookie.split(';')[0];
  return { app, storage, cookie, statements: () => statements };
}

interface Row {
  page: string;
  path: string;
  status: number;
  medianMs: number;
  p95Ms: number;
  statements: number;
}

function percentile(sorted: number[], p: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] * 100) / 100;
}

async function measureDialect(dialect: 'sqlite' | 'postgres', databaseUrl: string): Promise<Row[]> {
  await seed(databaseUrl);
  const { app, storage, cookie, statements } = await open(databaseUrl);
  try {
    const editorId = Number((await storage.db.selectFrom('events').select('id').where('post_parent', '=', 0).orderBy('id').limit(1).executeTakeFirstOrThrow()).id);
    const pages: [string, string][] = [
      ['events list, default tab, page 1', '/admin/events/'],
      ['events list, default tab, page 50', '/admin/events/?paged=50'],
      ['dashboard', '/admin/'],
      ['event editor GET', `/admin/events/${editorId}/`],
    ];
    const rows: Row[] = [];
    for (const [name, path] of pages) {
      const get = () => app.inject({ method: 'GET', url: path, headers: { cookie } });
      for (let i = 0; i < 5; i++) await get();
      const before = statements();
      const first = await get();
      const count = statements() - before;
      const times: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const began = process.hrtime.bigint();
        await get();
        times.push(Number(process.hrtime.bigint() - began) / 1e6);
      }
      times.sort((a, b) => a - b);
      // An editor page not merged yet answers the 404 page: its row says so instead of passing for the editor.
      const label = first.statusCode === 200 ? name : `${name} (answers ${first.statusCode}: page not merged on this branch)`;
      rows.push({ page: label, path, status: first.statusCode, medianMs: percentile(times, 50), p95Ms: percentile(times, 95), statements: count });
    }
    console.log(`bench:admin [${dialect}] ${TARGET_EVENTS} events, ${SAMPLES} samples a page, target median < 50 ms`);
    console.log('| page | status | median ms | p95 ms | statements |');
    console.log('|---|---:|---:|---:|---:|');
    for (const row of rows) console.log(`| ${row.page} | ${row.status} | ${row.medianMs} | ${row.p95Ms} | ${row.statements} |`);
    return rows;
  } finally {
    await app.close();
    await storage.close();
  }
}

function save(dialect: string, rows: Row[]): void {
  const folder = join(import.meta.dirname, 'results');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `admin-${dialect}.json`), `${JSON.stringify({ bench: 'admin', events: TARGET_EVENTS, samples: SAMPLES, node: process.version, targetMedianMs: 50, rows }, null, 2)}\n`);
}

async function main(): Promise<void> {
  save('sqlite', await measureDialect('sqlite', `sqlite:${join(workDir, 'admin.db')}`));
  if (postgresUrl === undefined) {
    console.log('bench:admin: no PostgreSQL (set BENCH_POSTGRES_URL): SQLite only');
    return;
  }
  save('postgres', await withPostgresSchema(postgresUrl, (url) => measureDialect('postgres', url)));
}

runBench(main);
