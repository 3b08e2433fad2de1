import cluster, { type Worker } from 'node:cluster';
import { createServer } from 'node:net';
import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import { promClient } from '../observability/prom-client.ts';

type MetricJson = MetricObjectWithValues<MetricValue<string>>;
import type { Config } from '../config.ts';
import { ServiceMetrics } from '../observability/metrics.ts';
import { openStorage } from '../storage/database.ts';
import { ensureAdministrator, runService, serviceAddress } from './service.ts';
import { onStopSignals } from './stop-signals.ts';

/** Messages between the primary and its workers. */
type Message =
  | { type: 'calendar:run-jobs' }
  | { type: 'calendar:metrics-request'; id: number }
  | { type: 'calendar:metrics-text'; id: number; text: string }
  | { type: 'calendar:metrics-collect'; id: number }
  | { type: 'calendar:metrics-json'; id: number; json: MetricJson[] };

const FIRST_RESTART_MS = 1000;
const LONGEST_RESTART_MS = 30_000;
/** A worker that lived this long was no crash loop: the next restart waits the first delay again. */
const HEALTHY_MS = 60_000;
const EARLY_DEATHS = 5;

function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * 140 §6.1: the primary migrates and creates the administrator once, forks the workers on one
 * port, names the job runner (SQLite; on PostgreSQL every worker is an instance with its own
 * leases), replaces crashed workers with a growing delay, merges the workers' metrics, and on a
 * signal stops them all.
 */
export async function runPrimary(config: Config): Promise<void> {
  const storage = await openStorage(config.databaseUrl, config.postgresLimits);
  const namesJobRunner = storage.dialect === 'sqlite';
  let announce: (port: number) => void;
  try {
    announce = await ensureAdministrator(storage, config);
  } finally {
    await storage.close();
  }
  const port = config.port === 0 ? await freePort(config.host) : config.port;
  const { AggregatorRegistry, Counter, Gauge, Registry } = promClient();
  const registry = new Registry();
  const liveWorkers = new Gauge({ name: 'calendar_workers', help: 'Live worker processes.', registers: [registry] });
  const restarts = new Counter({ name: 'calendar_worker_restarts_total', help: 'Workers replaced after an unexpected exit.', registers: [registry] });

  const born = new Map<Worker, number>();
  const listening = new Set<Worker>();
  let announced = false;
  let stopping = false;
  let earlyDeaths = 0;
  let restartDelay = FIRST_RESTART_MS;
  let jobRunner: Worker | undefined;
  const exitCodes: number[] = [];

  const nameJobRunner = () => {
    if (!namesJobRunner || stopping || (jobRunner !== undefined && listening.has(jobRunner))) return;
    jobRunner = listening.values().next().value;
    jobRunner?.send({ type: 'calendar:run-jobs' } satisfies Message);
  };

  let collecting = 0;
  const pending = new Map<number, { waiting: Set<Worker>; json: MetricJson[][]; done: (json: MetricJson[][]) => void }>();
  const mergedMetrics = async (): Promise<string> => {
    const id = ++collecting;
    const workers = new Set(listening);
    const json = await new Promise<MetricJson[][]>((resolve) => {
      pending.set(id, { waiting: workers, json: [], done: resolve });
      for (const worker of workers) worker.send({ type: 'calendar:metrics-collect', id } satisfies Message);
      // A worker that dies meanwhile does not hold the scrape.
      setTimeout(() => pending.get(id)?.done(pending.get(id)!.json), 2000).unref();
    });
    pending.delete(id);
    return AggregatorRegistry.aggregate([...json, await registry.getMetricsAsJSON()]).metrics();
  };

  const onMessage = (worker: Worker) => (message: Message) => {
    if (message.type === 'calendar:metrics-request') {
      void mergedMetrics().then((text) => worker.isConnected() && worker.send({ type: 'calendar:metrics-text', id: message.id, text } satisfies Message));
    } else if (message.type === 'calendar:metrics-json') {
      const gathering = pending.get(message.id);
      if (gathering === undefined) return;
      gathering.json.push(message.json);
      gathering.waiting.delete(worker);
      if (gathering.waiting.size === 0) gathering.done(gathering.json);
    }
  };

  const fork = () => {
    const worker = cluster.fork({ PORT: String(port) });
    born.set(worker, Date.now());
    worker.on('message', onMessage(worker));
    worker.on('listening', () => {
      listening.add(worker);
      liveWorkers.set(listening.size);
      earlyDeaths = 0;
      nameJobRunner();
      if (!announced && listening.size === config.workers) {
        announced = true;
        process.stdout.write(`Calendar service listening on ${serviceAddress(config, port)} (${config.workers} workers)\n`);
        announce(port);
      }
    });
  };

  cluster.on('exit', (worker, code) => {
    const listened = listening.delete(worker);
    liveWorkers.set(listening.size);
    if (stopping) {
      exitCodes.push(code ?? 1);
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCodes.every((exit) => exit === 0) ? 0 : 1);
      return;
    }
    if (worker === jobRunner) jobRunner = undefined;
    nameJobRunner();
    earlyDeaths = listened ? 0 : earlyDeaths + 1;
    if (earlyDeaths >= EARLY_DEATHS) {
      process.stderr.write(`calendar: cannot start: ${EARLY_DEATHS} workers in a row exited (the last with code ${code}) before listening\n`);
      stopping = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGKILL');
      process.exit(1);
    }
    if (Date.now() - (born.get(worker) ?? 0) >= HEALTHY_MS) restartDelay = FIRST_RESTART_MS;
    born.delete(worker);
    restarts.inc();
    setTimeout(() => stopping || fork(), restartDelay);
    restartDelay = Math.min(restartDelay * 2, LONGEST_RESTART_MS);
  });

  onStopSignals(
    () => {
      stopping = true;
      const workers = Object.values(cluster.workers ?? {});
      if (workers.length === 0) process.exit(0);
      for (const worker of workers) worker?.process.kill('SIGTERM');
      setTimeout(() => {
        for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
        process.exit(1);
      }, config.shutdownGraceMs + 5000).unref();
    },
    (code) => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      process.exit(code);
    },
  );
  for (let i = 0; i < config.workers; i++) fork();
}

/** One worker: the service, its jobs once the primary names it (SQLite) or at once (PostgreSQL). */
export async function runWorker(config: Config): Promise<void> {
  const metrics = config.metrics.enabled ? new ServiceMetrics() : undefined;
  let runJobs: () => void = () => {};
  const jobsNamed = new Promise<void>((resolve) => (runJobs = resolve));
  if (!config.databaseUrl.startsWith('sqlite:')) runJobs();
  let asked = 0;
  const answers = new Map<number, (text: string) => void>();
  process.on('message', (message: Message) => {
    if (message.type === 'calendar:run-jobs') runJobs();
    else if (message.type === 'calendar:metrics-text') answers.get(message.id)?.(message.text);
    else if (message.type === 'calendar:metrics-collect' && metrics) {
      void metrics.registry.getMetricsAsJSON().then((json) => process.send?.({ type: 'calendar:metrics-json', id: message.id, json } satisfies Message));
    }
  });
  const exposition = () =>
    new Promise<string>((resolve) => {
      const id = ++asked;
      answers.set(id, (text) => {
        answers.delete(id);
        resolve(text);
      });
      process.send?.({ type: 'calendar:metrics-request', id } satisfies Message);
    });
  await runService(config, { mode: 'worker', runJobs: jobsNamed, metrics, exposition });
}
