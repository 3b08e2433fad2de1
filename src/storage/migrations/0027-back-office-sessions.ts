import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../database.ts';
import { existingColumns } from './existing-columns.ts';

/**
 * The back office's sign-in (100 §3, §4): a sign-in password per user (separate from application
 * passwords), database sessions that every instance honours, and one-time links (invitations,
 * resets). Re-runnable: what exists stays.
 */
export function backOfficeSessions(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const existing = await existingColumns(db, 'users');
      for (const name of ['signin_hash', 'signin_changed_utc', 'last_signin_utc']) {
        if (!existing.has(name)) await db.schema.alterTable('users').addColumn(name, 'text').execute();
      }
      const serial = dialect === 'postgres' ? 'serial' : 'integer';
      await db.schema.createTable('sessions').ifNotExists()
        .addColumn('id', serial, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_utc', 'text', (c) => c.notNull())
        .addColumn('last_seen_utc', 'text', (c) => c.notNull())
        .addColumn('expires_utc', 'text', (c) => c.notNull())
        .addColumn('remember', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.createIndex('sessions_user').ifNotExists().on('sessions').column('user_id').execute();
      await db.schema.createIndex('sessions_expires').ifNotExists().on('sessions').column('expires_utc').execute();
      await db.schema.createTable('signin_links').ifNotExists()
        .addColumn('id', serial, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('created_utc', 'text', (c) => c.notNull())
        .addColumn('expires_utc', 'text', (c) => c.notNull())
        .addColumn('used_utc', 'text')
        .execute();
      await db.schema.createIndex('signin_links_user').ifNotExists().on('signin_links').column('user_id').execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('signin_links').ifExists().execute();
      await db.schema.dropTable('sessions').ifExists().execute();
      for (const name of ['signin_hash', 'signin_changed_utc', 'last_signin_utc']) {
        await db.schema.alterTable('users').dropColumn(name).execute();
      }
    },
  };
}
