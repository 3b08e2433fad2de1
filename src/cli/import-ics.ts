import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { systemClock } from '../domain/dates/clock.ts';
import { parseTimeZone } from '../domain/dates/time-zone.ts';
import { RestError } from '../domain/errors.ts';
import { IcalInputError, IcalTooLargeError } from '../domain/ical/ical-input.ts';
import { translate } from '../i18n/catalog.ts';
import { UrlBuilder } from '../render/urls.ts';
import { renderContext } from '../render/context.ts';
import { fetchIcal } from '../services/ical-fetch.ts';
import { importIcal, type ImportOptions, type ImportReport } from '../services/ical-import-service.ts';
import { UsersService } from '../services/users-service.ts';
import { openStorage } from '../storage/database.ts';

export const IMPORT_ICS_USAGE = `usage: calendar import ics FILE.ics|- [options]
  --url URL                  fetch the file (origin must be in CALENDAR_IMPORT_URL_ALLOWLIST)
  --dry-run                  parse, map and report; write nothing
  --as LOGIN                 author of created records (default CALENDAR_ADMIN_LOGIN)
  --status STATUS            publish (default), draft, pending or private
  --timezone ZONE            zone for floating and UTC times (default X-WR-TIMEZONE, else the site zone)
  --category NAME            extra category on every event (repeatable)
  --update overwrite|skip    what happens to changed, already imported events (default overwrite)
  --json                     print the report as JSON
exit codes: 0 done, 1 input rejected (nothing written), 2 usage, 3 storage failure (rolled back)`;

const STATUSES = ['publish', 'draft', 'pending', 'private'] as const;

class ImportUsageError extends Error {}

function readStdin(): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    process.stdin.on('data', (chunk: Buffer) => chunks.push(chunk));
    process.stdin.on('end', () => resolve(Buffer.concat(chunks)));
    process.stdin.on('error', reject);
  });
}

/** One line per item, then the totals (C.8 text output). */
function printReport(report: ImportReport): void {
  for (const item of report.items) {
    const detail = item.reason ?? (item.warnings ?? []).join(',');
    console.log([item.line, item.result, item.uid, item.title ?? '', detail].join('\t'));
  }
  const t = report.totals;
  console.log(`${report.dry_run ? 'dry run: ' : ''}created ${t.created}, updated ${t.updated}, unchanged ${t.unchanged}, skipped ${t.skipped}, ignored ${t.ignored}`);
}

/** The C.3 error object, as the HTTP route answers it. */
export function parseErrorBody(error: IcalInputError): Record<string, unknown> {
  return {
    code: 'ical-parse-error',
    message: translate('en', 'ical-parse-error', { line: error.line, reason: error.reason }),
    data: { status: 400, line: error.line, reason: error.reason, text: error.text },
  };
}

function options(values: Record<string, unknown>): ImportOptions {
  const status = (values.status as string | undefined) ?? 'publish';
  if (!(STATUSES as readonly string[]).includes(status)) throw new ImportUsageError(`--status must be one of ${STATUSES.join(', ')}`);
  const update = (values.update as string | undefined) ?? 'overwrite';
  if (update !== 'overwrite' && update !== 'skip') throw new ImportUsageError('--update must be overwrite or skip');
  const timezone = values.timezone as string | undefined;
  if (timezone !== undefined && parseTimeZone(timezone) === null) throw new ImportUsageError(`unknown time zone "${timezone}"`);
  return { dryRun: values['dry-run'] === true, status: status as ImportOptions['status'], timezone, categories: (values.category as string[] | undefined) ?? [], update };
}

/** `calendar import ics …` (50 C.1); resolves to the exit code. */
export async function importIcsCommand(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        url: { type: 'string' }, 'dry-run': { type: 'boolean' }, as: { type: 'string' }, status: { type: 'string' },
        timezone: { type: 'string' }, category: { type: 'string', multiple: true }, update: { type: 'string' }, json: { type: 'boolean' },
      },
    });
    if ((parsed.positionals.length === 1) === (parsed.values.url !== undefined)) throw new ImportUsageError('give one FILE (or -) or --url');
  } catch (error) {
    console.error(`calendar: ${error instanceof Error ? error.message : String(error)}`);
    console.error(IMPORT_ICS_USAGE);
    return 2;
  }
  const { positionals, values } = parsed;
  const json = values.json === true;
  const config = loadConfig();
  let importOptions: ImportOptions;
  try {
    importOptions = options(values);
  } catch (error) {
    console.error(`calendar: ${(error as Error).message}`);
    console.error(IMPORT_ICS_USAGE);
    return 2;
  }
  const storage = await openStorage(config.databaseUrl);
  try {
    const login = values.as ?? config.adminLogin;
    const user = await new UsersService(storage, systemClock).findByLogin(login);
    if (!user) {
      console.error(`calendar: no user "${login}" (see calendar users add)`);
      return 2;
    }
    const limits = { maxBytes: config.importMaxBytes, maxEvents: config.importMaxEvents };
    const bytes = values.url !== undefined
      ? await fetchIcal(values.url, config.importUrlAllowlist, limits.maxBytes)
      : positionals[0] === '-' ? await readStdin() : await readFile(positionals[0]);
    const now = systemClock();
    const ctx = renderContext({ lang: 'en', user, urls: new UrlBuilder(config.publicUrl ?? 'http://localhost', config.basePath, 'en'), now });
    // Progress only on a terminal: a pipe or a file gets the report alone.
    const progress = process.stderr.isTTY
      ? (done: number, total: number) => process.stderr.write(`\rimporting ${done}/${total}${done === total ? '\n' : ''}`)
      : undefined;
    const report = await importIcal(
      { db: storage.db, siteZone: config.timezone, limits, recurrence: config.recurrence },
      ctx, user, bytes, importOptions, progress,
    );
    if (json) console.log(JSON.stringify(report, null, 2));
    else printReport(report);
    return 0;
  } catch (error) {
    if (error instanceof IcalInputError) {
      if (json) console.log(JSON.stringify(parseErrorBody(error)));
      else console.error(`calendar: line ${error.line}: ${error.reason}${error.text ? ` (${error.text})` : ''}`);
      return 1;
    }
    if (error instanceof IcalTooLargeError) {
      console.error(`calendar: ${error.line === undefined ? '' : `line ${error.line}: `}${translate('en', 'ical-too-large', { limit: error.limit })}`);
      return 1;
    }
    if (error instanceof RestError) {
      console.error(`calendar: ${translate('en', error.messageKey, error.vars)}`);
      return error.code === 'could-not-import' ? 3 : 1;
    }
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') {
      console.error(`calendar: cannot read ${positionals[0]}`);
      return 1;
    }
    throw error;
  } finally {
    await storage.close();
  }
}
