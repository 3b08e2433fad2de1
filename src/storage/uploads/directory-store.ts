import { randomBytes } from 'node:crypto';
import { accessSync, constants, mkdirSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { FileToStore, UploadStore } from './upload-store.ts';

/**
 * Files under CALENDAR_UPLOADS_DIR at their paths (110-media §5.1): each written under a
 * temporary name and renamed, so a reader never sees half a file. A crash may leave an
 * unreferenced file, never a record without its files.
 */
export class DirectoryStore implements UploadStore {
  private readonly root: string;

  /** Creates the directory; one the service cannot write to stops the start. */
  constructor(directory: string) {
    this.root = resolve(directory);
    mkdirSync(this.root, { recursive: true });
    accessSync(this.root, constants.W_OK);
  }

  private fileOf(path: string): string {
    return join(this.root, path);
  }

  async put(_trx: unknown, _mediaId: number, files: readonly FileToStore[]): Promise<void> {
    const written: string[] = [];
    try {
      for (const file of files) {
        const target = this.fileOf(file.path);
        await mkdir(dirname(target), { recursive: true });
        const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
        try {
          await writeFile(temporary, file.bytes, { flag: 'wx' });
          await rename(temporary, target);
        } finally {
          await rm(temporary, { force: true });
        }
        written.push(file.path);
      }
    } catch (error) {
      await this.abandon(written);
      throw error;
    }
  }

  async abandon(paths: readonly string[]): Promise<void> {
    await Promise.all(paths.map((path) => rm(this.fileOf(path), { force: true })));
  }

  async removeWithin(): Promise<void> {}

  async removeAfter(paths: readonly string[]): Promise<void> {
    await this.abandon(paths);
  }

  async read(path: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.fileOf(path));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }
}
