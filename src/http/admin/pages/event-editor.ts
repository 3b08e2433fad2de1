import { can } from '../../../domain/auth/capabilities.ts';
import { canDeleteRecord, canEditRecord } from '../../../domain/auth/record-permissions.ts';
import { InvalidParamsError, RestError } from '../../../domain/errors.ts';
import type { ShownRecurrence } from '../../../domain/recurrence/builder.ts';
import { EDITION_PREFIXES, type MessageKey } from '../../../i18n/catalog.ts';
import { eventQueryUrl } from '../../../domain/events/event-web.ts';
import { serializeEvent } from '../../../read/event-models.ts';
import { eventOwnership, EventsService } from '../../../services/events-service.ts';
import type { EventRow } from '../../../storage/schema.ts';
import { emptyEventForm, type EventFormValues } from '../../../web/admin/event-form-values.ts';
import { EventEditor, type EditorMode, type EditorOptions } from '../../../web/admin/event-editor.tsx';
import { adminView } from '../admin-view.ts';
import type { FieldErrors } from '../../../web/admin/form-parts.tsx';
import { PreviewSection, type PreviewDates } from '../../../web/admin/recurrence-builder.tsx';
import type { AdminAnswer, AdminRequest } from '../admin-request.ts';
import { callApi, type ApiOutcome } from '../call-api.ts';
import { adminErrorPage, apiErrorsToFields } from '../errors.ts';
import { duplicateFormValues, eventFormValues, eventParams, readEventForm, type ApiEvent, type RequestKind } from '../event-form.ts';
import { removalUnconfirmed } from '../recurrence-form.ts';
import type { AdminPage, AdminPageModule } from '../router.ts';

const EVENT_ROUTE = '/events/(?P<id>\\d+)';
/** How many dates "Preview dates" lists (100 §8.4). */
const PREVIEW_LIMIT = 10;
/** Lists of the pickers: the API's largest page, several pages when needed. */
const PICKER_PAGE = 50;

/** Every zone `timezone` offers (100 §8.1): the IANA names of the runtime and UTC. */
const TIME_ZONES = [...new Set(['UTC', ...Intl.supportedValuesOf('timeZone')])];

/**
 * API parameter → form field (100 §8.5); a parameter absent here lands on the field of its own
 * name. `venue` and `organizer` land on the inline creation fields when those were used.
 */
export function eventFieldMap(values: EventFormValues): Record<string, string> {
  return {
    venue: values.venue === 'new' ? 'venue_new[venue]' : 'venue',
    organizer: values.organizer_new.organizer.trim() !== '' ? 'organizer_new[organizer]' : 'organizer',
    date: 'publish_date',
    date_utc: 'publish_date',
  };
}

/** Field labels whose key is not `admin_editor_{name}`. */
const FIELD_LABELS: Record<string, MessageKey> = { organizer: 'admin_editor_organizers' };

/** Which `?message=` a saved event earns (100 §8.4). */
function savedMessage(status: string, created: boolean): string {
  if (status === 'publish') return 'event_published';
  if (status === 'pending') return 'event_pending';
  if (status === 'future') return 'event_scheduled';
  return created || status === 'draft' ? 'event_draft_saved' : 'event_updated';
}

/** The statuses this user may choose (100 §8.1): contributors draft and pending; the current one kept. */
function selectableStatuses(req: AdminRequest, current: string): string[] {
  const statuses = can(req.user, 'publish_posts') ? ['draft', 'pending', 'publish', 'private'] : ['draft', 'pending'];
  return current === '' || statuses.includes(current) ? statuses : [...statuses, current];
}

/** Every item of an API list, page after page. */
async function listAll(req: AdminRequest, route: string, key: string | null, params: Record<string, unknown>): Promise<any[]> {
  const items: any[] = [];
  for (let page = 1; page <= 40; page++) {
    const outcome = await callApi(req, { method: 'GET', route, params: { ...params, per_page: PICKER_PAGE, page } });
    if (!outcome.ok) break;
    const batch = key === null ? outcome.body : outcome.body[key];
    if (!Array.isArray(batch)) break;
    items.push(...batch);
    if (batch.length < PICKER_PAGE) break;
  }
  return items;
}

