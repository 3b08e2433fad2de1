import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/** The tables whose rows make up responses: any write to them changes the data version. */
const WATCHED = ['events', 'venues', 'organizers', 'media', 'terms', 'event_terms', 'event_organizers'];

/**
 * A counter that every write to the content tables increments, by trigger, inside the writing
 * transaction. Read caches key their entries by it: the counter becomes visible exactly when the
 * write commits, so every instance on the same database sees a change in its very next read.
 */
export function dataVersion(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.createTable('data_version')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('version', 'integer', (c) => c.notNull())
        .execute();
      await db.insertInto('data_version').values({ id: 1, version: 0 }).execute();
      if (dialect === 'postgres') {
        await sql`create function bump_data_version() returns trigger language plpgsql as $$
          begin update data_version set version = version + 1 where id = 1; return null; end $$`.execute(db);
        for (const table of WATCHED) {
          await sql.raw(`create trigger ${table}_data_version after insert or update or delete on ${table} for each statement execute function bump_data_version()`).execute(db);
        }
      } else {
        for (const table of WATCHED) {
          for (const operation of ['insert', 'update', 'delete']) {
            await sql.raw(`create trigger ${table}_${operation}_data_version after ${operation} on ${table} begin update data_version set version = version + 1 where id = 1; end`).execute(db);
          }
        }
      }
      // The next scheduled publication bounds how long a cached read stays true.
      await db.schema.createIndex('events_status_date_utc').on('events').columns(['status', 'date_utc']).execute();
    },
  };
}
