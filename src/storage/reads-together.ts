import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database } from './schema.ts';
import { reusedStatements } from './reusable-statements.ts';
import { isPostgres } from './sql-helpers.ts';

type Query<Row> = SelectQueryBuilder<any, any, Row>;
type Queries = Record<string, Query<unknown> | undefined>;
type RowsOf<Q extends Queries> = { [K in keyof Q]: Q[K] extends Query<infer Row> ? Row[] : never[] };

/** Independent queries and what their rows make: run alone (`read`) or with others (`readTogether`). */
export interface Read<T> {
  /** Everything the queries' SQL text depends on besides `values` (reusable-statements.ts). */
  readonly shape: string;
  readonly values: readonly unknown[];
  /** The queries, built of `values` (stand-ins for them: placed, never inspected). */
  queries(values: readonly unknown[]): Queries;
  make(rows: Record<string, unknown[]>): T | Promise<T>;
}

/**
 * A read of the queries `build` makes of `values` (an undefined one has no rows), whose rows
 * `make` turns into its value; `shape` names what else decides their text.
 */
export function readOf<V extends readonly unknown[], Q extends Queries, T>(
  shape: string,
  values: V,
  build: (values: V) => Q,
  make: (rows: RowsOf<Q>) => T | Promise<T>,
): Read<T> {
  return { shape, values, queries: (standIns) => build(standIns as V), make: (rows) => make(rows as RowsOf<Q>) };
}

export async function read<T>(db: Kysely<Database>, one: Read<T>): Promise<T> {
  return (await readTogether(db, { one })).one;
}

/** A statement of a joint read and the queries whose rows it returns: gathered as JSON columns, or its own rows. */
interface Gathering {
  aliases: string[];
  gathered: boolean;
}

/**
 * Runs the queries of several reads together. On PostgreSQL that is one statement, each query's
 * rows gathered as a JSON array: a round trip costs more than the aggregation on the server,
 * above all inside a transaction, where the queries would otherwise run one after another. Rows
 * then come as JSON has them: the same columns, a bigint as a number (toInt reads both). On
 * SQLite, in-process, each query runs as it is. The statements are built once per shape of the
 * reads and filled with their values afterwards.
 */
export async function readTogether<R extends Record<string, Read<unknown>>>(
  db: Kysely<Database>,
  reads: R,
): Promise<{ [K in keyof R]: R[K] extends Read<infer T> ? T : never }> {
  const entries = Object.entries(reads);
  const shape = `reads ${entries.map(([name, { shape: readShape, values }]) => `${name}:${values.length}:${readShape}`).join(' ')}`;
  const { statements, about } = reusedStatements(db, shape, entries.flatMap(([, { values }]) => values), (standIns) => {
    let offset = 0;
    const built = entries.map(([readName, { values, queries }]) => [readName, queries(standIns.slice(offset, (offset += values.length)))] as const);
    const names = Object.fromEntries(built.map(([readName, queries]) => [readName, Object.keys(queries)]));
    const present = built.flatMap(([readName, queries]) =>
      Object.entries(queries).flatMap(([queryName, query]) => (query === undefined ? [] : [{ alias: `${readName}_${queryName}`, query }])),
    );
    if (present.length > 1 && isPostgres(db)) {
      const gathered = db.selectNoFrom(present.map(({ alias, query }) => sql<unknown[]>`(select coalesce(json_agg(q), '[]'::json) from ${query.as('q')})`.as(alias)));
      return { queries: [gathered], about: { names, statements: [{ aliases: present.map(({ alias }) => alias), gathered: true }] as Gathering[] } };
    }
    return { queries: present.map(({ query }) => query), about: { names, statements: present.map(({ alias }) => ({ aliases: [alias], gathered: false })) } };
  });
  const rows = new Map<string, unknown[]>();
  await Promise.all(
    statements.map(async (statement, index) => {
      const { aliases, gathered } = about.statements[index];
      const result = await db.executeQuery(statement);
      if (!gathered) return rows.set(aliases[0], result.rows);
      for (const alias of aliases) rows.set(alias, (result.rows[0] as Record<string, unknown[]>)[alias]);
    }),
  );
  const made = await Promise.all(
    entries.map(async ([readName, one]) => {
      const rowsOf = Object.fromEntries(about.names[readName].map((queryName) => [queryName, rows.get(`${readName}_${queryName}`) ?? []]));
      return [readName, await one.make(rowsOf)] as const;
    }),
  );
  return Object.fromEntries(made) as { [K in keyof R]: R[K] extends Read<infer T> ? T : never };
}
