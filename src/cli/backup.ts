import { createInterface } from 'node:readline/promises';
import { loadConfig } from '../config.ts';
import { BackupFailedError, type BackupReport } from '../storage/backup/sqlite-backup.ts';
import { PgDumpMissingError } from '../storage/backup/postgres-backup.ts';
import { BackupRefusedError, takeBackup } from '../storage/backup/take-backup.ts';
import { describeCounts } from '../storage/backup/record-counts.ts';
import { currentCounts, inspectBackup, restoreSqlite, RestoreRefusedError } from '../storage/backup/restore.ts';
import { parseDatabaseUrl } from '../storage/database.ts';
import { stringOption, UsageError, type CliArgs, type CliCommand } from './command.ts';

function keepOption(args: CliArgs): number | undefined {
  const raw = stringOption(args, 'keep');
  if (raw === undefined) return undefined;
  const keep = Number(raw);
  if (!/^\d+$/.test(raw) || keep < 1 || keep > 1000) throw new UsageError('--keep must be a number from 1 to 1000');
  return keep;
}

function printBackup(report: BackupReport, json: boolean): void {
  for (const warning of report.warnings) console.error(`calendar: warning: ${warning}`);
  if (json) {
    const { warnings: _warnings, ...object } = report;
    console.log(JSON.stringify(object));
    return;
  }
  console.log(`backup written and verified: ${report.file} (${report.bytes} bytes, ${report.seconds.toFixed(2)} s, integrity ok)`);
  if (report.counts) console.log(describeCounts(report.counts));
  if (report.uploads) console.log(`uploads: ${report.uploads.files} files, ${report.uploads.bytes} bytes`);
}

export const BACKUP_COMMAND: CliCommand = {
  words: ['backup'],
  synopsis: '[FILE] [--keep N] [--json]',
  summary: 'copy the database (and the uploads) to a verified file while the service runs',
  details: `  FILE        default: CALENDAR_BACKUP_DIR/calendar-YYYYMMDD-HHMMSS.db (.dump on PostgreSQL); never overwritten
  --keep N    then delete the oldest calendar-* backups in that directory beyond the N newest
  --json      print the report as one JSON object
  SQLite: an online copy checked with integrity_check; PostgreSQL: pg_dump --format=custom
exit codes: 0 written and verified, 1 copy or verification failed, 2 refused`,
  options: { keep: { type: 'string' }, json: { type: 'boolean' } },
  async run(args) {
    if (args.positionals.length > 1) throw new UsageError('at most one FILE');
    const keep = keepOption(args);
    const config = loadConfig();
    try {
      const report = await takeBackup({ databaseUrl: config.databaseUrl, settings: config.backup, file: args.positionals[0], keep, now: new Date() });
      printBackup(report, args.values.json === true);
      return 0;
    } catch (error) {
      if (error instanceof BackupRefusedError || error instanceof PgDumpMissingError) {
        console.error(`calendar: ${error.message}`);
        return 2;
      }
      if (error instanceof BackupFailedError) {
        console.error(`calendar: backup failed: ${error.message}`);
        return 1;
      }
      throw error;
    }
  },
};

async function confirmed(question: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await prompt.question(question)).trim());
  } finally {
    prompt.close();
  }
}

export const RESTORE_COMMAND: CliCommand = {
  words: ['restore'],
  synopsis: 'FILE [--force] [--json]',
  summary: 'replace the SQLite database by a backup (with the service stopped)',
  details: `  --force     do not ask (required without a terminal)
  --json      print the restored row counts as JSON
  The database is migrated to this version and the change feed reset (old cursors answer 410 reset);
  the replaced database is kept beside it as {db}.before-restore-YYYYMMDD-HHMMSS.
exit codes: 0 restored, 1 FILE unusable, 2 usage or refused, 3 a service is running`,
  options: { force: { type: 'boolean' }, json: { type: 'boolean' } },
  async run(args) {
    const [file, extra] = args.positionals;
    if (!file || extra !== undefined) throw new UsageError('one FILE is required');
    const config = loadConfig();
    const parsed = parseDatabaseUrl(config.databaseUrl);
    try {
      if (parsed.dialect === 'postgres') throw new RestoreRefusedError('restore with: pg_restore --clean --if-exists --no-owner --dbname URL FILE, then: calendar changes reset', 2);
      if (parsed.path === ':memory:') throw new RestoreRefusedError('an in-memory database cannot be restored', 2);
      const incoming = await inspectBackup(file);
      if (args.values.force !== true) {
        if (!process.stdin.isTTY) throw new RestoreRefusedError('without a terminal, --force is required', 2);
        const current = currentCounts(parsed.path!);
        console.error(`now:    ${current ? describeCounts(current) : 'no database'}`);
        console.error(`backup: ${describeCounts(incoming)}`);
        if (!(await confirmed(`replace ${parsed.path} by ${file}? [y/N] `))) throw new RestoreRefusedError('not restored', 2);
      }
      const result = await restoreSqlite(parsed.path!, file, config.backup.uploadsDir, new Date());
      if (args.values.json === true) console.log(JSON.stringify({ file, previous: result.previous, counts: result.counts }));
      else console.log(`restored ${file}: ${describeCounts(result.counts)}${result.previous ? `; the previous database is kept as ${result.previous}` : ''}`);
      return 0;
    } catch (error) {
      if (error instanceof RestoreRefusedError) {
        console.error(`calendar: ${error.message}`);
        return error.exitCode;
      }
      throw error;
    }
  },
};
