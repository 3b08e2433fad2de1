import { linkSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { copyUploads, fsyncPath, uploadsCopyPath, type UploadsCopy } from './backup-files.ts';
import { recordCounts, type RecordCounts } from './record-counts.ts';

export interface BackupReport {
  file: string;
  bytes: number;
  seconds: number;
  integrity: 'ok';
  counts?: RecordCounts;
  uploads?: { files: number; bytes: number };
  warnings: string[];
}

/** The copy or its check failed: nothing was left at the target (exit 1). */
export class BackupFailedError extends Error {}

/** A copy that is not a sound calendar database: integrity, foreign keys. */
export function checkDatabaseFile(connection: BetterSqlite3.Database): string | null {
  const integrity = connection.pragma('integrity_check', { simple: true });
  if (integrity !== 'ok') return `integrity check: ${String(integrity)}`;
  const orphans = connection.pragma('foreign_key_check') as unknown[];
  if (orphans.length > 0) return `foreign key check: ${orphans.length} rows`;
  return null;
}

/**
 * 140 §3.1: an online copy of the SQLite database at `databasePath` into `target` (which must not
 * exist), verified before it gets its name; then the uploads directory beside it.
 */
export async function backupSqlite(databasePath: string, target: string, uploadsDir: string | null): Promise<BackupReport> {
  const started = performance.now();
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  const source = new BetterSqlite3(databasePath, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    // After the first step the whole copy is one sqlite3_backup_step in one read snapshot: the
    // service keeps writing into its WAL meanwhile, and no write restarts the copy (which, done
    // page by page, a write through another connection would).
    await source.backup(partial, { progress: () => 2 ** 31 - 1 });
  } catch (error) {
    rmSync(partial, { force: true });
    throw new BackupFailedError(`copy failed: ${(error as Error).message}`);
  } finally {
    source.close();
  }
  let counts: RecordCounts;
  try {
    const copy = new BetterSqlite3(partial, { fileMustExist: true });
    try {
      // One self-contained file: a backup needs no -wal beside it.
      copy.pragma('journal_mode = DELETE');
      const problem = checkDatabaseFile(copy);
      if (problem) throw new BackupFailedError(problem);
      counts = recordCounts(copy);
    } finally {
      copy.close();
    }
    fsyncPath(partial);
    // A link, not a rename: it fails rather than replace a file that appeared meanwhile.
    linkSync(partial, target);
    rmSync(partial);
    fsyncPath(dirname(target));
  } catch (error) {
    rmSync(partial, { force: true });
    throw error instanceof BackupFailedError ? error : new BackupFailedError(`verification failed: ${(error as Error).message}`);
  }
  const report: BackupReport = { file: target, bytes: statSync(target).size, seconds: 0, integrity: 'ok', counts, warnings: [] };
  if (uploadsDir !== null) addUploads(report, uploadsDir);
  report.seconds = (performance.now() - started) / 1000;
  return report;
}

/** The uploads directory copied after the database (140 §3.1). */
export function addUploads(report: BackupReport, uploadsDir: string): void {
  const copied: UploadsCopy = copyUploads(uploadsDir, uploadsCopyPath(report.file));
  report.uploads = { files: copied.files, bytes: copied.bytes };
  report.warnings.push(...copied.vanished.map((file) => `upload deleted while copying: ${file}`));
}
