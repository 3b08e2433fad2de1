import { sql, type Kysely, type Migration } from 'kysely';
import { CHANGES_CHANNEL } from '../cache-epochs.ts';
import type { Dialect } from '../database.ts';

/**
 * PostgreSQL: a writing transaction's notification also names its transaction id
 * (`<schema> <id>`), so that an instance can tell its own described writes from others' and keep
 * the cached answers they cannot have changed (write-journal.ts). The bare `<schema>` is still
 * sent, for instances of the previous release during a rolling upgrade; the server folds
 * duplicates, so each transaction sends each form once.
 */
export function transactionNotifications(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql.raw(`create or replace function notify_calendar_change() returns trigger language plpgsql as $$
        begin
          perform pg_notify('${CHANGES_CHANNEL}', TG_TABLE_SCHEMA);
          perform pg_notify('${CHANGES_CHANNEL}', TG_TABLE_SCHEMA || ' ' || pg_current_xact_id()::text);
          return null;
        end $$`).execute(db);
    },
  };
}
