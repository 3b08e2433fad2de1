import { type CreateTableBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Visitor submissions (120 §7) and the mail outbox (120 §10.3): the private submitter record of
 * each submitted event, the attempts that count toward the hourly limit (and consume form
 * tokens), the 30-day spam memory, the queued mails, and the built-in user `submissions` that
 * visitors' events belong to. Re-runnable: every statement is guarded.
 */
export function submissions(dialect: Dialect) {
  const serial = <T extends string>(table: CreateTableBuilder<T, never>) =>
    dialect === 'postgres' ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.createTable('submissions').ifNotExists()
        .addColumn('event_id', 'integer', (c) => c.primaryKey().references('events.id').onDelete('cascade'))
        .addColumn('edition', 'text', (c) => c.notNull())
        .addColumn('submitter_name', 'text')
        .addColumn('submitter_email', 'text')
        .addColumn('member_id', 'integer')
        .addColumn('address_hash', 'text')
        .addColumn('email_hash', 'text')
        // Comma list: `unverified`, `known-spammer`.
        .addColumn('flags', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_utc', 'text', (c) => c.notNull())
        .addColumn('decision', 'text')
        .addColumn('decided_by', 'integer')
        .addColumn('decided_utc', 'text')
        .addColumn('reason', 'text')
        .addColumn('created_venue_id', 'integer')
        .addColumn('created_organizer_id', 'integer')
        .execute();
      await db.schema.createIndex('submissions_member').ifNotExists().on('submissions').columns(['member_id', 'created_utc']).execute();

      await serial(db.schema.createTable('submission_attempts').ifNotExists())
        // The form token's id: unique, so a token is consumed once (a concurrent duplicate fails).
        .addColumn('token_id', 'text', (c) => c.unique())
        .addColumn('key_hash', 'text', (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('created_utc', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('submission_attempts_key').ifNotExists().on('submission_attempts').columns(['key_hash', 'created_utc']).execute();

      await db.schema.createTable('submission_spam_marks').ifNotExists()
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('expires_utc', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('submission_spam_marks_pk', ['kind', 'hash'])
        .execute();

      await serial(db.schema.createTable('mail_messages').ifNotExists())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('event_id', 'integer')
        .addColumn('lang', 'text', (c) => c.notNull())
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        // The frozen message: headers, text and HTML as JSON (emptied 7 days after sending).
        .addColumn('body', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_utc', 'text', (c) => c.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('smtp_response', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_utc', 'text', (c) => c.notNull())
        .addColumn('finished_utc', 'text')
        .execute();
      await db.schema.createIndex('mail_messages_due').ifNotExists().on('mail_messages').columns(['status', 'next_attempt_utc']).execute();

      const builtIn = await db.selectFrom('settings').select('value').where('key', '=', 'submissions_user_id').executeTakeFirst();
      if (builtIn === undefined) {
        const taken = new Set((await db.selectFrom('users').select('login').where('login', 'like', 'submissions%').execute()).map((row) => row.login as string));
        let login = 'submissions';
        for (let n = 2; taken.has(login); n++) login = `submissions-${n}`;
        const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
        const user = await db.insertInto('users').values({ login, email: '', role: 'contributor', created_utc: now }).returning('id').executeTakeFirstOrThrow();
        await db.insertInto('settings').values({ key: 'submissions_user_id', value: String(user.id) }).execute();
      }
    },
  };
}
