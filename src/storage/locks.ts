import { sql, type Kysely } from 'kysely';
import { isPostgres } from './sql-helpers.ts';
import type { Database } from './schema.ts';

/**
 * Serialises the check-then-insert steps of concurrent writers that share `name` (a slug being
 * allocated, a name being matched against duplicates) until the calling transaction ends. On
 * PostgreSQL several pooled connections write at once, so a transaction-scoped advisory lock is
 * taken; SQLite has one connection whose transactions already run one after the other.
 */
export async function lockUntilCommit(db: Kysely<Database>, name: string): Promise<void> {
  await lockAllUntilCommit(db, [name]);
}

/**
 * `lockUntilCommit` for several names in one statement (a batch of creates). The locks are taken
 * in the order of their keys, so that two writers locking overlapping sets cannot deadlock.
 */
export async function lockAllUntilCommit(db: Kysely<Database>, names: readonly string[]): Promise<void> {
  if (names.length === 0 || !isPostgres(db)) return;
  if (names.length === 1) {
    await sql`select pg_advisory_xact_lock(hashtext(${names[0]}))`.execute(db);
    return;
  }
  await sql`select pg_advisory_xact_lock(key) from (select distinct hashtext(name) as key from unnest(${[...names]}::text[]) as name order by key) as keys`.execute(db);
}

/**
 * Whether this transaction got the lock of a periodic job that any instance may run: on
 * PostgreSQL the transaction-scoped advisory lock `key`, not waited for (false: another instance
 * is running the job); SQLite has one connection, so always true.
 */
export async function tryJobLock(trx: Kysely<Database>, key: number): Promise<boolean> {
  if (!isPostgres(trx)) return true;
  const row = await sql<{ got: boolean }>`select pg_try_advisory_xact_lock(${key}) as got`.execute(trx);
  return row.rows[0].got;
}
