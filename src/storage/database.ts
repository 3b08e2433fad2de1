import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, sql } from 'kysely';
import pg from 'pg';
import { postgresEpochs, sqliteEpochs, type CacheEpochs } from './cache-epochs.ts';
import { migrationProvider } from './migrations/index.ts';
import { PortablePostgresDialect, PortableSqliteDialect } from './portable-parameters.ts';
import { cachingStatements } from './statement-cache.ts';
import { prepareRepeatedStatements } from './prepared-statements.ts';
import type { Database } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Storage {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  /** What read caches are keyed by: changes whenever any write commits (cache-epochs.ts). */
  readonly epochs: CacheEpochs;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Limits on each PostgreSQL session of the pool that serves the service (docs/postgres-limits.md),
 * in milliseconds, 0 = none: a statement that runs away, or a transaction left open, would hold
 * back the change feed's horizon and every webhook start position for as long as it lasts.
 */
export interface SessionLimits {
  statementTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
}

/** Operator commands (imports can hold one transaction for long) and the migrations. */
export const NO_SESSION_LIMITS: SessionLimits = { statementTimeoutMs: 0, idleInTransactionTimeoutMs: 0 };

export class DatabaseUrlError extends Error {}

interface ParsedUrl {
  dialect: Dialect;
  /** SQLite file path or ':memory:'. */
  path?: string;
  connectionString?: string;
  /** PostgreSQL schema to create and use (our `?schema=` extension, used by tests and CI). */
  schema?: string;
}

export function parseDatabaseUrl(url: string): ParsedUrl {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (path === '') throw new DatabaseUrlError('DATABASE_URL "sqlite:" needs a path or :memory:');
    return { dialect: 'sqlite', path };
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const parsed = new URL(url);
    const schema = parsed.searchParams.get('schema') ?? undefined;
    if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
      throw new DatabaseUrlError('the schema parameter must be a lower-case SQL identifier');
    }
    parsed.searchParams.delete('schema');
    return { dialect: 'postgres', connectionString: parsed.toString(), schema };
  }
  throw new DatabaseUrlError(`DATABASE_URL must start with sqlite: or postgres://, got "${url}"`);
}

/** The SQL math functions the location search uses (70-geo §4.4). */
const MATH_FUNCTIONS: Record<string, (x: number) => number> = { sin: Math.sin, cos: Math.cos, asin: Math.asin, sqrt: Math.sqrt };

/**
 * better-sqlite3 builds SQLite with its math functions; a SQLite linked without them gets the
 * same functions from JavaScript (deterministic, so the planner may fold constant calls), with
 * SQLite's own NULL for an argument outside the domain.
 */
export function ensureMathFunctions(connection: BetterSqlite3.Database): void {
  for (const [name, fn] of Object.entries(MATH_FUNCTIONS)) {
    try {
      connection.prepare(`select ${name}(0.5)`).get();
    } catch {
      connection.function(name, { deterministic: true }, (x: unknown) => {
        if (x === null) return null;
        const value = fn(Number(x));
        return Number.isNaN(value) ? null : value;
      });
    }
  }
}

interface Opened {
  db: Kysely<Database>;
  /** The same database without session limits, for the migrations; closed when they are done. */
  openUnlimited?(): Kysely<Database>;
  openEpochs(): Promise<CacheEpochs>;
}

function openSqlite(path: string): Opened {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const connection = new BetterSqlite3(path);
  connection.pragma('journal_mode = WAL');
  // WAL with synchronous=NORMAL survives a killed process (only a power loss can drop the last commits).
  connection.pragma('synchronous = NORMAL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  // Up to 8 MB of pages in process (SQLite's default is 2 MB): a filtered list looks events up by
  // id all over the file, and each page missing from this cache costs a read system call (served
  // from the kernel's page cache). 64 MB held most of a 20,000-event file in the process's own
  // memory, about 35 MB of RSS more than this after a read load (docs/performance.md, Memory).
  connection.pragma('cache_size = -8192');
  // A checkpoint every 10,000 WAL pages (about 40 MB), not SQLite's 1,000: it copies each page
  // once however often it was written since the last one, and a create dirties the same index
  // pages as the creates before it. At 1,000 the checkpoints took 45 % of the time SQL spent on
  // creates (a commit 5.5 ms, 2.9 without them); at 10,000 a commit took 3.1 ms.
  connection.pragma('wal_autocheckpoint = 10000');
  ensureMathFunctions(connection);
  const db = new Kysely<Database>({ dialect: new PortableSqliteDialect({ database: cachingStatements(connection) }) });
  return { db, openEpochs: async () => sqliteEpochs(connection) };
}

