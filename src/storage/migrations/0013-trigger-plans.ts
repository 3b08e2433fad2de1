import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../database.ts';

/** The trigger functions whose statements look rows up in tables that grow with the events. */
const GROWING_LOOKUPS = [
  'term_count_linked',
  'term_count_unlinked',
  'term_count_changed',
  'term_count_removed',
  'event_terms_touch_event',
  'event_organizers_touch_event',
];

/**
 * PL/pgSQL keeps a generic plan of each statement per connection once its first executions cost
 * no less, and keeps it while the connection lives. Planned on a new database, with `events`,
 * `event_terms` and `changes` a page or two long, a lookup by key there is a sequential scan, and
 * it stayed one as the tables grew: creates slowed from 178/s to 71/s over the first 14,000
 * events of one service run (PostgreSQL without autovacuum, so no ANALYZE came to invalidate the
 * plans). These functions are planned on every call, from the tables as they are then.
 */
export function triggerPlans(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (dialect !== 'postgres') return;
      for (const name of GROWING_LOOKUPS) await sql.raw(`alter function ${name}() set plan_cache_mode = force_custom_plan`).execute(db);
    },
  };
}
