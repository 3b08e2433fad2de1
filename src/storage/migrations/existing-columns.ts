import { sql, type Kysely } from 'kysely';

/**
 * The columns a table has now, for migrations that must be re-runnable. Kysely's introspection
 * lists the tables of every schema on PostgreSQL: only the connection's own schema counts (tests
 * and sites may hold other copies of the same tables side by side).
 */
export async function existingColumns(db: Kysely<any>, table: string): Promise<Set<string>> {
  const tables = await db.introspection.getTables();
  const current = tables.some((candidate) => candidate.schema !== undefined)
    ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
    : undefined;
  const found = tables.find((candidate) => candidate.name === table && (current === undefined || candidate.schema === current));
  return new Set(found?.columns.map((column) => column.name));
}
