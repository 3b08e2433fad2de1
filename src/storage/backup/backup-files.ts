import { closeSync, copyFileSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** A backup's default name: `calendar-YYYYMMDD-HHMMSS.db` (or `.dump`), UTC. */
export function defaultBackupName(now: Date, extension: 'db' | 'dump'): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `calendar-${stamp}.${extension}`;
}

const DEFAULT_NAME = /^calendar-\d{8}-\d{6}\.(db|dump)$/;

/** Where a backup's copy of the uploads directory goes: `{FILE without extension}.uploads/`. */
export function uploadsCopyPath(file: string): string {
  return `${file.replace(/\.(db|dump)$/, '')}.uploads`;
}

/**
 * `--keep N`: deletes the oldest default-named backups of `extension` in `dir` beyond the N newest,
 * with their uploads copies; other names are never touched. Returns the deleted files.
 */
export function pruneBackups(dir: string, extension: 'db' | 'dump', keep: number): string[] {
  const backups = readdirSync(dir).filter((name) => DEFAULT_NAME.test(name) && name.endsWith(`.${extension}`)).sort();
  const deleted = backups.slice(0, Math.max(0, backups.length - keep)).map((name) => join(dir, name));
  for (const file of deleted) {
    rmSync(file, { force: true });
    rmSync(uploadsCopyPath(file), { recursive: true, force: true });
  }
  return deleted;
}

/** Writes a file's (or directory's) data to the disk. */
export function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export interface UploadsCopy {
  files: number;
  bytes: number;
  /** Files listed but gone before they were copied (deleted meanwhile). */
  vanished: string[];
}

/**
 * Copies the uploads directory to `target`. Uploads are added, never rewritten, so copying after
 * the database leaves every file its rows name in the copy.
 */
export function copyUploads(source: string, target: string): UploadsCopy {
  const copy: UploadsCopy = { files: 0, bytes: 0, vanished: [] };
  mkdirSync(target, { recursive: true });
  for (const entry of readdirSync(source, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const from = join(entry.parentPath, entry.name);
    const to = join(target, relative(source, from));
    mkdirSync(dirname(to), { recursive: true });
    try {
      copyFileSync(from, to);
      copy.files += 1;
      copy.bytes += statSync(to).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      copy.vanished.push(from);
    }
  }
  return copy;
}

/** The uploads directory when it exists and holds anything worth copying. */
export function existingUploads(dir: string | null): string | null {
  return dir !== null && existsSync(dir) && statSync(dir).isDirectory() ? dir : null;
}
