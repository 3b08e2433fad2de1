import { escapeLike } from '../domain/text/search.ts';
import { PostgresAdapter, sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';

/** Case-insensitive substring test that behaves the same on SQLite and PostgreSQL. */
export function containsInsensitive(column: Expression<unknown>, text: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`lower(${column}) like ${`%${escapeLike(text.toLowerCase())}%`} escape '\\'`;
}

/** PostgreSQL returns counts as strings (bigint); SQLite as numbers. */
export function toInt(value: unknown): number {
  return typeof value === 'number' ? value : Number.parseInt(String(value ?? 0), 10);
}

/** Whether queries through `db` (a connection or a transaction) go to PostgreSQL. */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
