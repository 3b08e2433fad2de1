import { CompiledQuery, type Kysely } from 'kysely';
import { isPostgres } from './sql-helpers.ts';
import type { Database } from './schema.ts';
import type { DescribedWrite, WriteJournal } from './write-journal.ts';

/** A transaction whose write may be described to the journal (write-journal.ts) before it commits. */
export interface Described {
  journal: WriteJournal;
  /** Read after the work: undefined when the work did something it cannot describe. */
  write(): DescribedWrite | undefined;
}

/**
 * Runs `work` in a transaction, or inside the caller's when `db` already is one: a use case
 * then writes atomically with whatever else the caller writes (an import's id-map row).
 *
 * On SQLite a write transaction is numbered by its first change-log entry, so that the triggers
 * group its entries (one per record per transaction, migration 0009) — PostgreSQL groups by xid.
 * Clearing that number is also the transaction's first statement, a write: it holds the
 * database's write lock before it reads anything, waiting for another process's writer if need
 * be. A transaction that read first would fail at its first write, at once and without waiting
 * (SQLITE_BUSY_SNAPSHOT), whenever another process (the CLI, an importer) committed in between.
 */
async function clearSqliteTransactionNumber(trx: Kysely<Database>): Promise<void> {
  await trx.executeQuery(CLEAR_TRANSACTION_NUMBER);
}

/** Compiled once: every write transaction runs it twice. */
const CLEAR_TRANSACTION_NUMBER = CompiledQuery.raw('update feed_tx set tx = null where id = 1 and tx is not null');

export async function inTransaction<T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>, described?: Described): Promise<T> {
  if (db.isTransaction) return work(db);
  const sqlite = !isPostgres(db);
  return db.transaction().execute(async (trx) => {
    const mark = described?.journal.begin();
    let write: DescribedWrite | undefined;
    try {
      // Both statements change no row unless a write took a number (or a write outside this
      // function left one behind): a transaction that writes nothing does not move the cache epoch.
      if (sqlite) await clearSqliteTransactionNumber(trx);
      const result = await work(trx);
      if (sqlite) await clearSqliteTransactionNumber(trx);
      write = described?.write();
      return result;
    } finally {
      if (mark !== undefined) await described!.journal.end(trx, mark, write);
    }
  });
}
