import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { can } from '../../domain/auth/capabilities.ts';
import type { Clock } from '../../domain/dates/clock.ts';
import { parseTimeZone } from '../../domain/dates/time-zone.ts';
import { forbidden, invalidParam, RestError } from '../../domain/errors.ts';
import { oneOf, REASONS } from '../../domain/reasons.ts';
import { IcalInputError, IcalTooLargeError } from '../../domain/ical/ical-input.ts';
import { EDITION_PREFIXES, LANGUAGES } from '../../i18n/catalog.ts';
import { fetchIcal } from '../../services/ical-fetch.ts';
import { importIcal, type ImportOptions } from '../../services/ical-import-service.ts';
import type { Storage } from '../../storage/database.ts';
import { parseQueryString } from '../plugins/body-parsers.ts';
import { createContext, type RestContext } from '../rest/context.ts';
import { sendJson } from '../rest/send.ts';
import { ADMIN_NAMESPACE } from '../../render/urls.ts';
import { csvTooLarge, importCsvFile, isCsvPart } from './csv-import.ts';
import { CsvTooLargeError } from '../../domain/csv/csv-file.ts';

export interface ImportRouteDeps {
  config: Config;
  storage: Storage;
  clock: Clock;
}

const STATUSES = ['publish', 'draft', 'pending', 'private'];

function tooLarge(limit: string, line?: number): RestError {
  return new RestError(413, 'ical-too-large', { vars: { limit }, data: { reason: 'too-large', limit, ...(line === undefined ? {} : { line }) } });
}

/** The options of C.1 from form fields and query parameters; a bad one is `rest_invalid_param`. */
function importOptions(fields: Record<string, unknown>): ImportOptions {
  const text = (name: string) => (typeof fields[name] === 'string' ? (fields[name] as string) : undefined);
  const status = text('status') ?? 'publish';
  if (!STATUSES.includes(status)) throw invalidParam('status', oneOf(STATUSES));
  const update = text('update') ?? 'overwrite';
  if (update !== 'overwrite' && update !== 'skip') throw invalidParam('update', oneOf(['overwrite', 'skip']));
  const timezone = text('timezone');
  if (timezone !== undefined && parseTimeZone(timezone) === null) throw invalidParam('timezone', REASONS.timezone);
  const given = fields.category;
  const categories = (Array.isArray(given) ? given : given === undefined ? [] : [given]).filter((item): item is string => typeof item === 'string');
  const dryRun = ['1', 'true', 'yes'].includes(String(fields.dry_run ?? '').toLowerCase());
  return { dryRun, status: status as ImportOptions['status'], timezone, categories, update };
}

/** The file part and the other fields of a multipart body; the file is read up to the byte cap. */
async function readMultipart(request: FastifyRequest, maxBytes: number): Promise<{ file?: Buffer; csv: boolean; fields: Record<string, unknown> }> {
  const pairs: [string, string][] = [];
  let file: Buffer | undefined;
  let csv = false;
  for await (const part of request.parts({ limits: { fileSize: maxBytes } })) {
    if (part.type === 'file') {
      const bytes = await part.toBuffer();
      if (part.fieldname === 'file') {
        file = bytes;
        csv = isCsvPart(part.mimetype, part.filename);
      }
    } else if (typeof part.value === 'string') {
      pairs.push([part.fieldname, part.value]);
    }
  }
  return { file, csv, fields: parseQueryString(new URLSearchParams(pairs).toString()) };
}

/**
 * An import once the request is read (50 C.1; CSV 140 §7): a CSV file, an iCalendar file, or the
 * iCalendar file at `url`; the report, or a RestError. The API route and the back office's
 * imports page (100 §10) both run it.
 */
export async function runImport(deps: ImportRouteDeps, request: FastifyRequest, ctx: RestContext, file: Buffer | undefined, csv: boolean, fields: Record<string, unknown>): Promise<unknown> {
  if (csv && file !== undefined) return importCsvFile(deps, request, ctx, file, fields);
  const options = importOptions(fields);
  if (file === undefined) {
    if (typeof fields.url !== 'string' || fields.url === '') throw new RestError(400, 'rest_missing_callback_param', { vars: { params: 'file' }, data: { params: ['file'] } });
    file = Buffer.from(await fetchIcal(fields.url, deps.config.importUrlAllowlist, deps.config.importMaxBytes));
  }
  try {
    const limits = { maxBytes: deps.config.importMaxBytes, maxEvents: deps.config.importMaxEvents };
    return await importIcal({ db: deps.storage.db, siteZone: deps.config.timezone, limits, recurrence: deps.config.recurrence }, ctx, ctx.user!, file, options);
  } catch (error) {
    if (error instanceof IcalInputError) {
      throw new RestError(400, 'ical-parse-error', {
        vars: { line: error.line, reason: error.reason },
        data: { line: error.line, reason: error.reason, text: error.text },
      });
    }
    throw error;
  }
}

/**
 * `POST {base}/calendar/admin/v1/imports` (50 C.1, C.10): administrators only; the file as a
 * multipart part `file`, a `text/calendar` body, or a `url` to fetch. This is the one route that
 * reads uploaded files, with CALENDAR_IMPORT_MAX_BYTES as its body limit.
 */
export async function registerImportRoute(app: FastifyInstance, deps: ImportRouteDeps): Promise<void> {
  const maxBytes = deps.config.importMaxBytes;
  await app.register(async (scope) => {
    scope.addContentTypeParser(['text/calendar', 'text/csv'], { parseAs: 'buffer', bodyLimit: maxBytes }, (_request, body, done) => done(null, body));
    scope.setErrorHandler((error: FastifyError & { code?: string }, _request, _reply) => {
      if (error instanceof IcalTooLargeError) throw tooLarge(error.limit, error.line);
      if (error instanceof CsvTooLargeError) throw csvTooLarge(error);
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.code === 'FST_REQ_FILE_TOO_LARGE' || error.statusCode === 413) throw tooLarge('bytes');
      throw error;
    });
    for (const lang of LANGUAGES) {
      const url = `${deps.config.apiPath}${EDITION_PREFIXES[lang]}/${ADMIN_NAMESPACE}/imports`;
      scope.post(url, { bodyLimit: maxBytes, config: { readsFiles: true } }, async (request, reply) => {
        const ctx = createContext(request, { publicUrl: deps.config.publicUrl, basePath: deps.config.basePath, apiPath: deps.config.apiPath, now: deps.clock(), namespace: ADMIN_NAMESPACE });
        if (!can(ctx.user, 'create_users')) throw forbidden(ctx.user === null);
        let file: Buffer | undefined;
        let csv = false;
        let fields = { ...(request.query as Record<string, unknown>) };
        if (request.isMultipart()) {
          const read = await readMultipart(request, maxBytes);
          file = read.file;
          csv = read.csv;
          fields = { ...fields, ...read.fields };
        } else if (Buffer.isBuffer(request.body)) {
          file = request.body;
          csv = isCsvPart(request.headers['content-type'] ?? '', undefined);
        } else if (typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body)) {
          fields = { ...fields, ...(request.body as Record<string, unknown>) };
        } else if (request.headers['content-type'] !== undefined) {
          // A body of any other type (read by nobody, 50 C.9) is a mistake the caller should hear of.
          throw new RestError(415, 'ical-unsupported-media-type');
        }
        return sendJson(request, reply, 200, await runImport(deps, request, ctx, file, csv, fields));
      });
    }
  });
}
