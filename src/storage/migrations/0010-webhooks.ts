import type { CreateTableBuilder, Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Webhook subscriptions and their durable outbox (80 §4.4): messages are rows, claimed by any
 * instance under a lease, with one attempt row per send. Times are ISO-8601 UTC text with
 * milliseconds (taken from the database clock), which sorts as text on both dialects.
 */
export function webhooks(dialect: Dialect) {
  const serial = <T extends string>(table: CreateTableBuilder<T, never>) =>
    dialect === 'postgres' ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  return {
    async up(db: Kysely<any>): Promise<void> {
      await serial(db.schema.createTable('webhooks'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('types', 'text', (c) => c.notNull())
        .addColumn('visibility', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('disabled_reason', 'text')
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('previous_secret', 'text')
        .addColumn('previous_secret_until', 'text')
        // Position in the change log after the last change turned into messages (opaque text).
        .addColumn('change_position', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_success_at', 'text')
        .addColumn('last_failure_at', 'text')
        .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      await serial(db.schema.createTable('webhook_messages'))
        .addColumn('subscription_id', 'integer', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
        .addColumn('webhook_id', 'text', (c) => c.notNull().unique())
        .addColumn('type', 'text', (c) => c.notNull())
        // `event:12`: a later message for the same record waits until this one succeeded or died.
        .addColumn('record_key', 'text')
        .addColumn('payload', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .execute();
      await db.schema.createIndex('webhook_messages_due').on('webhook_messages').columns(['status', 'next_attempt_at']).execute();
      await db.schema.createIndex('webhook_messages_record').on('webhook_messages').columns(['subscription_id', 'record_key', 'id']).execute();

      await serial(db.schema.createTable('webhook_attempts'))
        .addColumn('message_id', 'integer', (c) => c.notNull().references('webhook_messages.id').onDelete('cascade'))
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('error', 'text')
        .addColumn('excerpt', 'text')
        .addColumn('instance', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhook_attempts_message').on('webhook_attempts').columns(['message_id', 'attempt']).execute();
      await db.schema.createIndex('webhook_attempts_started').on('webhook_attempts').column('started_at').execute();
    },
  };
}
