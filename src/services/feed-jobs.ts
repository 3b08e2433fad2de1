import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../storage/sql-helpers.ts';
import type { Clock } from '../domain/dates/clock.ts';
import { formatWall } from '../domain/dates/datetime-format.ts';
import { recordChange } from '../storage/repositories/changes-repository.ts';
import type { Database, EventRow } from '../storage/schema.ts';
import { inTransaction } from '../storage/transactions.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** Advisory lock keys of the two jobs (any instance runs them, one at a time). */
const PRUNE_LOCK = 80_308_001;
const PUBLISH_LOCK = 80_308_002;

/** On PostgreSQL, whether this transaction got the job's lock (another instance is running it otherwise). */
async function tryJobLock(trx: Kysely<Database>, key: number): Promise<boolean> {
  if (!isPostgres(trx)) return true;
  const row = await sql<{ got: boolean }>`select pg_try_advisory_xact_lock(${key}) as got`.execute(trx);
  return row.rows[0].got;
}

/**
 * 80 §3.8: deletes entries older than the retention and records the newest deleted position in
 * `feed_meta`, so cursors before it answer 410 `expired`. On PostgreSQL only entries below the
 * snapshot horizon are candidates (a transaction still open is never cut in two).
 */
export async function pruneChanges(db: Kysely<Database>, retentionDays: number, now: Date): Promise<number> {
  const cutoff = formatWall(new Date(now.getTime() - retentionDays * DAY_MS));
  return inTransaction(db, async (trx) => {
    if (!(await tryJobLock(trx, PRUNE_LOCK))) return 0;
    if (isPostgres(trx)) {
      // By the columns, not the text output columns of the same names ("9" would come after "10").
      const last = (await sql<{ txid: string; seq: string }>`select txid::text as txid, seq::text as seq from changes
        where at < ${cutoff} and txid < pg_snapshot_xmin(pg_current_snapshot()) order by changes.txid desc, changes.seq desc limit 1`.execute(trx)).rows[0];
      if (last === undefined) return 0;
      const deleted = await sql`delete from changes where (txid, seq) <= (${last.txid}::xid8, ${last.seq}::bigint)`.execute(trx);
      await trx.updateTable('feed_meta').set({ oldest_txid: last.txid, oldest_seq: last.seq }).where('id', '=', 1).execute();
      return Number(deleted.numAffectedRows ?? 0);
    }
    const last = await trx.selectFrom('changes').select('seq').where('at', '<', cutoff).orderBy('seq', 'desc').executeTakeFirst();
    if (last === undefined) return 0;
    const deleted = await trx.deleteFrom('changes').where('seq', '<=', last.seq).executeTakeFirst();
    await trx.updateTable('feed_meta').set({ oldest_seq: last.seq }).where('id', '=', 1).execute();
    return Number(deleted.numDeletedRows);
  });
}

/**
 * 80 §3.3: a scheduled record becomes published when its date passes, with no write (40 §6.1);
 * this job gives each such record an `update` entry dated at its publication, for every record
 * whose date passed since the previous run.
 */
export async function recordScheduledPublications(db: Kysely<Database>, now: Date): Promise<number> {
  const nowUtc = formatWall(now);
  return inTransaction(db, async (trx) => {
    if (!(await tryJobLock(trx, PUBLISH_LOCK))) return 0;
    const { published_through: since } = await trx.selectFrom('feed_meta').select('published_through').where('id', '=', 1).executeTakeFirstOrThrow();
    if (since >= nowUtc) return 0;
    let count = 0;
    for (const [table, kind] of [['events', 'event'], ['venues', 'venue'], ['organizers', 'organizer']] as const) {
      const rows = await trx.selectFrom(table).selectAll().where('status', '=', 'future').where('date_utc', '>', since).where('date_utc', '<=', nowUtc).execute();
      for (const row of rows) {
        const event = kind === 'event' ? (row as unknown as EventRow) : undefined;
        const state = { status: row.status, author: row.author, password: row.password !== '' ? 1 : 0, hidden: event?.hide_from_listings ?? null, date: row.date_utc };
        await recordChange(trx, {
          kind, record_id: row.id, op: 'update', at: row.date_utc,
          post_parent: event?.post_parent ?? 0, is_master: event?.is_series_master ?? 0,
          before_status: state.status, after_status: state.status, before_author: state.author, after_author: state.author,
          before_password: state.password, after_password: state.password, before_hidden: state.hidden, after_hidden: state.hidden,
          before_date_utc: state.date, after_date_utc: state.date,
        });
        count++;
      }
    }
    await trx.updateTable('feed_meta').set({ published_through: nowUtc }).where('id', '=', 1).execute();
    return count;
  });
}

/** `calendar changes reset` (80 §3.8): a new feed epoch after restoring a backup; every old cursor answers 410 `reset`. */
export async function resetFeed(db: Kysely<Database>): Promise<string> {
  const epoch = randomUUID();
  await db.updateTable('feed_meta').set({ epoch }).where('id', '=', 1).execute();
  return epoch;
}

/** The minute timer of every instance: scheduled publications, then pruning. Returns its stop function. */
export function startFeedJobs(db: Kysely<Database>, retentionDays: number, clock: Clock, onError: (error: unknown) => void): () => void {
  const run = async () => {
    try {
      await recordScheduledPublications(db, clock());
      await pruneChanges(db, retentionDays, clock());
    } catch (error) {
      onError(error);
    }
  };
  const timer = setInterval(() => void run(), MINUTE_MS);
  timer.unref();
  return () => clearInterval(timer);
}
