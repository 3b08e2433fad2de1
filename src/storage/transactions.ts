import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Runs `work` in a transaction, or inside the caller's when `db` already is one: a use case
 * then writes atomically with whatever else the caller writes (an import's id-map row).
 */
export function inTransaction<T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
