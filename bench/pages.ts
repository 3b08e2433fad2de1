import { cpus } from 'node:os';
import { join } from 'node:path';
import { AUTH, buildBundle, CONNECTIONS, DURATION, measure, measureAgainstBare, NS, ratio, runBench, startService, workDir } from './harness.ts';

/**
 * `npm run bench:pages`: the public calendar pages (55) — month, week, list and single event — served
 * by the bundle `npm start` runs, against a bare node:http server returning the same bytes
 * (bench/bare-server.ts), in the same run. Seeds through the API; prints a table.
 */
const EVENTS = Number(process.env.BENCH_PAGE_EVENTS ?? 2000);
const DAY = 86_400_000;

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
  buildBundle();
  const { base } = await startService(`sqlite:${join(workDir, 'pages.db')}`);
  const slug = await seed(base);
  console.log(`bench:pages: ${EVENTS} events, ${CONNECTIONS} connections, ${DURATION} s per page, ${cpus().length} cores`);
  console.log('| page | bytes | service req/s | p99 ms | bare req/s | ratio |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [name, path] of [['month', '/events/month/'], ['week', '/events/week/'], ['list', '/events/list/'], ['single event', `/event/${slug}/`]]) {
    const response = await fetch(base + path);
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    await measure(base + path, 2); // warm-up, not measured
    const { service: page, bare: yardstick } = await measureAgainstBare(base + path, body, response.headers.get('content-type')!);
    console.log(`| ${name} | ${body.length} | ${page.requestsPerSecond} | ${page.p99Ms} | ${yardstick.requestsPerSecond} | ${ratio(page.requestsPerSecond, yardstick.requestsPerSecond)} % |`);
  }
}

runBench(main);
