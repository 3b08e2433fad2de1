import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import { writtenAsGiven } from './portable-parameters.ts';
import { isPostgres } from './sql-helpers.ts';

/** Shapes kept per dialect: a batch of up to 100 events has one shape per count of events and of venues. */
const CAPACITY = 500;

/** Stands for the value at `index` of a call's values while a shape's statements are built. */
class Placeholder {
  constructor(readonly index: number) {}
}

/** Compiled statements whose placeholders name the call's values (other parameters are constants of the shape), and what the builder said about them. */
interface Template {
  statements: ReadonlyArray<{ sql: string; parameters: readonly unknown[] }>;
  about: unknown;
}

const templates = new Map<string, Template>();

/**
 * The statements of `build` for these values, built with the query builder and compiled once per
 * dialect and `shape`, then filled with each call's values. Building and compiling a statement
 * cost more than running it on SQLite: the embedded terms and linked posts of an event's answer
 * spent about a tenth of an update's time in Kysely. `shape` must name everything the SQL text
 * depends on (how many values a list has, which optional parts are present); `build` receives
 * stand-ins for the values and must only place them in the query, never inspect them.
 */
export function reusedStatements<V extends readonly unknown[], A>(
  db: Kysely<any>,
  shape: string,
  values: V,
  build: (values: V) => { queries: readonly Compilable<unknown>[]; about: A },
): { statements: CompiledQuery[]; about: A } {
  const compiled = (of: V) => {
    const { queries, about } = build(of);
    return { statements: queries.map((query) => query.compile()), about };
  };
  // A value the compiler writes its own way (portable-parameters.ts): built for these values alone.
  if (!values.every(writtenAsGiven)) return compiled(values);
  const key = `${isPostgres(db) ? 'postgres' : 'sqlite'} ${shape}`;
  let made: Template | undefined = templates.get(key);
  if (made === undefined) {
    made = compiled(values.map((_value, index) => new Placeholder(index)) as unknown as V);
    templates.set(key, made);
    if (templates.size > CAPACITY) templates.delete(templates.keys().next().value!);
  }
  const fill = (parameter: unknown) => (parameter instanceof Placeholder ? values[parameter.index] : parameter);
  return { statements: made.statements.map(({ sql, parameters }) => CompiledQuery.raw(sql, parameters.map(fill))), about: made.about as A };
}

/** One statement of `build`, as `reusedStatements` makes it: run it with `db.executeQuery`. */
export function reusedQuery<V extends readonly unknown[], Row>(db: Kysely<any>, shape: string, values: V, build: (values: V) => Compilable<Row>): CompiledQuery<Row> {
  return reusedStatements(db, shape, values, (standIns) => ({ queries: [build(standIns)], about: undefined })).statements[0] as CompiledQuery<Row>;
}
