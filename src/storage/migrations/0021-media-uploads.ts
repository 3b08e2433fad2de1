import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../database.ts';
import { existingColumns } from './existing-columns.ts';

/**
 * Uploaded images (110-media): the media row gains what an upload has (source, slug, title, alt
 * text, author, the full file's path and type, its sizes as JSON); `media_paths` records every
 * path ever issued with its type and digest — a deleted item's row stays, unlinked, so that a
 * path never names other bytes; `media_files` holds the bytes when CALENDAR_UPLOADS=database.
 */
export function mediaUploads(dialect: Dialect): Migration {
  const binary = dialect === 'postgres' ? 'bytea' : 'blob';
  return {
    async up(db: Kysely<any>): Promise<void> {
      const columns: Array<[string, 'text' | 'integer', string | number | null]> = [
        ['source', 'text', 'url'],
        ['original_url', 'text', ''],
        ['file', 'text', ''],
        ['mime_type', 'text', ''],
        ['slug', 'text', ''],
        ['title', 'text', ''],
        ['alt_text', 'text', ''],
        ['author', 'integer', 0],
        ['sizes', 'text', '[]'],
        ['modified_utc', 'text', null],
      ];
      // Rerunnable (a test re-applies the migrations after 0019 to an upgraded copy): what exists stays.
      const existing = await existingColumns(db, 'media');
      for (const [name, type, fallback] of columns) {
        if (existing.has(name)) continue;
        await db.schema.alterTable('media').addColumn(name, type, (c) => (fallback === null ? c : c.notNull().defaultTo(fallback))).execute();
      }
      await db.schema.createTable('media_paths').ifNotExists()
        .addColumn('path', 'text', (c) => c.primaryKey())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('media_id', 'integer')
        .addColumn('mime_type', 'text', (c) => c.notNull())
        .addColumn('byte_length', 'integer', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('media_paths_slug').ifNotExists().on('media_paths').column('slug').execute();
      await db.schema.createIndex('media_paths_media').ifNotExists().on('media_paths').column('media_id').execute();
      await db.schema.createTable('media_files').ifNotExists()
        .addColumn('path', 'text', (c) => c.primaryKey())
        .addColumn('media_id', 'integer', (c) => c.notNull())
        .addColumn('mime_type', 'text', (c) => c.notNull())
        .addColumn('bytes', binary, (c) => c.notNull())
        .addColumn('byte_length', 'integer', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('created_utc', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('media_files_media').ifNotExists().on('media_files').column('media_id').execute();
      await db.schema.createIndex('media_created').ifNotExists().on('media').columns(['created_utc', 'id']).execute();
    },
  };
}
