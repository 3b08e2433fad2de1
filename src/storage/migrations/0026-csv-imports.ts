import type { Kysely } from 'kysely';

/**
 * The keys of CSV imports (140 §7.5): which record a row's `UID` or `Event ID` (or, without
 * either, its title and start) became, and a hash of the values it last wrote, so that
 * importing the same row again writes nothing.
 */
export function csvImports() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      // If not exists: a test re-runs the migrations after 0020 on a database that has them.
      await db.schema.createTable('csv_imports').ifNotExists()
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('record_id', 'integer', (c) => c.notNull())
        .addColumn('content_hash', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('csv_imports_pk', ['kind', 'key'])
        .execute();
    },
  };
}