/** The venues, organizers and categories the pickers offer, as the API lists them to this user. */
async function editorOptions(req: AdminRequest, status: string): Promise<EditorOptions> {
  const linkedStatuses = can(req.user, 'edit_posts') ? 'publish,draft,pending,private' : 'publish';
  const [venues, organizers, categories] = await Promise.all([
    listAll(req, '/venues', 'venues', { status: linkedStatuses, orderby: 'title', order: 'asc' }),
    listAll(req, '/organizers', 'organizers', { status: linkedStatuses, orderby: 'title', order: 'asc' }),
    listAll(req, '/categories', 'categories', { hide_empty: false, orderby: 'name', order: 'asc' }),
  ]);
  return {
    venues: venues.map((venue) => ({ id: venue.id, title: venue.venue, status: venue.status })),
    organizers: organizers.map((organizer) => ({ id: organizer.id, title: organizer.organizer, status: organizer.status })),
    categories: categories.map((category) => ({ id: category.id, name: category.name, parent: category.parent })),
    timezones: TIME_ZONES,
    statuses: selectableStatuses(req, status),
    siteZone: req.deps.config.timezone,
  };
}

/** The event as the API shows it to its editor, with its ETag. */
async function readEvent(req: AdminRequest, id: number): Promise<ApiOutcome> {
  return callApi(req, { method: 'GET', route: EVENT_ROUTE, params: { id, context: 'edit' } });
}

/**
 * The texts as stored, which the form shows and sends back: the API's answer adds paragraphs to
 * the HTML (autop), the currency to the cost and the event's page to an empty website.
 */
function storedTexts(row: EventRow): Pick<ApiEvent, 'description' | 'excerpt' | 'cost' | 'website'> {
  const cost = JSON.parse(row.cost || '[]') as string[];
  return { description: row.description, excerpt: row.excerpt, cost: cost.join(', '), website: row.website ?? '' };
}

/** What the editor shows of a stored event: its values, and the series it belongs to. */
interface Stored {
  event: ApiEvent;
  etag: string;
  series: ShownRecurrence | null;
  seriesId?: number;
}

async function loadStored(req: AdminRequest, events: EventsService, outcome: Extract<ApiOutcome, { ok: true }>): Promise<Stored> {
  const row = await events.read(outcome.body.id, req.ctx.now);
  const event = { ...(outcome.body as ApiEvent), ...storedTexts(row) };
  if (!event.post_parent) return { event, etag: outcome.etag ?? '', series: event.recurrence ?? null };
  const master = await readEvent(req, event.post_parent);
  const series = master.ok ? ((master.body as ApiEvent).recurrence ?? null) : null;
  return { event, etag: outcome.etag ?? '', series, seriesId: event.post_parent };
}

interface Screen {
  mode: EditorMode;
  heading: string;
  values: EventFormValues;
  stored?: Stored;
  errors?: FieldErrors;
  unplaced?: string[];
  conflict?: string[];
  preview?: PreviewDates;
  status?: number;
  restoreAction?: string;
}

