import type BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { ChangeCountJournal, EpochExplanations, TransactionIdJournal, type DescribedWrite, type WriteJournal } from './write-journal.ts';

/** The channel every writing transaction notifies on PostgreSQL (migration 0008). */
export const CHANGES_CHANNEL = 'calendar_changes';

/** The payload prefix of a notification that users or application passwords changed (migration 0015). */
export const CREDENTIALS_PAYLOAD = 'credentials ';

/** How the listening connection names itself to the server (pg_stat_activity). */
export const LISTENER_NAME = 'calendar-cache-listener';

/**
 * The source of read-cache validity: a number that changes whenever any write has committed to
 * the database — by this process or by another one. A cached value may be served while the epoch
 * it was computed under is still the current one. `current()` answers without a query through
 * the query builder; null means changes cannot be observed right now, so nothing may be served
 * from a cache.
 */
export interface CacheEpochs {
  current(): Promise<number | null>;
  /**
   * A number that changes once users or their passwords may have been changed by another process
   * or instance, read without waiting: an accepted credential may be remembered under it (the
   * process's own changes are its own to forget). Null: such changes cannot be observed now.
   */
  credentials(): number | null;
  /**
   * The writes that moved the epoch from `from` to `to`, when this process described every one of
   * them (see `journal`); null when any is unknown.
   */
  writesBetween(from: number, to: number): readonly DescribedWrite[] | null;
  /** Where writers describe their transactions; absent where writes cannot be told apart. */
  readonly journal?: WriteJournal;
  close(): Promise<void>;
}

/**
 * SQLite: `PRAGMA data_version` changes when another connection (the CLI, a second process)
 * commits, but not for this connection's own writes, which `total_changes()` counts. Both are
 * read through prepared statements on the raw handle: microseconds, no query-builder round trip.
 * Reading them while one of our transactions is open is harmless: the value computed afterwards
 * waits for the connection and is then at least as new as the epoch.
 *
 * `data_version` takes the WAL read lock (about 10 µs, a tenth of a cached answer), so the
 * requests read in one turn of the event loop share one reading: their bytes had arrived before
 * the turn began, hence after every commit acknowledged to their senders. `total_changes()`
 * (under 0.1 µs) is read every time, so this process's own writes are seen at once. Writers may
 * describe their transactions (write-journal.ts): an epoch reached through described writes
 * alone says which, and caches keep what those cannot have changed.
 */
export function sqliteEpochs(connection: BetterSqlite3.Database): CacheEpochs {
  const dataVersion = connection.prepare('PRAGMA data_version').pluck();
  const totalChanges = connection.prepare('select total_changes()').pluck();
  const journal = new ChangeCountJournal(() => Number(totalChanges.get()), () => connection.inTransaction);
  const explanations = new EpochExplanations();
  let epoch = 0;
  let seenVersion: unknown;
  let seenChanges: number | undefined;
  let versionThisTurn: unknown;
  const forgetVersion = () => {
    versionThisTurn = undefined;
  };
  const versionNow = () => {
    if (versionThisTurn === undefined) {
      versionThisTurn = dataVersion.get();
      setImmediate(forgetVersion);
    }
    return versionThisTurn;
  };
  return {
    async current() {
      if (!connection.open) return null;
      versionNow();
      const changes = journal.visibleCount();
      if (versionThisTurn !== seenVersion || changes !== seenChanges) {
        const ownWritesOnly = seenChanges !== undefined && versionThisTurn === seenVersion;
        const previous = seenChanges;
        seenVersion = versionThisTurn;
        seenChanges = changes;
        epoch++;
        explanations.record(epoch, ownWritesOnly ? journal.writesFrom(previous!, changes) : null);
      }
      return epoch;
    },
    writesBetween: (from, to) => explanations.writesBetween(from, to),
    journal,
    // Any commit by another connection: those are rare (the CLI, an importer), so no finer signal is needed.
    credentials() {
      return connection.open ? Number(versionNow()) : null;
    },
    async close() {},
  };
}

export interface PostgresEpochOptions {
  connectionString: string;
  /** The schema whose tables this instance serves; notifications about other schemas are ignored. */
  schema: string | undefined;
  /** Wait before reconnecting a lost listener. */
  retryMs?: number;
}

