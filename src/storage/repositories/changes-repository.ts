import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { ChangeKind, ChangeOp, ChangeRow, Database } from '../schema.ts';
import { SQLITE_NUMBER_TRANSACTION } from '../transaction-numbers.ts';
import { isPostgres } from '../sql-helpers.ts';

/**
 * A position in the change log: after the entry (txid, seq) on PostgreSQL, after seq on SQLite
 * (80 §3.5). Both numbers are kept as decimal strings (bigint and xid8 exceed JavaScript's
 * safe integers in principle). `txid` '0' / seq '0' is the position before every entry.
 */
export interface FeedPosition {
  txid: string;
  seq: string;
}

export const FEED_START: FeedPosition = { txid: '0', seq: '0' };

/** An entry as read by the feed, with its own position and, when filtered, the caller's effect. */
export interface ChangeEntry extends ChangeRow {
  position: FeedPosition;
  /** Present when read with a `ChangeFilter`: whether the record is visible to the caller after the write. */
  effect?: 'upsert' | 'remove';
}

/** Which entries a reader is shown (80 §3.4): visibility of the record before and after the write. */
export interface ChangeFilter {
  /** Callers with `edit_posts` list every status but trash (40 §7); others only published records. */
  seesUnpublished: boolean;
  /** Now, UTC `YYYY-MM-DD HH:MM:SS`: scheduled records dated before it read as published. */
  nowUtc: string;
  types?: readonly ChangeKind[];
  /** `include=hidden`: `hide_from_listings` events and series masters count as visible too. */
  unlisted?: boolean;
}

export interface ChangePage {
  entries: ChangeEntry[];
  /** Position after the last entry read, or the head when the log was read to its end. */
  next: FeedPosition;
  hasMore: boolean;
}

/**
 * An entry written explicitly, in the caller's transaction, for a change no row write makes
 * (a scheduled publication whose date passed, 80 §3.3). Every row write of a record already
 * records its entry by trigger (migration 0009), in the same transaction.
 */
export async function recordChange(
  trx: Kysely<Database>,
  change: { kind: ChangeKind; record_id: number; op: ChangeOp; at: string } & Partial<Omit<ChangeRow, 'seq' | 'txid' | 'tx' | 'kind' | 'record_id' | 'op' | 'at'>>,
): Promise<void> {
  if (isPostgres(trx)) {
    await trx.insertInto('changes').values(change as never).execute();
    return;
  }
  await sql.raw(SQLITE_NUMBER_TRANSACTION).execute(trx);
  await trx.insertInto('changes').values({ ...change, tx: sql<number>`(select tx from feed_tx where id = 1)` } as never).execute();
}

/** A row's column read with the `before_`/`after_` prefix. */
function visibleAs(side: 'before' | 'after', filter: ChangeFilter): RawBuilder<SqlBool> {
  const status = sql.ref(`${side}_status`);
  const date = sql.ref(`${side}_date_utc`);
  const hidden = sql.ref(`${side}_hidden`);
  const exists = side === 'before' ? sql`op <> 'create'` : sql`op <> 'delete'`;
  const listed = filter.seesUnpublished
    ? sql`${status} <> 'trash'`
    : sql`(${status} = 'publish' or (${status} = 'future' and ${date} <= ${filter.nowUtc} and ${date} <> '0000-00-00 00:00:00'))`;
  // Terms are always visible while they exist; posts per status, hidden events and series masters only when asked for.
  const shown = filter.unlisted === true ? sql`1 = 1` : sql`coalesce(${hidden}, 0) = 0 and is_master = 0`;
  return sql<SqlBool>`(case when kind in ('category', 'tag') then ${exists}
    else ${status} is not null and ${listed} and ${shown} end)`;
}

/**
 * One page of entries after `after` (80 §3.7), in commit-safe order: on PostgreSQL only entries of
 * transactions below the reader's snapshot horizon (`pg_snapshot_xmin`: every transaction below it
 * has ended) in (txid, seq) order, so an entry of a transaction still open is never jumped over;
 * on SQLite, one writer makes seq order commit order. With a filter, only entries the caller may
 * learn about, each with its effect. Reads in one snapshot (repeatable read), so the head returned
 * when the log is exhausted is consistent with the entries read.
 */
