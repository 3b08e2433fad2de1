import { type Kysely, type CreateTableBuilder } from 'kysely';
import type { Dialect } from '../database.ts';

/** Text columns every post-like table has (events, venues, organizers). */
function postColumns<T extends string>(table: CreateTableBuilder<T, never>): CreateTableBuilder<T, never> {
  return table
    .addColumn('id', 'integer', (c) => c.primaryKey().references('objects.id').onDelete('cascade'))
    .addColumn('author', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('pre_trash_status', 'text')
    .addColumn('slug', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('pre_trash_slug', 'text')
    .addColumn('password', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('excerpt', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('date_local', 'text', (c) => c.notNull())
    .addColumn('date_utc', 'text', (c) => c.notNull())
    .addColumn('modified_local', 'text', (c) => c.notNull())
    .addColumn('modified_utc', 'text', (c) => c.notNull())
    .addColumn('image_id', 'integer', (c) => c.references('objects.id').onDelete('set null'));
}

export function initialSchema(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const serial = <T extends string>(table: CreateTableBuilder<T, never>) =>
        dialect === 'postgres'
          ? table.addColumn('id', 'serial', (c) => c.primaryKey())
          : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());

      await db.schema.createTable('settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();

      await serial(db.schema.createTable('users'))
        .addColumn('login', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('created_utc', 'text', (c) => c.notNull())
        .execute();

      await serial(db.schema.createTable('app_passwords'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_utc', 'text', (c) => c.notNull())
        .addColumn('last_used_utc', 'text')
        .execute();
      await db.schema.createIndex('app_passwords_user').on('app_passwords').column('user_id').execute();

      await serial(db.schema.createTable('objects'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .execute();

      await db.schema.createTable('media')
        .addColumn('id', 'integer', (c) => c.primaryKey().references('objects.id').onDelete('cascade'))
        .addColumn('url', 'text', (c) => c.notNull().unique())
        .addColumn('extension', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('width', 'integer')
        .addColumn('height', 'integer')
        .addColumn('filesize', 'integer')
        .addColumn('created_utc', 'text', (c) => c.notNull())
        .execute();

      await postColumns(db.schema.createTable('venues'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('city', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('country', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('province', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('state', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('zip', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('website', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('stateprovince', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('show_map', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('show_map_link', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();

      await postColumns(db.schema.createTable('organizers'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('website', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
        .execute();

      await postColumns(db.schema.createTable('events'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('start_local', 'text', (c) => c.notNull())
        .addColumn('end_local', 'text', (c) => c.notNull())
        .addColumn('start_utc', 'text', (c) => c.notNull())
        .addColumn('end_utc', 'text', (c) => c.notNull())
        .addColumn('timezone', 'text', (c) => c.notNull())
        .addColumn('timezone_abbr', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('all_day', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('cost', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('currency_symbol', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('currency_position', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('website', 'text')
        .addColumn('show_map', 'integer')
        .addColumn('show_map_link', 'integer')
        .addColumn('hide_from_listings', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('sticky', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('featured', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('venue_id', 'integer', (c) => c.references('venues.id').onDelete('set null'))
        .addColumn('post_parent', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      await db.schema.createTable('event_organizers')
        .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('organizer_id', 'integer', (c) => c.notNull().references('organizers.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('event_organizers_pk', ['event_id', 'organizer_id'])
        .execute();
      await db.schema.createIndex('event_organizers_organizer').on('event_organizers').column('organizer_id').execute();

      await serial(db.schema.createTable('terms'))
        .addColumn('taxonomy', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('parent', 'integer', (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint('terms_taxonomy_slug', ['taxonomy', 'slug'])
        .execute();
      await db.schema.createIndex('terms_taxonomy_parent').on('terms').columns(['taxonomy', 'parent']).execute();

      await db.schema.createTable('event_terms')
        .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('term_id', 'integer', (c) => c.notNull().references('terms.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('event_terms_pk', ['event_id', 'term_id'])
        .execute();
      await db.schema.createIndex('event_terms_term').on('event_terms').columns(['term_id', 'event_id']).execute();

      // The list filters of the reference: date windows on UTC or local wall clock per status,
      // featured, slug lookups per kind, venue links and publication-date ordering.
      await db.schema.createIndex('events_status_start_local').on('events').columns(['status', 'start_local']).execute();
      await db.schema.createIndex('events_status_start_utc').on('events').columns(['status', 'start_utc']).execute();
      await db.schema.createIndex('events_end_utc').on('events').column('end_utc').execute();
      await db.schema.createIndex('events_end_local').on('events').column('end_local').execute();
      await db.schema.createIndex('events_featured').on('events').columns(['featured', 'start_local']).execute();
      await db.schema.createIndex('events_slug').on('events').column('slug').execute();
      await db.schema.createIndex('events_venue').on('events').column('venue_id').execute();
      await db.schema.createIndex('events_status_date').on('events').columns(['status', 'date_local']).execute();
      for (const table of ['venues', 'organizers'] as const) {
        await db.schema.createIndex(`${table}_slug`).on(table).column('slug').execute();
        await db.schema.createIndex(`${table}_status_date`).on(table).columns(['status', 'date_local']).execute();
      }
    },
  };
}
