import { after, before } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { DestinationStream } from 'pino';
import type { SideloadNetwork } from '../../src/services/media/image-fetch.ts';
import type { ServiceMetrics } from '../../src/observability/metrics.ts';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { ROLES, type Role } from '../../src/domain/auth/capabilities.ts';
import type { Clock } from '../../src/domain/dates/clock.ts';
import { UsersService } from '../../src/services/users-service.ts';
import { openStorage, type Storage } from '../../src/storage/database.ts';
import { connectToSchema, freshDatabase, type DialectName } from './databases.ts';

export type Caller = Role | 'visitor';

export interface TestUser {
  id: number;
  login: string;
  password: string;
}

export interface TestResponse<T = any> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface RequestOptions {
  as?: Caller;
  /** JSON body (object) or a raw string with its own content type. */
  body?: unknown;
  headers?: Record<string, string>;
  remoteAddress?: string;
}

export interface TestApp {
  app: FastifyInstance;
  storage: Storage;
  config: Config;
  users: Record<Role, TestUser>;
  /** A second user per role, for "others' records" checks. */
  others: Record<Role, TestUser>;
  request<T = any>(method: string, url: string, options?: RequestOptions): Promise<TestResponse<T>>;
  authHeader(user: TestUser): string;
  /**
   * Statements the app has run against the database so far (to show that lists load in batches),
   * once those still running have ended: a first read after a write answers without waiting for
   * the query of the next scheduled publication it started (read-cache.ts), which is its cost too.
   */
  queryCount(): Promise<number>;
  /** The DATABASE_URL the app runs on (to start further instances on it). */
  databaseUrl: string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  clock?: Clock;
  /** Receives the app's log lines (set LOG_LEVEL in env); without it the app does not log. */
  loggerStream?: DestinationStream;
  /** A second instance on this app's database (its users included); the database stays with that app. */
  sharing?: TestApp;
  /**
   * Requests go over a real listening socket (what ships: replayed answers are only served there)
   * instead of Fastify's injection.
   */
  overHttp?: boolean;
  /** Where image sideloads may connect (a local test server). */
  sideloadNetwork?: SideloadNetwork;
  /** The app's metrics (with CALENDAR_METRICS=on), for tests that also hand them to the jobs. */
  metrics?: ServiceMetrics;
}

export const NS = '/calendar/events/v1';

/** A real app on a fresh database of the given dialect, with one signed-in user per role (two, in fact). */
export async function startTestApp(dialect: DialectName, options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.sharing === undefined ? await freshDatabase(dialect) : { url: options.sharing.databaseUrl, dispose: async () => {} };
  const config = loadConfig({ DATABASE_URL: database.url, CALENDAR_PUBLIC_URL: 'http://calendar.test', LOG_LEVEL: 'silent', ...options.env });
  const opened = await openStorage(config.databaseUrl, config.postgresLimits);
  let queries = 0;
  const storage: Storage = {
    ...opened,
    db: opened.db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        queries++;
        return args.result;
      },
    }),
  };
  // Statements sent outside a transaction, until they end (a transaction's are awaited by its writer).
  const running = new Set<Promise<unknown>>();
  const executor = storage.db.getExecutor();
  const execute = executor.executeQuery.bind(executor);
  executor.executeQuery = (query) => {
    const result = execute(query);
    const settled = result.then(() => {}, () => {});
    running.add(settled);
    void settled.then(() => running.delete(settled));
    return result;
  };
  const clock = options.clock;
  const app = await buildApp({ config, storage, clock, logger: options.loggerStream !== undefined, loggerStream: options.loggerStream, sideloadNetwork: options.sideloadNetwork, metrics: options.metrics });
  const service = new UsersService(storage, clock ?? (() => new Date()));
  const users = options.sharing?.users ?? ({} as Record<Role, TestUser>);
  const others = options.sharing?.others ?? ({} as Record<Role, TestUser>);
  for (const role of options.sharing === undefined ? ROLES : []) {
    for (const [target, login] of [[users, role], [others, `${role}2`]] as const) {
      const created = await service.create({ login, role });
      target[role] = { id: created.user.id, login, password: created.password };
    }
  }
  const base = options.overHttp ? await app.listen({ port: 0, host: '127.0.0.1' }) : undefined;
  const send = async (method: string, url: string, headers: Record<string, string>, payload: string | undefined, remoteAddress?: string) => {
    if (base === undefined) {
      const response = await app.inject({ method: method as any, url, headers, payload, remoteAddress });
      return { status: response.statusCode, headers: response.headers as Record<string, string | string[] | undefined>, text: response.body };
    }
    const response = await fetch(base + url, { method, headers, body: payload, redirect: 'manual' });
    // Set-Cookie lines stay apart (as injection gives them): fromEntries would keep only the last.
    const cookies = response.headers.getSetCookie();
    const answerHeaders: Record<string, string | string[]> = { ...Object.fromEntries(response.headers), ...(cookies.length > 0 ? { 'set-cookie': cookies } : {}) };
    return { status: response.status, headers: answerHeaders, text: await response.text() };
  };
  const authHeader = (user: TestUser) => `Basic ${Buffer.from(`${user.login}:${user.password}`).toString('base64')}`;
  return {
    app,
    storage,
    config,
    users,
    others,
    authHeader,
    async queryCount() {
      while (running.size > 0) await Promise.all(running);
      return queries;
    },
    databaseUrl: database.url,
    async request(method, url, requestOptions = {}) {
      const headers: Record<string, string> = { ...requestOptions.headers };
      const caller = requestOptions.as ?? 'visitor';
      if (caller !== 'visitor' && headers.authorization === undefined) headers.authorization = authHeader(users[caller]);
      let payload: string | undefined;
      if (requestOptions.body !== undefined) {
        if (typeof requestOptions.body === 'string') payload = requestOptions.body;
        else {
          payload = JSON.stringify(requestOptions.body);
          headers['content-type'] ??= 'application/json';
        }
      }
      const response = await send(method, url, headers, payload, requestOptions.remoteAddress);
      let body: unknown = undefined;
      try {
        body = response.text === '' ? undefined : JSON.parse(response.text);
      } catch {
        body = undefined;
      }
      return { ...response, body: body as any };
    },
    async close() {
      await app.close();
      await storage.close();
      await database.dispose();
    },
  };
}

/**
 * For the suite it is called in: a PostgreSQL test app and a connection of its own to the app's
 * schema (for plans, settings and data the API does not reach), opened before the suite's tests
 * and closed after them.
 */
export function postgresAppWithClient(): { t: TestApp; client: pg.Client } {
  const suite = {} as { t: TestApp; client: pg.Client };
  before(async () => {
    suite.t = await startTestApp('postgres');
    suite.client = await connectToSchema(suite.t.databaseUrl);
  });
  after(async () => {
    await suite.client.end();
    await suite.t.close();
  });
  return suite;
}