/**
 * PostgreSQL: every writing transaction notifies CHANGES_CHANNEL (delivered at commit, migration
 * 0008), and one dedicated connection LISTENs and moves the epoch. For read-after-write across
 * instances, a read first waits for a round trip on that connection that started after the read
 * arrived: the server delivers every notification committed before that `select 1` ahead of its
 * result. Concurrent reads share one round trip. While the listener is down every read is a miss.
 */
export async function postgresEpochs(options: PostgresEpochOptions): Promise<CacheEpochs> {
  const retryMs = options.retryMs ?? 1000;
  let client: pg.Client | null = null;
  let schema = '';
  let epoch = 0;
  let credentialsEpoch = 0;
  const journal = new TransactionIdJournal();
  const explanations = new EpochExplanations();
  /** A new epoch: what began it, when this process described it. */
  const advance = (write?: DescribedWrite) => explanations.record(++epoch, write === undefined ? null : [write]);
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  /** The round trip being answered, and the one queued behind it (sent once it finishes). */
  let inFlight: Promise<void> | null = null;
  let queued: Promise<void> | null = null;

  const lost = (lostClient: pg.Client) => {
    if (client !== lostClient) return;
    client = null;
    inFlight = null;
    queued = null;
    advance();
    credentialsEpoch++;
    lostClient.end().catch(() => {});
    if (!closed) retry = setTimeout(connect, retryMs).unref();
  };

  async function connect(): Promise<void> {
    const candidate = new pg.Client({
      connectionString: options.connectionString,
      application_name: LISTENER_NAME,
      ...(options.schema ? { options: `-c search_path="${options.schema}"` } : {}),
    });
    candidate.on('error', () => lost(candidate));
    candidate.on('end', () => lost(candidate));
    candidate.on('notification', (message) => {
      if (message.channel !== CHANGES_CHANNEL) return;
      const payload = message.payload ?? '';
      if (payload === CREDENTIALS_PAYLOAD + schema) credentialsEpoch++;
      // Each writing transaction also sends `<schema> <transaction id>` (migration 0016), which is what counts here.
      else if (payload.startsWith(`${schema} `)) advance(journal.take(payload.slice(schema.length + 1)));
    });
    try {
      await candidate.connect();
      const row = await candidate.query<{ schema: string }>('select current_schema() as schema');
      schema = row.rows[0].schema;
      await candidate.query(`listen ${CHANGES_CHANNEL}`);
    } catch {
      candidate.removeAllListeners('end');
      candidate.end().catch(() => {});
      if (!closed) retry = setTimeout(connect, retryMs).unref();
      return;
    }
    if (closed) {
      await candidate.end().catch(() => {});
      return;
    }
    // Whatever was written while no listener was connected went unnoticed.
    advance();
    credentialsEpoch++;
    client = candidate;
  }

  const roundTrip = (listener: pg.Client): Promise<void> => {
    const trip: Promise<void> = listener.query('select 1').then(
      () => {},
      () => lost(listener),
    );
    inFlight = trip;
    void trip.then(() => {
      if (inFlight === trip) inFlight = null;
    });
    return trip;
  };

  /** Resolves once a round trip that started after this call has been answered. */
  const barrier = (listener: pg.Client): Promise<void> => {
    if (inFlight === null) return roundTrip(listener);
    // The trip in flight may have been sent before this read arrived: wait for the next one.
    queued ??= inFlight.then(() => {
      queued = null;
      return client === listener ? roundTrip(listener) : undefined;
    });
    return queued;
  };

  await connect();
  return {
    async current() {
      const listener = client;
      if (listener === null) return null;
      await barrier(listener);
      // Only the epoch after the barrier covers every write committed before the read arrived.
      return client === listener ? epoch : null;
    },
    credentials() {
      return client === null ? null : credentialsEpoch;
    },
    writesBetween: (from, to) => explanations.writesBetween(from, to),
    journal,
    async close() {
      closed = true;
      clearTimeout(retry);
      const listener = client;
      client = null;
      if (listener) {
        listener.removeAllListeners('end');
        await listener.end().catch(() => {});
      }
    },
  };
}
