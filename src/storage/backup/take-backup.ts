import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BackupSettings } from '../../config.ts';
import { parseDatabaseUrl } from '../database.ts';
import { defaultBackupName, existingUploads, pruneBackups } from './backup-files.ts';
import { backupPostgres } from './postgres-backup.ts';
import { addUploads, backupSqlite, type BackupReport } from './sqlite-backup.ts';

export interface BackupRequest {
  databaseUrl: string;
  settings: BackupSettings;
  /** FILE; default: a dated name in the backup directory. */
  file?: string;
  keep?: number;
  now: Date;
}

/** Refused before anything was written (exit 2). */
export class BackupRefusedError extends Error {}

/** `calendar backup`'s work, shared with the scheduled runs (140 §3.5). */
export async function takeBackup(request: BackupRequest): Promise<BackupReport> {
  const parsed = parseDatabaseUrl(request.databaseUrl);
  if (parsed.dialect === 'sqlite' && parsed.path === ':memory:') throw new BackupRefusedError('an in-memory database has nothing to back up');
  const extension = parsed.dialect === 'sqlite' ? 'db' : 'dump';
  const file = request.file ?? join(request.settings.dir, defaultBackupName(request.now, extension));
  if (existsSync(file)) throw new BackupRefusedError(`${file} exists; a backup never overwrites a file`);
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch (error) {
    throw new BackupRefusedError(`cannot create ${dirname(file)}: ${(error as Error).message}`);
  }
  const uploads = existingUploads(request.settings.uploadsDir);
  const report = parsed.dialect === 'sqlite' ? await backupSqlite(parsed.path!, file, uploads) : await backupPostgres(request.databaseUrl, file);
  if (parsed.dialect === 'postgres' && uploads !== null) addUploads(report, uploads);
  if (request.keep !== undefined) pruneBackups(dirname(file), extension, request.keep);
  return report;
}

