import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { ConfigError, type Config } from '../config.ts';
import { systemClock } from '../domain/dates/clock.ts';
import { InFlightRequests } from '../http/in-flight.ts';
import type { Lifecycle } from '../http/routes/health.ts';
import { ServiceMetrics } from '../observability/metrics.ts';
import { UsersService } from '../services/users-service.ts';
import { signinServices } from '../services/signin/signin-services.ts';
import { generateSigninPassword } from '../domain/signin/tokens.ts';
import { openStorage, parseDatabaseUrl, type Storage } from '../storage/database.ts';
import { holdServiceLock, type HeldLock } from '../storage/service-lock.ts';
import { startJobs } from './jobs.ts';
import { onStopSignals } from './stop-signals.ts';

export interface ServiceOptions {
  /**
   * `single`: the whole service in this process. `worker`: one of CALENDAR_WORKERS (140 §6): the
   * primary has migrated and created the administrator and prints the start line; periodic jobs
   * run when `runJobs` resolves (SQLite: the worker the primary names; PostgreSQL: every worker).
   */
  mode: 'single' | 'worker';
  runJobs?: Promise<void>;
  /** This process's metrics when `CALENDAR_METRICS` is on (a worker's are read by the primary too). */
  metrics?: ServiceMetrics;
  /** The `/metrics` text (a worker asks the primary, which merges every worker's). */
  exposition?: () => Promise<string>;
}

/** Address of the start line: `http://HOST:PORT{api}/calendar/events/v1`. */
export function serviceAddress(config: Config, port: number): string {
  return `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}${config.apiPath}/calendar/events/v1`;
}

/**
 * Prints the administrator's generated application password once, on the first start; sets the
 * back office sign-in password (100 §3.2) and returns what to print about it once the port is known.
 */
export async function ensureAdministrator(storage: Storage, config: Config): Promise<(port: number) => void> {
  const users = new UsersService(storage, systemClock);
  const admin = await users.ensureInitialAdmin(config.adminLogin, config.adminPassword);
  if (admin.generatedPassword) {
    process.stdout.write(
      `Created administrator "${config.adminLogin}" with application password: ${admin.generatedPassword}\n` +
        'It is shown only this once; store it now (a new one: calendar users new-password).\n',
    );
  }
  if (!config.backOffice.enabled) return () => {};
  const { signin } = signinServices({ storage, clock: systemClock, config });
  if (admin.created) {
    const user = (await users.findByLogin(config.adminLogin))!;
    const configured = config.backOffice.adminSigninPassword;
    const password = configured ?? generateSigninPassword();
    await signin.setPassword(user, password);
    if (configured !== null) return () => {};
    return (port) => process.stdout.write(`Sign-in password for the back office (${backOfficeAddress(config, port)}): ${password}\n`);
  }
  if (await signin.anyAdministratorCanSignIn()) return () => {};
  return () => process.stdout.write('No administrator can sign in to the back office yet: run calendar users set-password LOGIN\n');
}

/** `http://HOST:PORT{base}/admin/`. */
function backOfficeAddress(config: Config, port: number): string {
  return `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}${config.basePath}/admin/`;
}

/** 140 §3.4: a SQLite file's service lock, held for the life of each serving process (restore waits for none). */
function holdLockOf(databaseUrl: string): HeldLock | null {
  const { dialect, path } = parseDatabaseUrl(databaseUrl);
  if (dialect !== 'sqlite' || path === ':memory:') return null;
  mkdirSync(dirname(path!), { recursive: true });
  const lock = holdServiceLock(path!);
  if (!lock) throw new ConfigError(`a restore of ${path} is in progress`);
  return lock;
}

/**
 * One serving process: database, HTTP, periodic jobs, and the graceful stop of 140 §5 — on the
 * first signal `/readyz` turns 503, the listener closes, requests already received are answered
 * for at most the grace period, unsent webhook claims are released, the database is closed, exit 0.
 */
export async function runService(config: Config, options: ServiceOptions): Promise<void> {
  const lifecycle: Lifecycle = { stopping: false };
  const inFlight = new InFlightRequests();
  const metrics = config.metrics.enabled ? (options.metrics ?? new ServiceMetrics()) : undefined;
  let storage: Storage | undefined;
  let serviceLock: HeldLock | null = null;
  let app: FastifyInstance | undefined;
  let stopJobs: (() => Promise<void>) | undefined;
  const say = (message: string) => (app ? app.log.info(message) : process.stderr.write(`${message}\n`));

  const stop = async () => {
    const stopBegan = performance.now();
    lifecycle.stopping = true;
    if (app) inFlight.closeConnectionsAfterAnswers(app.server);
    say(`stopping: ${inFlight.count} requests in flight`);
    const cut = setTimeout(() => app?.server.closeAllConnections(), config.shutdownGraceMs);
    const graceOver = new Promise<void>((resolve) => setTimeout(resolve, config.shutdownGraceMs).unref());
    try {
      // A send still running when the grace ends keeps its lease (resent after it, same webhook-id).
      await Promise.all([app?.close(), Promise.race([stopJobs?.(), graceOver])]);
    } finally {
      clearTimeout(cut);
      await storage?.close();
      serviceLock?.release();
    }
    say(`stopped after ${Math.round(performance.now() - stopBegan)} ms`);
    process.exit(0);
  };
  // Handlers first: a signal that arrives while starting still closes the database cleanly.
  onStopSignals(() => void stop());

  serviceLock = holdLockOf(config.databaseUrl);
  storage = await openStorage(config.databaseUrl, config.postgresLimits);
  const announce = options.mode === 'single' ? await ensureAdministrator(storage, config) : () => {};
  app = await buildApp({ config, storage, lifecycle, metrics, exposition: options.exposition });
  inFlight.watch(app.server);
  if (lifecycle.stopping) return;
  const logError = (error: unknown, message: string) => app!.log.error({ err: error }, message);
  const logInfo = (fields: object, message: string) => app!.log.info(fields, message);
  const jobsStarted = options.runJobs ?? Promise.resolve();
  void jobsStarted.then(() => {
    if (!lifecycle.stopping && stopJobs === undefined) stopJobs = startJobs({ storage: storage!, config, metrics, logError, logInfo });
  });

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  if (options.mode === 'single') process.stdout.write(`Calendar service listening on ${serviceAddress(config, port)}\n`);
  announce(port);
}
