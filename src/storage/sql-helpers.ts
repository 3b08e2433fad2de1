import { escapeLike } from '../domain/text/search.ts';
import { PostgresAdapter, sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';

/** Case-insensitive substring test that behaves the same on SQLite and PostgreSQL. */
export function containsInsensitive(column: Expression<unknown>, text: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`lower(${column}) like ${`%${escapeLike(text.toLowerCase())}%`} escape '\\'`;
}

/**
 * The scheduled status, written into the SQL rather than sent as a value. Scheduled records are
 * few, and PostgreSQL knows it from its statistics only for a literal: the generic plan of a
 * prepared statement, made for any status, expected many (an event's parts hashed every link of
 * each of its terms to find the due ones: 50 ms at 200,000 events against 0.5), so it planned
 * such statements for their values on every run instead (0.2–0.8 ms each).
 */
export const SCHEDULED = sql.lit('future');

/**
 * The trashed status, written into the SQL for the same reason: trashed records are few, and the
 * generic plan of a page's organizers, made for any status, expected a single live organizer
 * and probed the page's links once per organizer (1,010 buffer reads for a page of 10: 0.66 ms,
 * where the plan made for the values took 0.1).
 */
export const TRASHED = sql.lit('trash');

/** PostgreSQL returns counts as strings (bigint); SQLite as numbers. */
export function toInt(value: unknown): number {
  return typeof value === 'number' ? value : Number.parseInt(String(value ?? 0), 10);
}

/** Whether queries through `db` (a connection or a transaction) go to PostgreSQL. */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