export const eventEditorPages: AdminPageModule = (deps) => {
  const events = new EventsService(deps.storage.db, deps.config.timezone, deps.config.recurrence, deps.storage.epochs.journal);

  const page = async (req: AdminRequest, screen: Screen): Promise<AdminAnswer> => {
    const view = adminView(req);
    const event = screen.stored?.event;
    const id = event?.id;
    const record = event === undefined ? undefined : { author: Number((event as { author?: string }).author ?? 0), status: event.status as never, preTrashStatus: null };
    const options = await editorOptions(req, screen.mode === 'edit' ? (event?.status ?? '') : '');
    const body = EventEditor({
      view,
      mode: screen.mode,
      heading: screen.heading,
      values: screen.values,
      options,
      errors: screen.errors ?? {},
      unplaced: screen.unplaced ?? [],
      conflict: screen.conflict,
      preview: screen.preview,
      seriesId: screen.stored?.seriesId,
      inSeries: screen.stored !== undefined && screen.stored.series !== null,
      submitsForReview: !can(req.user, 'publish_posts'),
      canTrash: record !== undefined && canDeleteRecord(req.user, record),
      restoreAction: screen.restoreAction,
      eventId: id,
      links: {
        action: id === undefined || screen.mode !== 'edit' && screen.mode !== 'trashed' ? req.adminUrl('/events/new') : req.adminUrl(`/events/${id}/`),
        // A path: the script asks the API on the page's own origin, with the session cookie.
        venues: new URL(req.ctx.urls.nsUrl('/venues')).pathname,
        duplicate: id === undefined || screen.mode === 'duplicate' ? undefined : req.adminUrl('/events/new', { duplicate: id }),
        series: screen.stored?.seriesId === undefined ? undefined : req.adminUrl(`/events/${screen.stored.seriesId}/`),
        // An unpublished event has no public page but its preview, opened with this session (100 §2).
        preview: id === undefined || screen.mode !== 'edit' || event?.status === 'publish' ? undefined : `${eventQueryUrl(deps.config.basePath + EDITION_PREFIXES[req.lang], id)}&preview=1`,
      },
    });
    return { status: screen.status ?? 200, body };
  };

  /** "Preview dates" (100 §8.4): nothing saved; 200 with the dates, 422 when the API would refuse them. */
  const preview = async (req: AdminRequest, screen: Screen, kind: RequestKind): Promise<AdminAnswer> => {
    const params = eventParams(screen.values, { ...kind, create: true });
    try {
      const found = events.previewDates(params as never, req.ctx.now, PREVIEW_LIMIT);
      const dates: PreviewDates = { ...found, horizon: events.series.horizon(req.ctx.now) };
      if (req.form.get('partial') === '1') return { body: PreviewSection({ view: adminView(req), preview: dates }) };
      return page(req, { ...screen, preview: dates });
    } catch (error) {
      if (!(error instanceof RestError)) throw error;
      return refused(req, screen, refusalOutcome(req, error));
    }
  };

  /** A 422 page with the API's reasons on their fields (100 §8.5), every value kept. */
  const refused = (req: AdminRequest, screen: Screen, outcome: Extract<ApiOutcome, { ok: false }>): Promise<AdminAnswer> => {
    const { errors, unplaced } = apiErrorsToFields(outcome, eventFieldMap(screen.values));
    return withCode(page(req, { ...screen, errors, unplaced, status: 422 }), outcome.code);
  };

  /** What the editor does with a refused write (100 §8.4). */
  const failed = async (req: AdminRequest, screen: Screen, outcome: Extract<ApiOutcome, { ok: false }>, id?: number): Promise<AdminAnswer> => {
    if (outcome.status === 412 && id !== undefined) return conflict(req, screen, id);
    if (outcome.status === 404) return adminErrorPage(req, 404, 'admin_not_found');
    if (outcome.status === 410) return adminErrorPage(req, 410, 'event-no-longer-available');
    if (outcome.status === 401 || outcome.status === 403) return adminErrorPage(req, 403, outcome.code, outcome.message);
    if (outcome.status >= 500) throw new RestError(outcome.status, outcome.code);
    return refused(req, screen, outcome);
  };

  /**
   * 409 (100 §8.4): the entered values kept, the fields that differ from the stored version
   * named, and the current revision, so that saving again is a deliberate overwrite.
   */
  const conflict = async (req: AdminRequest, screen: Screen, id: number): Promise<AdminAnswer> => {
    const current = await readEvent(req, id);
    if (!current.ok) return failed(req, screen, current);
    const stored = await loadStored(req, events, current);
    const now = eventFormValues(stored.event, { series: stored.series, revision: stored.etag });
    const differing = differingFields(screen.values, now).map((name) => req.t(FIELD_LABELS[name] ?? (`admin_editor_${name}` as MessageKey)));
    return withCode(page(req, { ...screen, stored, values: { ...screen.values, revision: stored.etag }, conflict: differing, status: 409 }), 'admin_edit_conflict');
  };

  const editGet = async (req: AdminRequest): Promise<AdminAnswer> => {
    const id = Number(req.params.id);
    const outcome = await readEvent(req, id);
    if (!outcome.ok) {
      if (outcome.code === 'event-no-longer-available') return trashedPage(req, id);
      return failed(req, { mode: 'edit', heading: '', values: emptyEventForm(deps.config.timezone) }, outcome);
    }
    const stored = await loadStored(req, events, outcome);
    const values = eventFormValues(stored.event, { series: stored.series, revision: stored.etag });
    return page(req, { mode: 'edit', heading: req.t('admin_editor_title_edit'), values, stored });
  };

  /** A trashed event (100 §8.4): its stored values read-only, and Restore for those who may. */
  const trashedPage = async (req: AdminRequest, id: number): Promise<AdminAnswer> => {
    const row = await events.read(id, req.ctx.now);
    const shown = (await serializeEvent(deps.storage.db, row, req.ctx)) as unknown as ApiEvent;
    const event = { ...shown, ...storedTexts(row) };
    const stored: Stored = { event, etag: '', series: event.recurrence ?? null };
    const values = eventFormValues(event, { revision: '' });
    const restoreAction = canEditRecord(req.user, eventOwnership(row)) ? req.adminUrl('/events/', { status: 'trash' }) : undefined;
    return page(req, { mode: 'trashed', heading: req.t('admin_editor_title_trashed'), values, stored, restoreAction });
  };

  const editPost = async (req: AdminRequest): Promise<AdminAnswer> => {
    const id = Number(req.params.id);
    const values = readEventForm(req.form);
    const action = req.form.get('action') ?? 'save';
    const outcome = await readEvent(req, id);
    if (!outcome.ok) {
      if (outcome.code === 'event-no-longer-available') return adminErrorPage(req, 410, 'event-no-longer-available');
      return failed(req, { mode: 'edit', heading: '', values }, outcome);
    }
    const stored = await loadStored(req, events, outcome);
    const screen: Screen = { mode: 'edit', heading: req.t('admin_editor_title_edit'), values, stored };
    const kind: RequestKind = { create: false, action, storedRecurrence: stored.series, occurrence: stored.seriesId !== undefined, siteZone: deps.config.timezone };
    if (action === 'preview_dates') return preview(req, screen, kind);
    if (action === 'trash') {
      const trashed = await callApi(req, { method: 'DELETE', route: EVENT_ROUTE, params: { id, ...(kind.occurrence ? { scope: values.scope } : {}) }, ifMatch: values.revision || undefined });
      if (!trashed.ok) return failed(req, screen, trashed, id);
      return { redirect: req.adminUrl('/events/', { message: 'event_trashed', undo: id }), status: 303 };
    }
    if (removalUnconfirmed(values, kind)) {
      return withCode(page(req, { ...screen, errors: { recurrence_pattern: req.t('admin_editor_recurrence_remove_unconfirmed') }, status: 422 }), 'rest_invalid_param');
    }
    const saved = await callApi(req, { method: 'POST', route: EVENT_ROUTE, params: { ...eventParams(values, kind), id }, ifMatch: values.revision || undefined });
    if (!saved.ok) return failed(req, screen, saved, id);
    return savedRedirect(req, saved.body, false);
  };

  const savedRedirect = (req: AdminRequest, body: { id: number; status: string; date: string }, created: boolean): AdminAnswer => {
    const message = savedMessage(body.status, created);
    const query: Record<string, string | number> = { message };
    if (message === 'event_scheduled') query.date = body.date.slice(0, 16);
    return { redirect: req.adminUrl(`/events/${body.id}/`, query), status: 303 };
  };

  const newGet = async (req: AdminRequest): Promise<AdminAnswer> => {
    const duplicate = typeof req.query.duplicate === 'string' ? req.query.duplicate : undefined;
    if (duplicate === undefined) return page(req, { mode: 'new', heading: req.t('admin_editor_title_new'), values: emptyEventForm(deps.config.timezone) });
    if (!/^\d+$/.test(duplicate)) return adminErrorPage(req, 404, 'admin_not_found');
    const source = await readEvent(req, Number(duplicate));
    if (!source.ok) return adminErrorPage(req, 404, 'admin_not_found');
    const { event } = await loadStored(req, events, source);
    const values = duplicateFormValues(event);
    return page(req, { mode: 'duplicate', heading: req.t('admin_editor_title_duplicate', { title: event.title }), values });
  };

  const newPost = async (req: AdminRequest): Promise<AdminAnswer> => {
    const values = readEventForm(req.form);
    const action = req.form.get('action') ?? 'save';
    const screen: Screen = { mode: 'new', heading: req.t('admin_editor_title_new'), values: { ...values, revision: '' } };
    const kind: RequestKind = { create: true, action, siteZone: deps.config.timezone };
    if (action === 'preview_dates') return preview(req, screen, kind);
    const created = await callApi(req, { method: 'POST', route: '/events', params: eventParams(values, kind) });
    if (!created.ok) return failed(req, screen, created);
    return savedRedirect(req, created.body, true);
  };

  const pages: AdminPage[] = [
    { path: '/events/new', access: 'edit_posts', get: newGet, post: newPost },
    { path: '/events/:id(^\\d+)/', access: 'edit_posts', get: editGet, post: editPost },
  ];
  return pages;
};