export async function listChangesAfter(db: Kysely<Database>, after: FeedPosition, limit: number, filter?: ChangeFilter): Promise<ChangePage> {
  const postgres = isPostgres(db);
  const read = async (trx: Kysely<Database>): Promise<ChangePage> => {
    const horizon = postgres ? (await sql<{ h: string }>`select pg_snapshot_xmin(pg_current_snapshot())::text as h`.execute(trx)).rows[0].h : undefined;
    let query = trx.selectFrom('changes').selectAll();
    if (postgres) {
      query = query
        .select(sql<string>`txid::text`.as('txid'))
        .where(sql<SqlBool>`txid < ${horizon}::xid8`)
        .where(sql<SqlBool>`(txid, seq) > (${after.txid}::xid8, ${after.seq}::bigint)`)
        .orderBy(sql`changes.txid`)
        .orderBy('changes.seq');
    } else {
      query = query.where('seq', '>', Number(after.seq)).orderBy('seq');
    }
    if (filter !== undefined) {
      if (filter.types !== undefined) query = filter.types.length > 0 ? query.where('kind', 'in', [...filter.types]) : query.where(sql<SqlBool>`1 = 0`);
      query = query
        .select(visibleAs('after', filter).as('visible_after'))
        .where((eb) => eb.or([visibleAs('before', filter), visibleAs('after', filter)] as never));
    }
    const rows = limit === 0 ? [] : (await query.limit(limit + 1).execute()) as (ChangeRow & { visible_after?: unknown })[];
    const hasMore = rows.length > limit;
    const entries = rows.slice(0, limit).map(({ visible_after, ...row }) => ({
      ...row,
      seq: String(row.seq),
      position: { txid: postgres ? String(row.txid) : '0', seq: String(row.seq) },
      ...(filter === undefined ? {} : { effect: truthy(visible_after) ? ('upsert' as const) : ('remove' as const) }),
    }));
    const next = hasMore ? entries[entries.length - 1].position : later(after, await head(trx, postgres, horizon));
    return { entries, next, hasMore };
  };
  if (db.isTransaction) return read(db);
  return postgres ? db.transaction().setIsolationLevel('repeatable read').execute(read) : db.transaction().execute(read);
}

/**
 * The latest `limit` entries the filter lets a reader learn about, newest first (the back office's
 * recent changes, 100 §7.2), each with its effect: the feed's visibility rule (80 §3.4), read
 * backwards. Only committed entries are read, so no horizon is needed. One statement.
 */
export async function listLatestChanges(db: Kysely<Database>, limit: number, filter: ChangeFilter): Promise<ChangeEntry[]> {
  const postgres = isPostgres(db);
  let query = db.selectFrom('changes').selectAll().select(visibleAs('after', filter).as('visible_after'))
    .where((eb) => eb.or([visibleAs('before', filter), visibleAs('after', filter)] as never));
  if (filter.types !== undefined) query = query.where('kind', 'in', [...filter.types]);
  query = postgres ? query.select(sql<string>`txid::text`.as('txid')).orderBy(sql`changes.txid`, 'desc').orderBy('changes.seq', 'desc') : query.orderBy('seq', 'desc');
  const rows = (await query.limit(limit).execute()) as (ChangeRow & { visible_after?: unknown })[];
  return rows.map(({ visible_after, ...row }) => ({
    ...row,
    seq: String(row.seq),
    position: { txid: postgres ? String(row.txid) : '0', seq: String(row.seq) },
    effect: truthy(visible_after) ? ('upsert' as const) : ('remove' as const),
  }));
}

/** The position after every entry a reader may be given now (80 §3.5 `start=now`). */
export async function headPosition(db: Kysely<Database>): Promise<FeedPosition> {
  return (await listChangesAfter(db, FEED_START, 0)).next;
}

async function head(trx: Kysely<Database>, postgres: boolean, horizon: string | undefined): Promise<FeedPosition> {
  if (!postgres) {
    const row = await trx.selectFrom('changes').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst();
    return { txid: '0', seq: String(row?.seq ?? 0) };
  }
  // By the columns: the bare names would order by the text output columns ("9" after "10").
  const row = await sql<{ txid: string; seq: string }>`select txid::text as txid, seq::text as seq from changes
    where txid < ${horizon}::xid8 order by changes.txid desc, changes.seq desc limit 1`.execute(trx);
  return row.rows[0] ?? FEED_START;
}

