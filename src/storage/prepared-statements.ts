import type pg from 'pg';

/** Distinct SQL texts prepared by name at most: the write and lookup paths use a few hundred. */
const CAPACITY = 500;
/** Uses of a text before it is prepared by name: one-off texts (a rare filter combination) are not kept. */
const PREPARE_AT = 3;
/** Runs of a prepared statement on one connection before it is prepared again: the first time, and at most. */
const FIRST_RENEWAL = 8;
const LAST_RENEWAL = 1024;

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
 * is deallocated.
 *
 * Texts repeated PREPARE_AT times get an id, up to CAPACITY for the process; beyond that, texts
 * run unnamed as before. Statements without parameters (begin, commit) run as simple queries.
 */
export function prepareRepeatedStatements(pool: pg.Pool, capacity = CAPACITY): void {
  const ids = new Map<string, number>();
  const uses = new Map<string, number>();
  const idOf = (text: string): number | undefined => {
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
    const prepared = new Map<number, Preparation>();
    client.query = ((...args: unknown[]) => {
      const [text, values] = args;
      const id = args.length === 2 && typeof text === 'string' && Array.isArray(values) && values.length > 0 ? idOf(text) : undefined;
      if (id === undefined) return query(...args);
      let preparation = prepared.get(id);
      if (preparation === undefined) {
        preparation = { generation: 0, runs: 0, renewAfter: FIRST_RENEWAL };
        prepared.set(id, preparation);
      } else if (preparation.runs >= preparation.renewAfter) {
        // Queued ahead of the statement that replaces it, on this connection; a statement whose
        // preparation failed has nothing to deallocate, which is no error worth reporting.
        query(`deallocate ${nameOf(id, preparation.generation)}`).catch(() => {});
        preparation.generation++;
        preparation.runs = 0;
        preparation.renewAfter = Math.min(preparation.renewAfter * 2, LAST_RENEWAL);
      }
      preparation.runs++;
      return query({ name: nameOf(id, preparation.generation), text, values });
    }) as typeof client.query;
  });
}
