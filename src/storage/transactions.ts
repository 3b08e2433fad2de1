import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Runs `work` in a transaction, or inside the caller's when `db` already is one: a use case
 * then writes atomically with whatever else the caller writes (an import's id-map row).
 *
 * On SQLite a write transaction is numbered while it runs, so that the change-log triggers group
 * its entries (one per record per transaction, migration 0009) — PostgreSQL groups by xid.
 */
export function inTransaction<T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter) return db.transaction().execute(work);
  return db.transaction().execute(async (trx) => {
    await sql`update feed_tx set next = next + 1, tx = next + 1 where id = 1`.execute(trx);
    const result = await work(trx);
    await sql`update feed_tx set tx = null where id = 1`.execute(trx);
    return result;
  });
}
