import { sql, type Kysely } from 'kysely';
import { isPostgres } from './sql-helpers.ts';
import type { Database } from './schema.ts';

/**
 * Runs `work` in a transaction, or inside the caller's when `db` already is one: a use case
 * then writes atomically with whatever else the caller writes (an import's id-map row).
 *
 * On SQLite a write transaction is numbered by its first change-log entry, so that the triggers
 * group its entries (one per record per transaction, migration 0009) — PostgreSQL groups by xid.
 */
async function clearSqliteTransactionNumber(trx: Kysely<Database>): Promise<void> {
  await sql`update feed_tx set tx = null where id = 1 and tx is not null`.execute(trx);
}

export function inTransaction<T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db);
  if (isPostgres(db)) return db.transaction().execute(work);
  return db.transaction().execute(async (trx) => {
    // Both statements change no row unless a write took a number (or a write outside this
    // function left one behind): a transaction that writes nothing does not move the cache epoch.
    await clearSqliteTransactionNumber(trx);
    const result = await work(trx);
    await clearSqliteTransactionNumber(trx);
    return result;
  });
}
