import { get } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { buildBundle, CONNECTIONS, DURATION, type Linked, measure, measureAgainstBare, NS, post, ratio, runBench, seedLinked, send, SLICES, startService, workDir } from './harness.ts';

/**
 * `npm run bench:pages`: the public calendar pages (55) — a whole month, week, list and single
 * event — served by the bundle `npm start` runs, against a bare node:http server returning the
 * same bytes (bench/bare-server.ts), in the same run. Seeds BENCH_PAGE_PER_DAY events a day
 * through the API, each with a venue, an organizer, two categories and two tags; prints a table
 * with each page's size, and the month's JSON-LD apart (55 §7.2 fixes its bytes: the listed
 * events' json_ld as the API gives it), and what a browser receives of it (compressed). The
 * load itself asks for no coding, as the bare server has none.
 */
const PER_DAY = Number(process.env.BENCH_PAGE_PER_DAY ?? 30);
/** From yesterday: next month's grid, its spill-over weeks included, is always inside. */
const DAYS = 75;
const HOUR = 3_600_000;

/**
 * PER_DAY × DAYS two-hour events on whole hours from half a day ago, spread over the hours as
 * `npm run bench` spreads its own (a stride of 7,919 hours): about one in twelve runs past
 * midnight, so a month grid lists it in two cells, as multi-day events are (55 §4).
 */
async function seedEvents(base: string, linked: Linked): Promise<string> {
  const from = Date.now() - 12 * HOUR;
  const wall = (millis: number) => new Date(millis).toISOString().slice(0, 19).replace('T', ' ');
  const of = (list: number[], index: number, stride: number) => list[(index * stride) % list.length];
  let next = 0;
  const { ids } = await post(`${base}${NS}/events`, 16, PER_DAY * DAYS, () => {
    const i = next++;
    const begins = from + ((i * 7919) % (DAYS * 24)) * HOUR;
    return {
      title: `Bench event ${i}`, status: 'publish', start_date: wall(begins), end_date: wall(begins + 2 * HOUR),
      description: `<p>Event number ${i} with a <strong>short</strong> description.</p>`, cost: i % 3 === 0 ? '0' : `${10 + (i % 20)}$`, featured: i % 10 === 0,
      venue: of(linked.venues, i, 1), organizer: [of(linked.organizers, i, 3)],
      categories: [...new Set([of(linked.categories, i, 1), of(linked.categories, i, 7)])], tags: [...new Set([of(linked.tags, i, 1), of(linked.tags, i, 11)])],
    };
  });
  return (await send(base, 'GET', `/events/${ids[0]}`, undefined, 200)).url;
}

/** The bytes a browser receives (it accepts brotli), as sent; fetch would decode them. */
function sentToBrowsers(url: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': 'gzip, deflate, br' } }, (response) => {
      if (response.headers['content-encoding'] !== 'br') reject(new Error(`${url}: sent ${response.headers['content-encoding'] ?? 'uncompressed'} to a browser`));
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(Buffer.concat(chunks)));
    }).on('error', reject);
  });
}

/** The month page's JSON-LD block: its bytes and how many events it describes. */
function jsonLdOf(html: string): { bytes: number; events: number } {
  const block = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1] ?? '[]';
  return { bytes: Buffer.byteLength(block), events: (JSON.parse(block) as unknown[]).length };
}

async function main(): Promise<void> {
  buildBundle();
  const { base } = await startService(`sqlite:${join(workDir, 'pages.db')}`);
  const eventUrl = await seedEvents(base, await seedLinked(base));
  const next = new Date();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const month = `/events/${next.toISOString().slice(0, 7)}/`;
  console.log(`bench:pages: ${PER_DAY} events a day over ${DAYS} days, ${CONNECTIONS} connections, ${DURATION} s per page in ${SLICES} slices, ${cpus().length} cores, load average ${loadavg().map((n) => n.toFixed(1)).join(' ')}`);
  console.log('| page | bytes (JSON-LD bytes, events described) | sent to a browser (brotli) | service req/s | p99 ms | bare req/s | ratio |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  let monthSent: { bytes: Buffer; type: string } | undefined;
  for (const [name, path] of [['month', month], ['week', '/events/week/'], ['list', '/events/list/'], ['single event', new URL(eventUrl).pathname]]) {
    const response = await fetch(base + path);
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    const ld = jsonLdOf(body.toString());
    const sent = await sentToBrowsers(base + path);
    if (path === month) monthSent = { bytes: sent, type: response.headers.get('content-type')! };
    await measure(base + path, 2); // warm-up, not measured
    const { service: page, bare: yardstick } = await measureAgainstBare(base + path, body, response.headers.get('content-type')!);
    console.log(`| ${name} (\`${path}\`) | ${body.length} (${ld.bytes}, ${ld.events}) | ${sent.length} | ${page.requestsPerSecond} | ${page.p99Ms} | ${yardstick.requestsPerSecond} | ${ratio(page.requestsPerSecond, yardstick.requestsPerSecond)} % |`);
  }
  // What browsers load: the month asked for in brotli, against a bare server sending the same compressed bytes.
  const { service: page, bare: yardstick } = await measureAgainstBare(base + month, monthSent!.bytes, monthSent!.type, 'br');
  console.log(`| month, brotli (\`${month}\`) | — | ${monthSent!.bytes.length} | ${page.requestsPerSecond} | ${page.p99Ms} | ${yardstick.requestsPerSecond} | ${ratio(page.requestsPerSecond, yardstick.requestsPerSecond)} % |`);
  console.log(`load average at the end ${loadavg().map((n) => n.toFixed(1)).join(' ')}`);
}

runBench(main);
