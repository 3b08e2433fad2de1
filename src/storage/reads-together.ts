import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database } from './schema.ts';
import { isPostgres } from './sql-helpers.ts';

type Query<Row> = SelectQueryBuilder<any, any, Row>;
type Queries = Record<string, Query<unknown> | undefined>;
type RowsOf<Q extends Queries> = { [K in keyof Q]: Q[K] extends Query<infer Row> ? Row[] : never[] };

/** Independent queries and what their rows make: run alone (`read`) or with others (`readTogether`). */
export interface Read<T> {
  readonly queries: Queries;
  make(rows: Record<string, unknown[]>): T | Promise<T>;
}

/** A read of `queries` (an undefined one has no rows) whose rows `make` turns into its value. */
export function readOf<Q extends Queries, T>(queries: Q, make: (rows: RowsOf<Q>) => T | Promise<T>): Read<T> {
  return { queries, make: (rows) => make(rows as RowsOf<Q>) };
}

export async function read<T>(db: Kysely<Database>, one: Read<T>): Promise<T> {
  return (await readTogether(db, { one })).one;
}

/**
 * Runs the queries of several reads together. On PostgreSQL that is one statement, each query's
 * rows gathered as a JSON array: a round trip costs more than the aggregation on the server,
 * above all inside a transaction, where the queries would otherwise run one after another. Rows
 * then come as JSON has them: the same columns, a bigint as a number (toInt reads both). On
 * SQLite, in-process, each query runs as it is.
 */
export async function readTogether<R extends Record<string, Read<unknown>>>(
  db: Kysely<Database>,
  reads: R,
): Promise<{ [K in keyof R]: R[K] extends Read<infer T> ? T : never }> {
  const named = Object.entries(reads).flatMap(([readName, { queries }]) =>
    Object.entries(queries).map(([queryName, query]) => ({ readName, queryName, alias: `${readName}_${queryName}`, query })),
  );
  const present = named.filter(({ query }) => query !== undefined);
  const rows = new Map<string, unknown[]>(named.map(({ alias }) => [alias, []]));
  if (present.length > 1 && isPostgres(db)) {
    const row = await db
      .selectNoFrom(present.map(({ alias, query }) => sql<unknown[]>`(select coalesce(json_agg(q), '[]'::json) from ${query!.as('q')})`.as(alias)))
      .executeTakeFirstOrThrow();
    for (const { alias } of present) rows.set(alias, (row as Record<string, unknown[]>)[alias]);
  } else {
    await Promise.all(present.map(async ({ alias, query }) => rows.set(alias, await query!.execute())));
  }
  const made = await Promise.all(
    Object.entries(reads).map(async ([readName, { queries, make }]) =>
      [readName, await make(Object.fromEntries(Object.keys(queries).map((queryName) => [queryName, rows.get(`${readName}_${queryName}`)!])))] as const,
    ),
  );
  return Object.fromEntries(made) as { [K in keyof R]: R[K] extends Read<infer T> ? T : never };
}
