import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * PostgreSQL: only a change of what an application password opens (its hash or its user), or its
 * removal, tells the instances to forget the credentials they accepted (0015). Recording a
 * password's last use, at most once a minute per password, would otherwise make every instance
 * look every active client's credentials up again each time.
 */
export function credentialColumns(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql.raw('drop trigger app_passwords_notify_credentials on app_passwords').execute(db);
      await sql.raw(`create trigger app_passwords_notify_credentials after update of user_id, hash or delete or truncate on app_passwords
        for each statement execute function notify_credentials_change()`).execute(db);
    },
  };
}