async function openPostgres(connectionString: string, schema: string | undefined, limits: SessionLimits): Promise<Opened> {
  if (schema) {
    const setup = new pg.Client({ connectionString });
    await setup.connect();
    try {
      await setup.query(`create schema if not exists "${schema}"`);
    } finally {
      await setup.end();
    }
  }
  // No parallel workers: a request's queries are small, requests already run side by side, and
  // launching workers cost tens of milliseconds per statement, more than the plans they served.
  // No JIT compilation, for the same reason: once a table's statistics lag behind its size, the
  // planner's estimates of a few-row query pass jit_above_cost, and compiling it took 14–30 ms
  // each time (the terms of 15 new events, read in 0.1 ms) — creates slowed from 716/s to 357/s
  // over their first 20,000 events.
  const settings = ['-c max_parallel_workers_per_gather=0', '-c jit=off', ...(schema ? [`-c search_path="${schema}"`] : [])];
  const limited = (sessionLimits: SessionLimits, max: number) => {
    const options = [
      ...settings,
      `-c statement_timeout=${sessionLimits.statementTimeoutMs}`,
      `-c idle_in_transaction_session_timeout=${sessionLimits.idleInTransactionTimeoutMs}`,
    ].join(' ');
    const pool = new pg.Pool({ connectionString, max, options });
    // A client that loses its server must not crash the process: idle in the pool (the next query
    // reconnects) or checked out, as when a limit ends its session (its pending query fails instead).
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    return pool;
  };
  const pool = limited(limits, 10);
  prepareRepeatedStatements(pool);
  const db = new Kysely<Database>({ dialect: new PortablePostgresDialect({ pool }) });
  return {
    db,
    openUnlimited: () => new Kysely<Database>({ dialect: new PortablePostgresDialect({ pool: limited(NO_SESSION_LIMITS, 1) }) }),
    openEpochs: () => postgresEpochs({ connectionString, schema }),
  };
}

/**
 * Opens the database named by DATABASE_URL and brings its schema up to date. `limits` bind the
 * PostgreSQL sessions that serve requests and jobs; migrations run on a session of their own
 * without them, since rewriting a large table may take longer than any request should.
 */
export async function openStorage(url: string, limits: SessionLimits = NO_SESSION_LIMITS): Promise<Storage> {
  const parsed = parseDatabaseUrl(url);
  const opened = parsed.dialect === 'sqlite' ? openSqlite(parsed.path!) : await openPostgres(parsed.connectionString!, parsed.schema, limits);
  const db = opened.db;
  let epochs: CacheEpochs;
  try {
    const migrating = opened.openUnlimited?.() ?? db;
    try {
      await migrate(migrating, parsed.dialect, parsed.schema);
    } finally {
      if (migrating !== db) await migrating.destroy();
    }
    epochs = await opened.openEpochs();
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return {
    db,
    dialect: parsed.dialect,
    epochs,
    async ping() {
      try {
        await sql`select 1`.execute(db);
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await epochs.close();
      await db.destroy();
    },
  };
}

async function migrate(db: Kysely<Database>, dialect: Dialect, schema: string | undefined): Promise<void> {
  // Without a schema name the migrator takes a migration table found in any schema for its own,
  // so databases in sibling schemas (parallel test files) would skip creating theirs.
  const migrator = new Migrator({ db, provider: migrationProvider(dialect), ...(schema ? { migrationTableSchema: schema } : {}) });
  for (let attempt = 1; ; attempt++) {
    const { error } = await migrator.migrateToLatest();
    if (!error) return;
    // The migrator's introspection lists the tables of every schema, and fails when one of them
    // is dropped meanwhile (another app's, a finished test's): nothing was migrated, try again.
    if (attempt < 3 && (error as { code?: unknown }).code === '3F000') continue;
    throw error instanceof Error ? error : new Error(String(error));
  }
}
