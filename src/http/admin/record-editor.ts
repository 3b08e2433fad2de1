import { h } from 'preact';
import type { MessageKey } from '../../i18n/catalog.ts';
import { AdminFrame } from '../../web/admin/frame.tsx';
import type { FieldErrors } from '../../web/admin/form-parts.tsx';
import { LinkedEvents, RecordForm, type FieldSpec, type FormButton, type LinkedEvent } from '../../web/admin/record-form.tsx';
import { adminView } from './admin-view.ts';
import type { AdminAnswer, AdminRequest, FormFields } from './admin-request.ts';
import { callApi, type ApiOutcome } from './call-api.ts';
import { adminErrorPage, apiErrorsToFields, refusalPage } from './errors.ts';
import type { AdminPage } from './router.ts';
import type { Access } from './admin-view.ts';

/** What differs between the editors of venues, organizers, categories and tags (100 §9). */
export interface RecordKind {
  /** The list path below /admin, e.g. `/venues/`. */
  listPath: string;
  collectionRoute: string;
  itemRoute: string;
  access: Access;
  titles: { create: MessageKey; edit: MessageKey };
  /** `trash` (venues, organizers: `status` and publish too) or `delete` (terms: permanent). */
  removal: 'trash' | 'delete';
  fields(req: AdminRequest): Promise<FieldSpec[]>;
  /** Fields whose empty value the API refuses: left out of the request when empty. */
  omitWhenEmpty?: readonly string[];
  /** The linked events section (venues, organizers). */
  linked?: { param: string; heading: MessageKey };
}

/** Values of a new record's form. */
const NEW_DEFAULTS: Record<string, string> = { show_map: '1', show_map_link: '1', status: 'draft', parent: '0' };

/** Stored record (the API's object) → form values. */
export function recordValues(fields: FieldSpec[], record: Record<string, any>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const { name, kind } of fields) {
    const value = name === 'state' ? (record.state ?? record.stateprovince) : record[name];
    if (kind === 'checkbox') values[name] = value ? '1' : '';
    else if (name === 'image') values[name] = value && typeof value === 'object' ? String(value.id ?? '') : '';
    else if (name === 'parent') values[name] = String(value ?? 0);
    else values[name] = value === undefined || value === null || value === false ? '' : String(value);
  }
  return values;
}

/** Submitted form → form values (to show again after a refusal). */
export function submittedValues(fields: FieldSpec[], form: FormFields): Record<string, string> {
  return Object.fromEntries(fields.map(({ name, kind }) => [name, kind === 'checkbox' ? (form.has(name) ? '1' : '') : (form.get(name) ?? '')]));
}

/**
 * Form values → API parameters (100 §8.2, §9): the same names; a checkbox sends its state; on a
 * new record empty text is left out (the API's defaults apply), on an existing one it clears.
 */
export function recordParams(fields: FieldSpec[], values: Record<string, string>, options: { creating: boolean; publish: boolean; omitWhenEmpty?: readonly string[] }): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const { name, kind } of fields) {
    const value = values[name] ?? '';
    if (kind === 'checkbox') params[name] = value === '1';
    else if (value === '' && (options.creating || options.omitWhenEmpty?.includes(name))) continue;
    else params[name] = value;
  }
  if (options.publish) params.status = 'publish';
  return params;
}

/** 409: the labels of the fields whose stored value differs from the one submitted. */
export function changedFields(fields: FieldSpec[], submitted: Record<string, string>, stored: Record<string, string>, label: (field: FieldSpec) => string): string[] {
  return fields.filter((field) => field.name !== 'password' && (submitted[field.name] ?? '') !== (stored[field.name] ?? '')).map(label);
}

interface FormState {
  values: Record<string, string>;
  revision?: string;
  errors?: FieldErrors;
  unplaced?: string[];
  conflict?: string[];
}

function buttons(req: AdminRequest, kind: RecordKind, id: number | null): FormButton[] {
  const t = req.t;
  if (kind.removal === 'delete') {
    return [{ value: 'save', label: t(id === null ? 'rec_create' : 'rec_update') }, ...(id === null ? [] : [{ value: 'delete', label: t('rec_delete'), secondary: true }])];
  }
  const publish = req.user.role === 'contributor' ? 'rec_submit_review' : 'rec_publish';
  return [
    { value: 'save', label: t(id === null ? 'rec_save_draft' : 'rec_update') },
    { value: 'publish', label: t(publish), secondary: true },
    ...(id === null ? [] : [{ value: 'trash', label: t('rec_trash'), secondary: true }]),
  ];
}

async function linkedEvents(req: AdminRequest, kind: RecordKind, id: number): Promise<LinkedEvent[]> {
  if (!kind.linked) return [];
  const outcome = await callApi(req, { method: 'GET', route: '/events', params: { [kind.linked.param]: id, per_page: 20, status: 'any', start_date: '1900-01-01 00:00:00', end_date: '2999-12-31 23:59:59' } });
  if (!outcome.ok) return [];
  return (outcome.body.events as Record<string, any>[]).map((event) => ({ id: event.id, title: event.title, start: event.start_date }));
}

