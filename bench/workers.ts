import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import {
  buildBundle, combined, CONNECTIONS, DURATION, inTurns, load, measure, NS, post, postgresUrl, runBench, SLICES, startService, stop, withPostgresSchema, workDir, type Measure, type Started,
} from './harness.ts';

/**
 * `npm run bench:workers`: cached-read throughput and the service's CPU time per 10,000 requests
 * with CALENDAR_WORKERS=1 and =2 (140 §6), on SQLite and, when DATABASE_URL or BENCH_POSTGRES_URL
 * names a server, PostgreSQL. Both services run the `npm start` bundle on the same seeded
 * database and are loaded in turns (harness `inTurns`), so that the VM's drift falls on both.
 * The CPU is read from /proc: the primary's and its workers' user + system time (not the
 * PostgreSQL server's, which answers the cache listener's round trips before cached reads).
 */
const EVENTS = Number(process.env.BENCH_WORKER_EVENTS ?? 2000);
const WORKER_COUNTS = [1, 2] as const;
const DAY = 86_400_000;
const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** The fields of /proc/PID/stat after the command name, which may itself hold spaces and parentheses. */
function statFields(pid: string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // the process ended while the tree was read
  }
}

/** User + system CPU seconds of `root` and every process below it (the cluster's workers). */
function treeCpuSeconds(root: number): number {
  const parents = new Map<string, string>();
  const ticks = new Map<string, number>();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const fields = statFields(pid);
    if (!fields) continue;
    // After the name: state(0) ppid(1) … utime(11) stime(12).
    parents.set(pid, fields[1]);
    ticks.set(pid, Number(fields[11]) + Number(fields[12]));
  }
  const inTree = new Set([String(root)]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (!inTree.has(pid) && inTree.has(parent)) {
        inTree.add(pid);
        grew = true;
      }
    }
  }
  let total = 0;
  for (const pid of inTree) total += ticks.get(pid) ?? 0;
  return total / TICKS_PER_SECOND;
}

interface Slice extends Measure {
  requests: number;
  serviceCpuSeconds: number;
  loaderCpuSeconds: number;
}

async function slice(service: Started, url: string, seconds: number): Promise<Slice> {
  const serviceBefore = treeCpuSeconds(service.child.pid!);
  const loaderBefore = process.cpuUsage();
  const result = await load(url, seconds);
  const loader = process.cpuUsage(loaderBefore);
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    serviceCpuSeconds: treeCpuSeconds(service.child.pid!) - serviceBefore,
    loaderCpuSeconds: (loader.user + loader.system) / 1e6,
  };
}

interface Row {
  dialect: string;
  route: string;
  workers: number;
  measure: Measure;
  serviceCpuPer10k: number;
  loaderCpuPer10k: number;
}

function row(dialect: string, route: string, workers: number, slices: Slice[]): Row {
  const requests = slices.reduce((sum, { requests }) => sum + requests, 0);
  const per10k = (seconds: number) => Math.round((seconds / requests) * 10_000 * 100) / 100;
  return {
    dialect, route, workers,
    measure: combined(slices),
    serviceCpuPer10k: per10k(slices.reduce((sum, { serviceCpuSeconds }) => sum + serviceCpuSeconds, 0)),
    loaderCpuPer10k: per10k(slices.reduce((sum, { loaderCpuSeconds }) => sum + loaderCpuSeconds, 0)),
  };
}

function wall(millis: number): string {
  return new Date(millis).toISOString().slice(0, 19).replace('T', ' ');
}

/** EVENTS events spread over the default list's window (yesterday .. +24 months): the first one's id. */
async function seed(base: string): Promise<number> {
  const start = Date.now();
  let next = 0;
  const { ids } = await post(`${base}${NS}/events`, 16, EVENTS, () => {
    const begins = start + ((next * 7919) % (700 * 24)) * 3_600_000;
    const i = next++;
    return { title: `Worker bench event ${i}`, status: 'publish', start_date: wall(begins), end_date: wall(begins + 2 * 3_600_000), description: `<p>Event ${i}.</p>`, venue: { venue: `Venue ${i % 20}`, city: 'Aarhus' } };
  });
  return Math.min(...ids);
}

async function benchDatabase(dialect: string, databaseUrl: string): Promise<Row[]> {
  console.log(`bench:workers ${dialect}: seeding ${EVENTS} events through the API`);
  const services: Started[] = [];
  try {
    for (const workers of WORKER_COUNTS) services.push(await startService(databaseUrl, { CALENDAR_WORKERS: String(workers) }));
    const firstId = await seed(services[0].base);
    const rows: Row[] = [];
    for (const [route, path] of [['events (defaults)', `${NS}/events`], ['event by id', `${NS}/events/${firstId}`]]) {
      // Warm-up, not measured: the JIT, and each worker's cache (connections land on every worker).
      for (const service of services) await measure(`${service.base}${path}`, 2);
      const [one, two] = await inTurns((seconds) => slice(services[0], `${services[0].base}${path}`, seconds), (seconds) => slice(services[1], `${services[1].base}${path}`, seconds));
      rows.push(row(dialect, route, WORKER_COUNTS[0], one), row(dialect, route, WORKER_COUNTS[1], two));
    }
    return rows;
  } finally {
    for (const service of services) await stop(service.child);
  }
}

async function main(): Promise<void> {
  buildBundle();
  const cores = availableParallelism();
  console.log(`bench:workers: ${EVENTS} events, ${CONNECTIONS} connections, ${DURATION} s per route and worker count in ${SLICES} slices taken in turns, ${cores} cores (${cpus()[0]?.model ?? 'unknown CPU'})`);
  if (cores <= 2) console.log(`On ${cores} cores the load generator (this process) competes with the workers for the CPU: the 2-worker throughput is a floor, not what 2 cores serve to outside clients.`);
  const rows = await benchDatabase('sqlite', `sqlite:${join(workDir, 'workers.db')}`);
  if (postgresUrl) rows.push(...(await withPostgresSchema(postgresUrl, (url) => benchDatabase('postgres', url))));
  console.log('\n| database | route | workers | req/s | p99 ms | service CPU s per 10,000 req | load generator CPU s per 10,000 req |');
  console.log('|---|---|---:|---:|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.dialect} | ${r.route} | ${r.workers} | ${r.measure.requestsPerSecond} | ${r.measure.p99Ms} | ${r.serviceCpuPer10k} | ${r.loaderCpuPer10k} |`);
}

runBench(main);
