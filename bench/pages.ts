import autocannon from 'autocannon';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * `npm run bench:pages`: the public calendar pages (55) — month, list and single event — served
 * by the bundle `npm start` runs, against a bare node:http server returning the same bytes
 * (bench/bare-server.ts), in the same run. Seeds through the API; prints a table.
 */
const EVENTS = Number(process.env.BENCH_PAGE_EVENTS ?? 2000);
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SECRET = 'bench-administrator-secret-0123456789';
const AUTH = `Basic ${Buffer.from(`admin:${SECRET}`).toString('base64')}`;
const NS = '/calendar/events/v1';
const DAY = 86_400_000;

const workDir = mkdtempSync(join(tmpdir(), 'calendar-bench-pages-'));
const children = new Set<ChildProcess>();

function spawnUntil(args: string[], env: NodeJS.ProcessEnv, pattern: RegExp): Promise<{ child: ChildProcess; match: string }> {
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

async function measure(url: string, duration = DURATION): Promise<{ requestsPerSecond: number; p99Ms: number }> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration, pipelining: 1 });
  if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} answers other than 2xx`);
  return { requestsPerSecond: Math.round(result.requests.average), p99Ms: result.latency.p99 };
}

function wall(millis: number): string {
  return new Date(millis).toISOString().slice(0, 16).replace('T', ' ');
}

async function seed(base: string): Promise<string> {
  let firstSlug = '';
  let next = 0;
  const start = Date.now() - 30 * DAY;
  const worker = async () => {
    while (next < EVENTS) {
      const i = next++;
      const begins = start + Math.floor((i / EVENTS) * 120 * DAY) + (i % 9) * 3_600_000;
      const response = await fetch(`${base}${NS}/events`, {
        method: 'POST',
        headers: { authorization: AUTH, 'content-type': 'application/json' },
        body: JSON.stringify({
          title: `Bench event ${i}`, status: 'publish', start_date: wall(begins), end_date: wall(begins + 2 * 3_600_000),
          description: `<p>Event number ${i} with a <strong>short</strong> description.</p>`, categories: `category-${i % 5}`,
          venue: { venue: `Venue ${i % 20}`, city: 'Aarhus', address: `Street ${i % 20}` }, featured: i % 10 === 0,
        }),
      });
      if (response.status !== 201) throw new Error(`seeding: ${response.status} ${await response.text()}`);
      const event = (await response.json()) as { slug: string };
      if (i === 0) firstSlug = event.slug;
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return firstSlug;
}

async function main(): Promise<void> {
  const startScript: string = JSON.parse(readFileSync('package.json', 'utf8')).scripts.start;
  spawnSync('sh', ['-c', startScript.split(' && ')[0]], { stdio: 'inherit', env: { ...process.env, PATH: `node_modules/.bin:${process.env.PATH}` } });
  const env = { ...process.env, DATABASE_URL: `sqlite:${join(workDir, 'bench.db')}`, PORT: '0', LOG_LEVEL: 'warn', CALENDAR_ADMIN_PASSWORD: SECRET, CALENDAR_TIMEZONE: 'UTC' };
  const service = await spawnUntil(['dist/server.js'], env, /listening on (http:\/\/[^/\s]+)/);
  const base = service.match;
  const slug = await seed(base);
  console.log(`bench:pages: ${EVENTS} events, ${CONNECTIONS} connections, ${DURATION} s per page, ${cpus().length} cores`);
  console.log('| page | bytes | service req/s | p99 ms | bare req/s | ratio |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [name, path] of [['month', '/events/month/'], ['list', '/events/list/'], ['single event', `/event/${slug}/`]]) {
    const response = await fetch(base + path);
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    await measure(base + path, 2); // warm-up, not measured
    const page = await measure(base + path);
    const file = join(workDir, 'page.html');
    writeFileSync(file, body);
    const bare = await spawnUntil(['--import', 'tsx', 'bench/bare-server.ts', file, response.headers.get('content-type')!], process.env, /listening on (\d+)/);
    const yardstick = await measure(`http://127.0.0.1:${bare.match}/`);
    bare.child.kill('SIGTERM');
    const ratio = Math.round((page.requestsPerSecond / yardstick.requestsPerSecond) * 1000) / 10;
    console.log(`| ${name} | ${body.length} | ${page.requestsPerSecond} | ${page.p99Ms} | ${yardstick.requestsPerSecond} | ${ratio} % |`);
  }
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
