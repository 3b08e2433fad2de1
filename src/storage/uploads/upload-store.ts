import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

/** One file of an upload, ready to store. */
export interface FileToStore {
  path: string;
  mimeType: string;
  bytes: Buffer;
  sha256: string;
}

/**
 * Where uploaded files live (110-media §5.1). Writes happen inside the record's transaction:
 * the database backend writes there, the directory backend writes to disk before the commit
 * and takes back what it wrote when the transaction fails. Deletion removes the files after the
 * record's deletion has committed.
 */
export interface UploadStore {
  /** Stores `files` as part of the transaction `trx`; `abandon` undoes it if `trx` then fails. */
  put(trx: Kysely<Database>, mediaId: number, files: readonly FileToStore[], createdUtc: string): Promise<void>;
  abandon(paths: readonly string[]): Promise<void>;
  /** Inside the deleting transaction. */
  removeWithin(trx: Kysely<Database>, paths: readonly string[]): Promise<void>;
  /** After the deleting transaction committed. */
  removeAfter(paths: readonly string[]): Promise<void>;
  read(path: string): Promise<Buffer | undefined>;
}