async function page(req: AdminRequest, kind: RecordKind, id: number | null, state: FormState, status = 200, headers: Record<string, string> = {}): Promise<AdminAnswer> {
  const view = adminView(req);
  const fields = await kind.fields(req);
  const title = req.t(id === null ? kind.titles.create : kind.titles.edit);
  const linked = id !== null && kind.linked ? await linkedEvents(req, kind, id) : null;
  const body = AdminFrame({
    view,
    title,
    current: kind.listPath.replaceAll('/', ''),
    children: [
    h(RecordForm, {
      view,
      action: req.adminUrl(id === null ? `${kind.listPath}new` : `${kind.listPath}${id}/`),
      fields,
      values: state.values,
      errors: state.errors ?? {},
      unplaced: state.unplaced ?? [],
      revision: state.revision,
      buttons: buttons(req, kind, id),
      conflict: state.conflict,
    }),
    linked && kind.linked
      ? h(LinkedEvents, { view, heading: req.t(kind.linked.heading), events: linked, listHref: req.adminUrl('/events/', { [kind.linked.param]: id ?? undefined }) })
      : null,
    ],
  });
  return { status, body, headers };
}

function failure(req: AdminRequest, outcome: Extract<ApiOutcome, { ok: false }>): AdminAnswer {
  // An unknown id is the API's 400 on `id` (or 404): a 404 page here (100 §2).
  if (outcome.status === 404 || (outcome.status === 400 && 'id' in outcome.details)) return adminErrorPage(req, 404, 'admin_not_found');
  if (outcome.status === 410) return adminErrorPage(req, 410, outcome.code, outcome.message);
  return refusalPage(req, outcome);
}

async function load(req: AdminRequest, kind: RecordKind, id: number): Promise<ApiOutcome> {
  return callApi(req, { method: 'GET', route: kind.itemRoute, params: { id, context: 'edit' } });
}

async function save(req: AdminRequest, kind: RecordKind, id: number | null): Promise<AdminAnswer> {
  const fields = await kind.fields(req);
  const action = req.form.get('action') ?? 'save';
  if (id !== null && action === kind.removal) {
    const removed = await callApi(req, { method: 'DELETE', route: kind.itemRoute, params: { id }, ifMatch: req.form.get('revision') });
    if (!removed.ok) return failure(req, removed);
    return { redirect: req.adminUrl(kind.listPath, { message: kind.removal === 'trash' ? 'rec_trashed' : 'rec_deleted' }), status: 303 };
  }
  const values = submittedValues(fields, req.form);
  const revision = req.form.get('revision');
  const params = recordParams(fields, values, { creating: id === null, publish: action === 'publish', omitWhenEmpty: kind.omitWhenEmpty });
  const outcome = await callApi(req, {
    method: 'POST',
    route: id === null ? kind.collectionRoute : kind.itemRoute,
    params: id === null ? params : { ...params, id },
    ifMatch: id === null ? undefined : revision,
  });
  if (outcome.ok) {
    const saved = outcome.body as { id: number; status?: string };
    const message = saved.status === 'publish' ? 'rec_published' : saved.status === 'pending' ? 'rec_submitted' : 'rec_saved';
    return { redirect: req.adminUrl(`${kind.listPath}${saved.id}/`, { message }), status: 303 };
  }
  if (outcome.status === 412 && id !== null) {
    const current = await load(req, kind, id);
    if (!current.ok) return failure(req, current);
    const stored = recordValues(fields, current.body);
    const conflict = changedFields(fields, values, stored, (field) => req.t(field.label));
    return page(req, kind, id, { values, revision: current.etag, conflict }, 409, { 'X-Calendar-Error': 'admin_edit_conflict' });
  }
  if (outcome.status === 400 || outcome.status === 422) {
    const fieldMap = Object.fromEntries(fields.map((field) => [field.name, field.name]));
    const { errors, unplaced } = apiErrorsToFields(outcome, fieldMap);
    return page(req, kind, id, { values, revision, errors, unplaced }, 422, { 'X-Calendar-Error': outcome.code });
  }
  return failure(req, outcome);
}

/** The `new` and `{id}/` pages of one kind of record. */
export function recordEditorPages(kind: RecordKind): AdminPage[] {
  const idOf = (req: AdminRequest) => Number(req.params.id);
  return [
    {
      path: `${kind.listPath}new`,
      access: kind.access,
      get: async (req) => page(req, kind, null, { values: { ...NEW_DEFAULTS } }),
      post: (req) => save(req, kind, null),
    },
    {
      path: `${kind.listPath}:id(^\\d+)/`,
      access: kind.access,
      get: async (req) => {
        const outcome = await load(req, kind, idOf(req));
        if (!outcome.ok) return failure(req, outcome);
        return page(req, kind, idOf(req), { values: recordValues(await kind.fields(req), outcome.body), revision: outcome.etag });
      },
      post: (req) => save(req, kind, idOf(req)),
    },
  ];
}
