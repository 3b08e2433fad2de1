import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { FileToStore, UploadStore } from './upload-store.ts';

/**
 * Files as rows of `media_files` (110-media §5.1), written and deleted in the record's own
 * transaction: for several instances on one PostgreSQL database without a shared disk.
 */
export class DatabaseStore implements UploadStore {
  constructor(private readonly db: Kysely<Database>) {}

  async put(trx: Kysely<Database>, mediaId: number, files: readonly FileToStore[], createdUtc: string): Promise<void> {
    for (const file of files) {
      await trx.insertInto('media_files').values({
        path: file.path,
        media_id: mediaId,
        mime_type: file.mimeType,
        bytes: file.bytes,
        byte_length: file.bytes.length,
        sha256: file.sha256,
        created_utc: createdUtc,
      }).execute();
    }
  }

  async abandon(): Promise<void> {}

  async removeWithin(trx: Kysely<Database>, paths: readonly string[]): Promise<void> {
    if (paths.length > 0) await trx.deleteFrom('media_files').where('path', 'in', paths).execute();
  }

  async removeAfter(): Promise<void> {}

  async read(path: string): Promise<Buffer | undefined> {
    const row = await this.db.selectFrom('media_files').select('bytes').where('path', '=', path).executeTakeFirst();
    return row === undefined ? undefined : Buffer.from(row.bytes);
  }
}
