import { copyFileSync, existsSync, linkSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { resetFeed } from '../../services/feed-jobs.ts';
import { openStorage } from '../database.ts';
import { migrationProvider } from '../migrations/index.ts';
import { takeExclusiveServiceLock } from '../service-lock.ts';
import { copyUploads, fsyncPath, uploadsCopyPath } from './backup-files.ts';
import { recordCounts, type RecordCounts } from './record-counts.ts';
import { checkDatabaseFile } from './sqlite-backup.ts';

/** Why a restore did not happen, with the exit code of 140 §3.3. */
export class RestoreRefusedError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 | 3,
  ) {
    super(message);
  }
}

/** Reads a backup file: sound, a calendar database, not from a newer version; its row counts. */
export async function inspectBackup(file: string): Promise<RecordCounts> {
  if (!existsSync(file)) throw new RestoreRefusedError(`cannot read ${file}`, 1);
  let connection: BetterSqlite3.Database;
  try {
    connection = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new RestoreRefusedError(`${file} is not a SQLite database: ${(error as Error).message}`, 1);
  }
  try {
    const problem = (() => {
      try {
        return checkDatabaseFile(connection);
      } catch (error) {
        return (error as Error).message;
      }
    })();
    if (problem) throw new RestoreRefusedError(`${file} is damaged: ${problem}`, 1);
    const hasMigrations = connection.prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'").get();
    if (!hasMigrations) throw new RestoreRefusedError(`${file} is not a calendar database`, 1);
    const known = new Set(Object.keys(await migrationProvider('sqlite').getMigrations()));
    const applied = connection.prepare('select name from kysely_migration').pluck().all() as string[];
    if (applied.some((name) => !known.has(name))) throw new RestoreRefusedError('backup from a newer version', 2);
    return recordCounts(connection);
  } finally {
    connection.close();
  }
}

/** The row counts of the database now in place, or null when there is none yet. */
export function currentCounts(databasePath: string): RecordCounts | null {
  if (!existsSync(databasePath)) return null;
  const connection = new BetterSqlite3(databasePath, { fileMustExist: true });
  try {
    return recordCounts(connection);
  } finally {
    connection.close();
  }
}

function stamp(now: Date): string {
  return now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/** Puts `dir`'s current content aside and `replacement`'s in its place (uploads, 140 §3.3). */
function swapDirectory(dir: string, replacement: string, suffix: string): void {
  const incoming = `${dir}.restoring`;
  rmSync(incoming, { recursive: true, force: true });
  copyUploads(replacement, incoming);
  if (existsSync(dir)) renameSync(dir, `${dir}.${suffix}`);
  renameSync(incoming, dir);
}

export interface RestoreResult {
  counts: RecordCounts;
  /** The database as it was, kept beside it. */
  previous: string | null;
}

/**
 * 140 §3.3: replaces the SQLite database at `databasePath` by the backup `file`, brought to this
 * version's migrations and given a new change-feed epoch. Refused while a service holds the
 * database; before the final rename the old database is untouched, after it the restore is done.
 */
export async function restoreSqlite(databasePath: string, file: string, uploadsDir: string | null, now: Date): Promise<RestoreResult> {
  const restoring = `${databasePath}.restoring`;
  // A leftover of a restore killed before its rename.
  rmSync(restoring, { force: true });
  rmSync(`${restoring}-wal`, { force: true });
  rmSync(`${restoring}-shm`, { force: true });
  const lock = takeExclusiveServiceLock(databasePath);
  if (!lock) throw new RestoreRefusedError(`the database ${databasePath} is in use by a running service (stop it first)`, 3);
  try {
    copyFileSync(file, restoring);
    const storage = await openStorage(`sqlite:${restoring}`);
    try {
      await resetFeed(storage.db);
    } finally {
      await storage.close();
    }
    const checked = new BetterSqlite3(restoring, { fileMustExist: true });
    let counts: RecordCounts;
    try {
      checked.pragma('wal_checkpoint(TRUNCATE)');
      const problem = checkDatabaseFile(checked);
      if (problem) throw new RestoreRefusedError(`the migrated copy failed its check: ${problem}`, 1);
      counts = recordCounts(checked);
    } finally {
      checked.close();
    }
    fsyncPath(restoring);

    const suffix = `before-restore-${stamp(now)}`;
    let previous: string | null = null;
    if (existsSync(databasePath)) {
      const current = new BetterSqlite3(databasePath, { fileMustExist: true });
      try {
        current.pragma('wal_checkpoint(TRUNCATE)');
      } finally {
        current.close();
      }
      previous = `${databasePath}.${suffix}`;
      try {
        linkSync(databasePath, previous);
      } catch {
        copyFileSync(databasePath, previous);
      }
      rmSync(`${databasePath}-wal`, { force: true });
      rmSync(`${databasePath}-shm`, { force: true });
    }
    // The one atomic step.
    renameSync(restoring, databasePath);
    fsyncPath(dirname(databasePath));
    const uploadsBackup = uploadsCopyPath(file);
    if (uploadsDir !== null && existsSync(uploadsBackup)) swapDirectory(uploadsDir, uploadsBackup, suffix);
    return { counts, previous };
  } finally {
    lock.release();
  }
}
