import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';

type RevisedTable = 'events' | 'venues' | 'organizers' | 'terms';

/**
 * Takes the record's row lock until the transaction ends (a portable no-op update: no revision
 * bump, no change entry) and answers its revision as the last committed write left it, for the
 * `If-Match` comparison of 80 §1.3; undefined when the row is gone.
 */
export async function lockedRevision(trx: Kysely<Database>, table: RevisedTable, id: number): Promise<number | undefined> {
  await sql`update ${sql.table(table)} set revision = revision where id = ${id}`.execute(trx);
  return readRevision(trx, table, id);
}

export async function readRevision(db: Kysely<Database>, table: RevisedTable, id: number): Promise<number | undefined> {
  const row = (await sql<{ revision: number }>`select revision from ${sql.table(table)} where id = ${id}`.execute(db)).rows[0];
  return row === undefined ? undefined : Number(row.revision);
}
