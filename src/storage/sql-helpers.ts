import { escapeLike } from '../domain/text/search.ts';
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';

/** Case-insensitive substring test that behaves the same on SQLite and PostgreSQL. */
export function containsInsensitive(column: Expression<unknown>, text: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`lower(${column}) like ${`%${escapeLike(text.toLowerCase())}%`} escape '\\'`;
}

/** PostgreSQL returns counts as strings (bigint); SQLite as numbers. */
export function toInt(value: unknown): number {
  return typeof value === 'number' ? value : Number.parseInt(String(value ?? 0), 10);
}
