import type { Kysely, Migration } from 'kysely';

/**
 * Application passwords get a name (100 §10: `app_password_name` of the back office, `name` of the
 * admin API), so that a user can tell them apart when listing and revoking them. Earlier ones
 * keep an empty name.
 */
export function appPasswordNames(): Migration {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('app_passwords').addColumn('name', 'text', (c) => c.notNull().defaultTo('')).execute();
    },
    // Lets an upgrade test rebuild a database as an earlier migration left it.
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('app_passwords').dropColumn('name').execute();
    },
  };
}
