import { readFile, writeFile } from 'node:fs/promises';
import { loadConfig } from '../config.ts';
import { CSV_KINDS, type CsvKind } from '../domain/csv/csv-columns.ts';
import { CsvFileError, CsvTooLargeError } from '../domain/csv/csv-file.ts';
import { systemClock } from '../domain/dates/clock.ts';
import { parseTimeZone } from '../domain/dates/time-zone.ts';
import { exportCsv, type ExportStatus } from '../services/csv/csv-export.ts';
import { importCsv, type CsvImportOptions, type CsvImportReport } from '../services/csv/csv-import.ts';
import { uidDomainOf } from '../services/csv/csv-uid.ts';
import { UsersService } from '../services/users-service.ts';
import { cliContext, stringOption, UsageError, withStorage, type CliArgs, type CliCommand } from './command.ts';
import { readStdin } from './import-ics.ts';
import { approvalOnPublication } from '../services/submissions/approval.ts';

const STATUSES = ['publish', 'draft', 'pending', 'private'] as const;

function kindOption(args: CliArgs): CsvKind {
  const kind = stringOption(args, 'kind') ?? 'events';
  if (!(CSV_KINDS as readonly string[]).includes(kind)) throw new UsageError(`--kind must be one of ${CSV_KINDS.join(', ')}`);
  return kind as CsvKind;
}

function importOptions(args: CliArgs, siteZone: string): CsvImportOptions {
  const status = stringOption(args, 'status') ?? 'publish';
  if (!(STATUSES as readonly string[]).includes(status)) throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
  const timezone = stringOption(args, 'timezone') ?? siteZone;
  if (parseTimeZone(timezone) === null) throw new UsageError(`unknown time zone "${timezone}"`);
  const dateOrder = stringOption(args, 'date-order') ?? 'auto';
  if (dateOrder !== 'auto' && dateOrder !== 'mdy' && dateOrder !== 'dmy') throw new UsageError('--date-order must be auto, mdy or dmy');
  return { kind: kindOption(args), dryRun: args.values['dry-run'] === true, status: status as CsvImportOptions['status'], timezone, dateOrder };
}

/** 140 §7.6 text output: a line per item, then the totals. */
function printReport(report: CsvImportReport): void {
  for (const warning of report.warnings) console.log(`warning\t${warning}`);
  for (const item of report.items) {
    const detail = item.reason ? [item.reason, item.column, item.value].filter((part) => part !== undefined).join(' ') : (item.warnings ?? []).join(',');
    const id = item.event_id ?? item.venue_id ?? item.organizer_id ?? '';
    console.log([`line ${item.line}`, item.result, id, item.title ?? '', detail].join('\t'));
  }
  const t = report.totals;
  console.log(`${report.dry_run ? 'dry run: ' : ''}created ${t.created}, updated ${t.updated}, unchanged ${t.unchanged}, skipped ${t.skipped}`);
}

export const IMPORT_CSV_COMMAND: CliCommand = {
  words: ['import', 'csv'],
  synopsis: 'FILE.csv|- [options]',
  summary: 'import events, venues or organizers from a CSV file (The Events Calendar\'s columns)',
  details: `  --kind events|venues|organizers   what the rows are (default events)
  --dry-run                  read, check and report; write nothing
  --as LOGIN                 author of created records (default CALENDAR_ADMIN_LOGIN)
  --status STATUS            publish (default), draft, pending or private; a Status column wins
  --timezone ZONE            zone of rows without Event Time Zone (default the site zone)
  --date-order auto|mdy|dmy  slashed dates: month first (auto, mdy) or day first (dmy)
  --json                     print the report as JSON
exit codes: 0 every row written or unchanged, 1 some rows skipped, 2 usage or file rejected, 3 storage failure`,
  options: {
    kind: { type: 'string' }, 'dry-run': { type: 'boolean' }, as: { type: 'string' }, status: { type: 'string' },
    timezone: { type: 'string' }, 'date-order': { type: 'string' }, json: { type: 'boolean' },
  },
  async run(args) {
    const [file, extra] = args.positionals;
    if (!file || extra !== undefined) throw new UsageError('one FILE (or -) is required');
    const config = loadConfig();
    const options = importOptions(args, config.timezone);
    const bytes = file === '-' ? await readStdin() : await readFile(file).catch(() => {
      throw new UsageError(`cannot read ${file}`);
    });
    return withStorage(async (storage) => {
      const login = stringOption(args, 'as') ?? config.adminLogin;
      const user = await new UsersService(storage, systemClock).findByLogin(login);
      if (!user) throw new UsageError(`no user "${login}" (see calendar users add)`);
      const origin = config.publicUrl ?? 'http://localhost';
      try {
        const report = await importCsv(
          { db: storage.db, siteZone: config.timezone, limits: { maxBytes: config.importMaxBytes, maxRows: config.importMaxEvents }, recurrence: config.recurrence, uidDomain: uidDomainOf(origin, config.basePath), publication: approvalOnPublication(config) },
          cliContext(config, user, systemClock()), user, bytes, options,
        );
        if (args.values.json === true) console.log(JSON.stringify(report, null, 2));
        else printReport(report);
        return report.totals.skipped > 0 ? 1 : 0;
      } catch (error) {
        if (error instanceof CsvFileError || error instanceof CsvTooLargeError) {
          console.error(`calendar: ${error.message}`);
          return 2;
        }
        console.error(`calendar: ${(error as Error).message}`);
        return 3;
      }
    });
  },
};

export const EXPORT_CSV_COMMAND: CliCommand = {
  words: ['export', 'csv'],
  synopsis: '--kind events|venues|organizers FILE|- [--status publish|any]',
  summary: 'write events, venues or organizers as a CSV file the importer reads back',
  details: '  --kind KIND     events (default), venues or organizers\n  --status any    every status but trash (default); publish: published only\n  FILE            - writes to standard output',
  options: { kind: { type: 'string' }, status: { type: 'string' } },
  async run(args) {
    const [file, extra] = args.positionals;
    if (!file || extra !== undefined) throw new UsageError('one FILE (or -) is required');
    const kind = kindOption(args);
    const status = stringOption(args, 'status') ?? 'any';
    if (status !== 'any' && status !== 'publish') throw new UsageError('--status must be publish or any');
    return withStorage(async (storage, config) => {
      const text = await exportCsv(storage.db, kind, status as ExportStatus, uidDomainOf(config.publicUrl ?? 'http://localhost', config.basePath));
      if (file === '-') process.stdout.write(text);
      else await writeFile(file, text);
    });
  },
};
