import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * The identity of imported iCalendar components (50 C.6): which event a (UID, instance) became,
 * and the hash of what the file said, so that re-importing an unchanged file writes nothing.
 */
export function icalImports(_dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.createTable('ical_imports')
        .addColumn('uid', 'text', (c) => c.notNull())
        .addColumn('instance_key', 'text', (c) => c.notNull())
        .addColumn('event_id', 'integer', (c) => c.notNull())
        .addColumn('content_hash', 'text', (c) => c.notNull())
        .addColumn('sequence', 'integer', (c) => c.notNull())
        .addColumn('last_modified', 'text', (c) => c.notNull())
        .addColumn('imported_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('ical_imports_key', ['uid', 'instance_key'])
        .execute();
    },
  };
}
