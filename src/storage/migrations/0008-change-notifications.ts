import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { CHANGES_CHANNEL } from '../cache-epochs.ts';

/** The tables whose rows make up responses (as 0002 watched them). */
const WATCHED = ['events', 'venues', 'organizers', 'media', 'terms', 'event_terms', 'event_organizers'];

/**
 * Read caches no longer key on the data-version row of 0002: every writer updated that one row,
 * so on PostgreSQL concurrent writers queued on its lock until commit. SQLite observes changes
 * through `PRAGMA data_version` and the connection's own change count instead; PostgreSQL
 * writers notify CHANGES_CHANNEL (one notification per transaction and schema, as the server
 * folds identical ones), which each instance's listener turns into a new cache epoch.
 */
export function changeNotifications(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (dialect === 'postgres') {
        for (const table of WATCHED) await sql.raw(`drop trigger ${table}_data_version on ${table}`).execute(db);
        await sql`drop function bump_data_version()`.execute(db);
        await sql.raw(`create function notify_calendar_change() returns trigger language plpgsql as $$
          begin perform pg_notify('${CHANGES_CHANNEL}', TG_TABLE_SCHEMA); return null; end $$`).execute(db);
        for (const table of WATCHED) {
          await sql.raw(`create trigger ${table}_notify_change after insert or update or delete or truncate on ${table} for each statement execute function notify_calendar_change()`).execute(db);
        }
      } else {
        for (const table of WATCHED) {
          for (const operation of ['insert', 'update', 'delete']) await sql.raw(`drop trigger ${table}_${operation}_data_version`).execute(db);
        }
      }
      await db.schema.dropTable('data_version').execute();
    },
  };
}
