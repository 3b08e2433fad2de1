import type { Kysely } from 'kysely';

/**
 * Recurring events (60 §8): a master row carries the recurrence, each occurrence is an event row
 * with `post_parent` = the master and a recurrence key that keeps its id across re-expansion.
 */
export function recurrence() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const columns: Array<[string, 'integer' | 'text', boolean]> = [
        ['is_series_master', 'integer', true],
        ['recurrence_key', 'text', false],
        ['recurrence_id', 'text', false],
        ['recurrence_rrule', 'text', false],
        ['recurrence_rdate', 'text', false],
        ['recurrence_exdate', 'text', false],
        ['recurrence_horizon', 'text', false],
        ['recurrence_complete', 'integer', true],
        ['recurrence_truncated', 'integer', true],
        ['overridden', 'text', false],
      ];
      for (const [name, type, flag] of columns) {
        await db.schema.alterTable('events').addColumn(name, type, (c) => (flag ? c.notNull().defaultTo(0) : c)).execute();
      }
      await db.schema.createIndex('events_parent_start').on('events').columns(['post_parent', 'start_utc']).execute();
      await db.schema.createIndex('events_parent_key').on('events').columns(['post_parent', 'recurrence_key']).unique().execute();
      // The horizon job looks for masters not yet expanded far enough.
      await db.schema.createIndex('events_series_horizon').on('events').columns(['is_series_master', 'recurrence_horizon']).execute();
    },
  };
}