/** The later of two positions. */
export function later(a: FeedPosition, b: FeedPosition): FeedPosition {
  return comparePositions(a, b) >= 0 ? a : b;
}

export function comparePositions(a: FeedPosition, b: FeedPosition): number {
  const byTxid = compareDecimal(a.txid, b.txid);
  return byTxid !== 0 ? byTxid : compareDecimal(a.seq, b.seq);
}

function compareDecimal(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function truthy(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't';
}

/**
 * The entries the current write transaction has recorded so far (the webhook outbox enqueues
 * them before commit, 80 §4.4 A): PostgreSQL by the transaction's xid, SQLite by the number
 * `inTransaction` gave it.
 */
export async function changesOfThisTransaction(trx: Kysely<Database>): Promise<ChangeRow[]> {
  const query = trx.selectFrom('changes').selectAll().orderBy('seq');
  if (isPostgres(trx)) {
    const rows = await query.select(sql<string>`txid::text`.as('txid')).where(sql<SqlBool>`txid = pg_current_xact_id_if_assigned()`).execute();
    return rows.map((row) => ({ ...row, seq: String(row.seq) }));
  }
  const rows = await query.where(sql<SqlBool>`tx = (select tx from feed_tx where id = 1)`).execute();
  return rows.map((row) => ({ ...row, seq: String(row.seq) }));
}

/** Feed metadata (80 §3.5, §3.8): the epoch cursors carry and the newest pruned position. */
export async function readFeedMeta(db: Kysely<Database>): Promise<{ epoch: string; oldest: FeedPosition; publishedThrough: string }> {
  const row = await db.selectFrom('feed_meta').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
  return { epoch: row.epoch, oldest: { txid: row.oldest_txid, seq: String(row.oldest_seq) }, publishedThrough: row.published_through };
}

/**
 * Deletes the entries dated before `cutoffUtc` and records the newest deleted position in
 * `feed_meta` (80 §3.8). On PostgreSQL only entries below the snapshot horizon are candidates, so
 * a transaction still open is never cut in two. Runs inside the pruning job's transaction.
 */
export async function pruneChangesBefore(trx: Kysely<Database>, cutoffUtc: string): Promise<number> {
  if (isPostgres(trx)) {
    // By the columns, not the text output columns of the same names ("9" would come after "10").
    const last = (await sql<{ txid: string; seq: string }>`select txid::text as txid, seq::text as seq from changes
      where at < ${cutoffUtc} and txid < pg_snapshot_xmin(pg_current_snapshot()) order by changes.txid desc, changes.seq desc limit 1`.execute(trx)).rows[0];
    if (last === undefined) return 0;
    const deleted = await sql`delete from changes where (txid, seq) <= (${last.txid}::xid8, ${last.seq}::bigint)`.execute(trx);
    await trx.updateTable('feed_meta').set({ oldest_txid: last.txid, oldest_seq: last.seq }).where('id', '=', 1).execute();
    return Number(deleted.numAffectedRows ?? 0);
  }
  const last = await trx.selectFrom('changes').select('seq').where('at', '<', cutoffUtc).orderBy('seq', 'desc').executeTakeFirst();
  if (last === undefined) return 0;
  const deleted = await trx.deleteFrom('changes').where('seq', '<=', last.seq).executeTakeFirst();
  await trx.updateTable('feed_meta').set({ oldest_seq: last.seq }).where('id', '=', 1).execute();
  return Number(deleted.numDeletedRows);
}

/** Up to when scheduled publications have their feed entries (80 §3.3). */
export async function setPublishedThrough(trx: Kysely<Database>, throughUtc: string): Promise<void> {
  await trx.updateTable('feed_meta').set({ published_through: throughUtc }).where('id', '=', 1).execute();
}

/** A new feed epoch (80 §3.8): every cursor of another epoch answers 410 `reset`. */
export async function setFeedEpoch(db: Kysely<Database>, epoch: string): Promise<void> {
  await db.updateTable('feed_meta').set({ epoch }).where('id', '=', 1).execute();
}
