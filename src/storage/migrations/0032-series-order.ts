import type { Kysely, Migration } from 'kysely';

/**
 * `events_series_order`: the listed occurrences of every series (`is_series_master = 0`,
 * `post_parent > 0`) as one index range, each series' dates in start order. A collapsed list
 * (`hide_subsequent_recurrences`, the back office's default) finds each series' first matching
 * date by reading that range in index order — no sort, no visit of standalone events — and the
 * counts take each series' repeats off the same way. The equality on `is_series_master` leads, as
 * in `events_list_order`, so that SQLite, which has no statistics here, still prefers it to the
 * `is_series_master` indexes for the occurrences.
 */
export function seriesOrder(): Migration {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.createIndex('events_series_order').ifNotExists().on('events').columns(['is_series_master', 'post_parent', 'start_local', 'id']).execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('events_series_order').ifExists().execute();
    },
  };
}
