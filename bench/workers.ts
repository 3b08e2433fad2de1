import { databaseServerCpuSeconds, treeCpuSeconds } from './cpu.ts';
import { combined, inTurns, load, measure, startService, stop, type Measure, type Started } from './harness.ts';

/**
 * Cached reads with CALENDAR_WORKERS=1 and =2 (140 §6), for `npm run bench`: the seeded process
 * (one worker) and a second service with two workers on the same database are loaded in turns
 * (harness `inTurns`), so that the VM's drift falls on both, and their CPU time per 10,000
 * requests is read from /proc: the primary's and its workers' user + system time (not the
 * PostgreSQL server's, which answers the cache listener's round trips before cached reads), and
 * the load generator's own (this process), which competes with the workers on a small machine
 * (/proc readings: `bench/cpu.ts`).
 */

/** Creates on one service: their rate and where their CPU went, per create. */
export interface CreateCost {
  workers: number;
  perSecond: number;
  serviceMs: number;
  databaseMs: number;
  loaderMs: number;
  /** CPU of the three together over the wall time: how many of the machine's cores were busy. */
  coresBusy: number;
}

/** `create` (creates through `service`, `count` of them) with the CPU of the service, its database server and this process. */
export async function createCost(service: Started, workers: number, databaseUrl: string, count: number, create: (base: string) => Promise<number>): Promise<CreateCost> {
  const before = { service: treeCpuSeconds(service.child.pid!), database: databaseServerCpuSeconds(databaseUrl), loader: process.cpuUsage(), wall: performance.now() };
  const perSecond = await create(service.base);
  const loader = process.cpuUsage(before.loader);
  const spent = {
    service: treeCpuSeconds(service.child.pid!) - before.service,
    database: databaseServerCpuSeconds(databaseUrl) - before.database,
    loader: (loader.user + loader.system) / 1e6,
  };
  const perCreate = (seconds: number) => Math.round((seconds / count) * 1e5) / 100;
  return {
    workers,
    perSecond: Math.round(perSecond),
    serviceMs: perCreate(spent.service),
    databaseMs: perCreate(spent.database),
    loaderMs: perCreate(spent.loader),
    coresBusy: Math.round(((spent.service + spent.database + spent.loader) / ((performance.now() - before.wall) / 1000)) * 100) / 100,
  };
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

/** One route with one worker count: throughput, and CPU seconds per 10,000 requests. */
export interface WorkerRow {
  route: string;
  workers: number;
  measure: Measure;
  serviceCpuPer10k: number;
  loaderCpuPer10k: number;
}

function row(route: string, workers: number, slices: Slice[]): WorkerRow {
  const requests = slices.reduce((sum, { requests }) => sum + requests, 0);
  const per10k = (seconds: number) => Math.round((seconds / requests) * 10_000 * 100) / 100;
  return {
    route, workers,
    measure: combined(slices),
    serviceCpuPer10k: per10k(slices.reduce((sum, { serviceCpuSeconds }) => sum + serviceCpuSeconds, 0)),
    loaderCpuPer10k: per10k(slices.reduce((sum, { loaderCpuSeconds }) => sum + loaderCpuSeconds, 0)),
  };
}

/**
 * `routes` read from `single` (a service started with one worker, the default) and from a service
 * with two workers started on the same database for the comparison: per route, the one-worker row
 * then the two-worker row. Then `count` creates through each (`create`), one after the other.
 */
export async function compareWorkers(
  databaseUrl: string,
  single: Started,
  routes: ReadonlyArray<readonly [string, string]>,
  count: number,
  create: (base: string) => Promise<number>,
): Promise<{ reads: WorkerRow[]; creates: CreateCost[] }> {
  const double = await startService(databaseUrl, { CALENDAR_WORKERS: '2' });
  try {
    const rows: WorkerRow[] = [];
    for (const [route, path] of routes) {
      // Warm-up, not measured: the JIT, and each worker's cache (connections land on every worker).
      for (const service of [single, double]) await measure(`${service.base}${path}`, 2);
      const [one, two] = await inTurns((seconds) => slice(single, `${single.base}${path}`, seconds), (seconds) => slice(double, `${double.base}${path}`, seconds));
      rows.push(row(route, 1, one), row(route, 2, two));
    }
    const creates = [await createCost(single, 1, databaseUrl, count, create), await createCost(double, 2, databaseUrl, count, create)];
    return { reads: rows, creates };
  } finally {
    await stop(double.child);
  }
}
