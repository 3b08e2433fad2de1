import { sql, type Kysely, type Migration } from 'kysely';
import { CHANGES_CHANNEL, CREDENTIALS_PAYLOAD } from '../cache-epochs.ts';
import type { Dialect } from '../database.ts';

/**
 * PostgreSQL: a statement that changes or removes users or application passwords notifies every
 * instance (cache-epochs.ts `credentials()`), which then forgets the credentials it accepted. A new
 * user or password revokes nothing, and refused credentials are never remembered. SQLite observes
 * other processes' commits through `PRAGMA data_version`.
 */
export function credentialChanges(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql.raw(`create function notify_credentials_change() returns trigger language plpgsql as $$
        begin perform pg_notify('${CHANGES_CHANNEL}', '${CREDENTIALS_PAYLOAD}' || TG_TABLE_SCHEMA); return null; end $$`).execute(db);
      for (const table of ['users', 'app_passwords']) {
        await sql.raw(`create trigger ${table}_notify_credentials after update or delete or truncate on ${table}
          for each statement execute function notify_credentials_change()`).execute(db);
      }
    },
  };
}
