import type { Kysely, Migration } from 'kysely';

/**
 * Webhook subscriptions that send records with their entries (80 §4.2 `include_objects`). A message
 * of such a subscription is enqueued with its entries alone and `objects_pending` set; its first
 * delivery attempt renders the objects into the stored body and clears the flag, so every retry
 * and redelivery sends the same bytes.
 */
export function webhookObjects(): Migration {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('webhooks').addColumn('include_objects', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('webhook_messages').addColumn('objects_pending', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    },
    // Lets an upgrade test rebuild a database as an earlier migration left it.
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('webhook_messages').dropColumn('objects_pending').execute();
      await db.schema.alterTable('webhooks').dropColumn('include_objects').execute();
    },
  };
}
