import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** Distinct SQL texts kept prepared: the write and lookup paths use a few dozen, lists vary with their filters. */
const CAPACITY = 500;

/**
 * The connection as Kysely's SQLite driver sees it, with statements prepared once per SQL text:
 * the driver prepares every statement it runs, and preparing a write on a table with triggers
 * costs more than running it. Least recently used texts are dropped beyond CAPACITY. A statement
 * still being iterated is busy and cannot run again meanwhile; that caller gets a fresh one.
 */
export function cachingStatements(connection: BetterSqlite3.Database, capacity = CAPACITY): SqliteDatabase {
  const prepared = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => connection.close(),
    prepare(sql: string) {
      const cached = prepared.get(sql);
      if (cached !== undefined) {
        if (cached.busy) return connection.prepare(sql);
        // Re-inserted: Map order is recency order.
        prepared.delete(sql);
        prepared.set(sql, cached);
        return cached;
      }
      const statement = connection.prepare(sql);
      prepared.set(sql, statement);
      if (prepared.size > capacity) prepared.delete(prepared.keys().next().value!);
      return statement;
    },
  };
}
