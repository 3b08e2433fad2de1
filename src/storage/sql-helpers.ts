import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';

/** Escapes `%`, `_` and the escape character itself for a LIKE pattern. */
export function escapeLikePattern(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/** Case-insensitive substring test that behaves the same on SQLite and PostgreSQL. */
export function containsInsensitive(column: Expression<unknown>, text: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`lower(${column}) like ${`%${escapeLikePattern(text.toLowerCase())}%`} escape '\\'`;
}

/** PostgreSQL returns counts as strings (bigint); SQLite as numbers. */
export function toInt(value: unknown): number {
  return typeof value === 'number' ? value : Number.parseInt(String(value ?? 0), 10);
}
