import type { Kysely } from 'kysely';

/**
 * The id map of `calendar import site` (90 §2.3): which local record each source record became,
 * and the source's modification stamp it was last copied at.
 */
export function importRecords() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.createTable('import_records')
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('source_id', 'integer', (c) => c.notNull())
        .addColumn('local_id', 'integer', (c) => c.notNull())
        .addColumn('source_modified_utc', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('import_records_pk', ['source', 'kind', 'source_id'])
        .execute();
      await db.schema.createIndex('import_records_local').on('import_records').columns(['kind', 'local_id']).execute();
    },
  };
}
