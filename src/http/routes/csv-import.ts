import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { can } from '../../domain/auth/capabilities.ts';
import type { Clock } from '../../domain/dates/clock.ts';
import { CSV_KINDS, type CsvKind } from '../../domain/csv/csv-columns.ts';
import { CsvFileError, type CsvTooLargeError } from '../../domain/csv/csv-file.ts';
import { parseTimeZone } from '../../domain/dates/time-zone.ts';
import { forbidden, invalidParam, RestError } from '../../domain/errors.ts';
import { oneOf, REASONS } from '../../domain/reasons.ts';
import { EDITION_PREFIXES, LANGUAGES } from '../../i18n/catalog.ts';
import { exportCsv } from '../../services/csv/csv-export.ts';
import { approvalOnPublication } from '../../services/submissions/approval.ts';
import { importCsv, type CsvImportOptions, type CsvImportReport } from '../../services/csv/csv-import.ts';
import { uidDomainOf } from '../../services/csv/csv-uid.ts';
import type { Storage } from '../../storage/database.ts';
import type { RenderContext } from '../../render/context.ts';
import { ADMIN_NAMESPACE } from '../../render/urls.ts';
import { createContext } from '../rest/context.ts';

interface CsvRouteDeps {
  config: Config;
  storage: Storage;
  clock: Clock;
}

const STATUSES = ['publish', 'draft', 'pending', 'private'];

/** 140 §7.1: a `text/csv` body, or a file part typed `text/csv` or named `*.csv`. */
export function isCsvPart(contentType: string, filename: string | undefined): boolean {
  return /^text\/csv\b/i.test(contentType) || /\.csv$/i.test(filename ?? '');
}

export function csvTooLarge(error: CsvTooLargeError): RestError {
  return new RestError(413, 'csv-too-large', { vars: { limit: error.limit }, data: { limit: error.limit } });
}

function csvOptions(fields: Record<string, unknown>, siteZone: string): CsvImportOptions {
  const text = (name: string) => (typeof fields[name] === 'string' ? (fields[name] as string) : undefined);
  const kind = text('kind') ?? 'events';
  if (!(CSV_KINDS as readonly string[]).includes(kind)) throw invalidParam('kind', oneOf(CSV_KINDS));
  const status = text('status') ?? 'publish';
  if (!STATUSES.includes(status)) throw invalidParam('status', oneOf(STATUSES));
  const timezone = text('timezone') ?? siteZone;
  if (parseTimeZone(timezone) === null) throw invalidParam('timezone', REASONS.timezone);
  const dateOrder = text('date_order') ?? 'auto';
  if (dateOrder !== 'auto' && dateOrder !== 'mdy' && dateOrder !== 'dmy') throw invalidParam('date_order', oneOf(['auto', 'mdy', 'dmy']));
  const dryRun = ['1', 'true', 'yes'].includes(String(fields.dry_run ?? '').toLowerCase());
  return { kind: kind as CsvKind, dryRun, status: status as CsvImportOptions['status'], timezone, dateOrder };
}

/** The origin whose host this service's UIDs carry: CALENDAR_PUBLIC_URL, else the request's. */
function originOf(request: FastifyRequest, config: Config): string {
  return config.publicUrl ?? `${request.protocol}://${request.host}`;
}

/** `POST {api}/calendar/admin/v1/imports` with a CSV file (140 §7.1): the report of §7.6. */
export async function importCsvFile(deps: CsvRouteDeps, request: FastifyRequest, ctx: RenderContext, file: Buffer, fields: Record<string, unknown>): Promise<CsvImportReport> {
  const options = csvOptions(fields, deps.config.timezone);
  try {
    return await importCsv(
      {
        db: deps.storage.db,
        siteZone: deps.config.timezone,
        limits: { maxBytes: deps.config.importMaxBytes, maxRows: deps.config.importMaxEvents },
        recurrence: deps.config.recurrence,
        uidDomain: uidDomainOf(originOf(request, deps.config), deps.config.basePath),
        publication: approvalOnPublication(deps.config),
      },
      ctx, ctx.user!, file, options,
    );
  } catch (error) {
    if (error instanceof CsvFileError) {
      throw new RestError(400, 'csv-parse-error', { vars: { line: error.line, reason: error.reason }, data: { line: error.line, reason: error.reason } });
    }
    throw error;
  }
}

/** `GET {api}/calendar/admin/v1/exports/{kind}.csv` (140 §7.1), administrators only. */
export function registerCsvExportRoute(app: FastifyInstance, deps: CsvRouteDeps): void {
  for (const lang of LANGUAGES) {
    app.get(`${deps.config.basePath}${EDITION_PREFIXES[lang]}/${ADMIN_NAMESPACE}/exports/:file`, async (request, reply) => {
      const ctx = createContext(request, { publicUrl: deps.config.publicUrl, basePath: deps.config.basePath, now: deps.clock(), namespace: ADMIN_NAMESPACE });
      if (!can(ctx.user, 'create_users')) throw forbidden(ctx.user === null);
      const match = /^(events|venues|organizers)\.csv$/.exec((request.params as { file: string }).file);
      if (!match) throw new RestError(404, 'rest_no_route');
      const status = (request.query as { status?: string }).status ?? 'any';
      if (status !== 'any' && status !== 'publish') throw invalidParam('status', oneOf(['any', 'publish']));
      const text = await exportCsv(deps.storage.db, match[1] as CsvKind, status, uidDomainOf(originOf(request, deps.config), deps.config.basePath));
      return reply.header('content-type', 'text/csv; charset=utf-8').header('cache-control', 'no-store').header('content-disposition', `attachment; filename="${match[1]}.csv"`).send(text);
    });
  }
}
