import { h, type ComponentChildren } from 'preact';
import { RestError } from '../../../domain/errors.ts';
import { EDITION_PREFIXES, translate } from '../../../i18n/catalog.ts';
import { ADMIN_NAMESPACE } from '../../../render/urls.ts';
import { AdminFrame } from '../../../web/admin/frame.tsx';
import { ImportForm, ImportReportPage, type ImportReportView } from '../../../web/admin/imports.tsx';
import { isCsvPart } from '../../routes/csv-import.ts';
import { runImport } from '../../routes/ical-import.ts';
import type { AppDeps } from '../../routes/index.ts';
import type { AdminAnswer, AdminRequest } from '../admin-request.ts';
import { adminView } from '../admin-view.ts';
import { adminErrorPage } from '../errors.ts';
import type { AdminPage } from '../router.ts';

function framed(req: AdminRequest, title: string, children: ComponentChildren, status = 200): AdminAnswer {
  return { status, body: AdminFrame({ view: adminView(req), title, current: 'imports', children }) };
}

/** `{api}{edition}/calendar/admin/v1/exports/{kind}.csv?_wpnonce={token}` (140 §7.1 with 100 §6.2's nonce). */
function exportsUrl(req: AdminRequest, kind: string): string {
  const { apiPath } = req.deps.config;
  return `${apiPath}${EDITION_PREFIXES[req.lang]}/${ADMIN_NAMESPACE}/exports/${kind}.csv?_wpnonce=${encodeURIComponent(req.csrfToken)}`;
}

/** The form's fields as the API route reads them (`category[]` → `category`). */
function importFields(req: AdminRequest): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [name, value] of req.form.entries()) {
    if (name === '_token') continue;
    if (name === 'category[]') {
      if (value !== '') fields.category = [...((fields.category as string[] | undefined) ?? []), value];
    } else if (value !== '') fields[name] = value;
  }
  return fields;
}

/** POST: the API's import, its report as a page, its errors as pages with the same status and code (100 §10). */
async function importFile(req: AdminRequest): Promise<AdminAnswer> {
  const part = req.files.find((file) => file.field === 'file' && file.data.length > 0);
  try {
    const report = (await runImport(req.deps, req.raw, req.ctx, part?.data, part !== undefined && isCsvPart(part.mimetype, part.filename), importFields(req))) as ImportReportView;
    return framed(req, req.t('rec_import_report'), h(ImportReportPage, { view: adminView(req), report }));
  } catch (error) {
    if (!(error instanceof RestError)) throw error;
    const line = (error.data as { line?: number } | undefined)?.line;
    const message = translate(req.lang, error.messageKey, error.vars);
    return adminErrorPage(req, error.status, error.code, line === undefined || message.includes(String(line)) ? message : `${message} (${line})`);
  }
}

/** `/admin/imports/` (100 §10): administrators; multipart with `_token` first. */
export function importPages(deps: AppDeps): AdminPage[] {
  return [
    {
      path: '/imports/',
      access: 'administrator',
      multipart: { limit: deps.config.importMaxBytes },
      get: async (req) => framed(req, req.t('rec_imports'), h(ImportForm, { view: adminView(req), exportsUrl: (kind) => exportsUrl(req, kind) })),
      post: importFile,
    },
  ];
}
