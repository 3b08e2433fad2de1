import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Serialises the check-then-insert steps of concurrent writers that share `name` (a slug being
 * allocated, a name being matched against duplicates) until the calling transaction ends. On
 * PostgreSQL several pooled connections write at once, so a transaction-scoped advisory lock is
 * taken; SQLite has one connection whose transactions already run one after the other.
 */
export async function lockUntilCommit(db: Kysely<Database>, name: string): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`select pg_advisory_xact_lock(hashtext(${name}))`.execute(db);
}
