import type pg from 'pg';

/** Distinct SQL texts prepared by name at most: the write and lookup paths use a few hundred. */
const CAPACITY = 500;
/** Uses of a text before it is prepared by name: one-off texts (a rare filter combination) are not kept. */
const PREPARE_AT = 3;
/** Runs of a prepared statement on one connection before it is prepared again: the first time, and at most. */
const FIRST_RENEWAL = 8;
const LAST_RENEWAL = 1024;

/** PostgreSQL's refusal to run a prepared statement whose result columns have changed since. */
const STALE_PLAN = '0A000';

/**
 * Ends the text of a statement whose plan must be made for its values on every run: it is never
 * prepared by name. A generic plan ignores the values, and for some statements that costs more
 * than planning: a term-filtered list's ids (0.3 ms to plan) ran in 2 ms planned for its window
 * and 33 ms on the generic plan PostgreSQL switched to after five runs, which estimated the
 * term's events of a year at 6 and intersected two window indexes instead.
 */
export const PLANNED_PER_RUN = ' /* planned per run */';

/** A statement as one connection has prepared it: which preparation, and how long it serves. */
interface Preparation {
  generation: number;
  runs: number;
  renewAfter: number;
}

/**
 * Statements a pool's connections run often are prepared by name, so that PostgreSQL parses
 * them once and, after a few runs, reuses a plan when it judges a generic one as good as a
 * custom one (plan_cache_mode auto). Planning was most of the server's time for a first read:
 * binding the embedded terms and linked posts of one event took 1.5–1.8 ms against 0.15 to
 * run, the planner sizing each index of the tables it reads for every plan.
 *
 * A generic plan is judged on the tables as they were when it was made: one made while the
 * events table held a few rows scanned it whole once it held 20,000 (a create's slug check
 * went from under a millisecond to 23). Where autovacuum runs, its ANALYZE makes the server plan
 * again as a table grows; where it does not, nothing would. So each connection prepares a
 * statement again after it has served 8 runs, then twice as many each time, up to 1,024: a plan
 * outlives at most as many runs as preceded it, and a table that grows with those runs is never
 * more than about twice the size it was planned for (or 1,024 runs older). The replaced statement
 * is deallocated, on the server and in pg's record of the connection's statements. A statement
 * whose tables changed shape under it (a `select *` after another instance's migration added a
 * column) fails once per connection, then is prepared anew.
 *
 * Texts repeated PREPARE_AT times get an id, up to CAPACITY for the process; beyond that, texts
 * run unnamed as before. Statements without parameters (begin, commit) run as simple queries.
 */
export function prepareRepeatedStatements(pool: pg.Pool, capacity = CAPACITY): void {
  const ids = new Map<string, number>();
  const uses = new Map<string, number>();
  const idOf = (text: string): number | undefined => {
    if (text.endsWith(PLANNED_PER_RUN)) return undefined;
    const id = ids.get(text);
    if (id !== undefined || ids.size >= capacity) return id;
    const count = (uses.get(text) ?? 0) + 1;
    if (count < PREPARE_AT) {
      // Texts seen once or twice are forgotten in bulk: their variety has no bound.
      if (uses.size >= capacity * 10) uses.clear();
      uses.set(text, count);
      return undefined;
    }
    uses.delete(text);
    ids.set(text, ids.size + 1);
    return ids.size;
  };
  const nameOf = (id: number, generation: number) => `calendar_${id}_${generation}`;

  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    // Where pg remembers the statements it has seen parsed on this connection (pg 8's own record).
    const parsed = (client as unknown as { connection?: { parsedStatements?: Record<string, string> } }).connection?.parsedStatements;
    const prepared = new Map<number, Preparation>();
    client.query = ((...args: unknown[]) => {
      const [text, values] = args;
      const id = args.length === 2 && typeof text === 'string' && Array.isArray(values) && values.length > 0 ? idOf(text) : undefined;
      if (id === undefined) return query(...args);
      const preparation = prepared.get(id) ?? { generation: 0, runs: 0, renewAfter: FIRST_RENEWAL };
      prepared.set(id, preparation);
      if (preparation.runs >= preparation.renewAfter) {
        // Queued ahead of the statement that replaces it, on this connection; a statement whose
        // preparation failed has nothing to deallocate, which is no error worth reporting.
        const replaced = nameOf(id, preparation.generation);
        query(`deallocate ${replaced}`).catch(() => {});
        // Never used again; left in pg's record, one name would pile up per preparation.
        if (parsed !== undefined) delete parsed[replaced];
        preparation.generation++;
        preparation.runs = 0;
        preparation.renewAfter = Math.min(preparation.renewAfter * 2, LAST_RENEWAL);
      }
      preparation.runs++;
      return query({ name: nameOf(id, preparation.generation), text, values }).catch((error: unknown) => {
        // The tables changed shape under the statement (a migration run by another instance):
        // it can never run again, so the next run prepares it anew. This run's caller gets the error.
        if ((error as { code?: unknown }).code === STALE_PLAN) preparation.runs = preparation.renewAfter;
        throw error;
      });
    }) as typeof client.query;
  });
}