/** A refused form's page carries the refusal's code (100 §13). */
async function withCode(answer: Promise<AdminAnswer>, code: string): Promise<AdminAnswer> {
  const page = await answer;
  return 'body' in page ? { ...page, headers: { ...page.headers, 'X-Calendar-Error': code } } : page;
}

/** The form fields whose entered value differs from the stored one (a 409 names them). */
export function differingFields(entered: EventFormValues, stored: EventFormValues): string[] {
  const names = Object.keys(stored).filter((name) => name !== 'revision' && name !== 'scope' && name !== 'recurrence_remove_confirm' && name !== 'venue_new' && name !== 'organizer_new');
  return names.filter((name) => JSON.stringify(entered[name as keyof EventFormValues]) !== JSON.stringify(stored[name as keyof EventFormValues]));
}

/** A RestError thrown by the preview's service call, as the API would have answered it. */
function refusalOutcome(req: AdminRequest, error: RestError): Extract<ApiOutcome, { ok: false }> {
  const details: Record<string, { code?: string; message: string }> = {};
  if (error instanceof InvalidParamsError) {
    for (const [name, failure] of Object.entries(error.failures)) details[name] = { code: failure.reason.code, message: req.t(failure.reason.messageKey, failure.reason.vars) };
  }
  return { ok: false, status: error.status, code: error.code, message: req.t(error.messageKey, error.vars), details };
}
