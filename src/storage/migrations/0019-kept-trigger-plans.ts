import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * The trigger functions whose statements look rows up by key in tables that grow with the events:
 * the term counts (0008, 0014, 0017), the link touches (0014) and the links' copies of their
 * event's start (0018).
 */
export const KEYED_LOOKUP_FUNCTIONS = [
  'term_count_changed',
  'term_count_removed',
  'term_count_links_insert',
  'term_count_links_delete',
  'touch_linked_events',
  'event_terms_start_fill',
  'events_term_starts',
] as const;

/**
 * PostgreSQL: these functions keep their plans for the connection's life again, planned with
 * sequential scans off instead of on every call (0013). Planning was 40 % of the server's time
 * in a create group (1.6 ms a group for the term counts, 0.8 ms for each link touch: the planner
 * sizes every index of the tables it plans for). What 0013 guarded against was a plan made while
 * a table was a page long — a sequential scan, kept as the table grew. Every statement here looks
 * rows up by a key an index serves, so with sequential scans off the first plan is the index plan
 * at any size.
 */
export function keptTriggerPlans(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (dialect !== 'postgres') return;
      for (const name of KEYED_LOOKUP_FUNCTIONS) {
        await sql.raw(`alter function ${name}() reset plan_cache_mode`).execute(db);
        await sql.raw(`alter function ${name}() set enable_seqscan = off`).execute(db);
      }
    },
  };
}
