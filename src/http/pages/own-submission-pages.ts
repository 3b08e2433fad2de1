import type { FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import { eventPageUrl } from '../../domain/events/event-web.ts';
import { isOpen, ownState } from '../../domain/submissions/own-state.ts';
import {
  fieldOfParameter,
  readSubmissionForm,
  submissionFormOf,
  updateParameters,
  type FieldReasons,
  type StoredSubmissionEvent,
  type SubmissionForm,
} from '../../domain/submissions/submission-form.ts';
import type { User } from '../../domain/users/user.ts';
import type { ModerationService } from '../../services/submissions/moderation-service.ts';
import type { SubmissionsService } from '../../services/submissions/submissions-service.ts';
import { SubmissionsRepository } from '../../storage/repositories/submissions-repository.ts';
import type { SubmissionRow } from '../../storage/schema.ts';
import { editionPath } from '../../web/links.ts';
import { OwnSubmissionsPage, PublishedSubmissionPage, type OwnSubmission } from '../../web/pages/own-submissions.tsx';
import { SubmissionPage, type Choice, type SubmissionPageModel } from '../../web/pages/submission-form.tsx';
import { callApi, type ApiOutcome } from '../admin/call-api.ts';
import type { AppDeps } from '../routes/index.ts';
import type { PageRequest } from './page-routes.ts';

const PER_PAGE = 20;
const EVENT_ROUTE = '/events/(?P<id>\\d+)';
/** The `?message=` keys the list shows after a redirect (never free text). */
const NOTICES = { saved: 'own_saved', withdrawn: 'own_withdrawn' } as const;

/** What the members' pages share with the rest of `/events/community/` (answers, the form's model). */
export interface OwnPageTools {
  page(reply: FastifyReply, status: number, body: VNode, headers?: Record<string, string>): FastifyReply;
  notFound(reply: FastifyReply, req: PageRequest): FastifyReply;
  redirect(reply: FastifyReply, location: string): FastifyReply;
  /** The §4 form's model without a `_form` token (venues, organizers, categories, zones). */
  formModel(req: PageRequest, form: SubmissionForm, errors: Record<string, string>, member: User): Promise<SubmissionPageModel>;
  translated(req: PageRequest, reasons: FieldReasons): Record<string, string>;
}

interface Session {
  user: User;
  csrfToken: string;
}

/**
 * 120 §9: a member's own submissions — the list, and the §4 form to change or withdraw one while
 * it awaits review. Saves go through the API's update endpoint in process with contributor
 * rights (its validation, permission gate and handler: no second copy of its rules).
 */
export function ownSubmissionPages(deps: AppDeps, submissions: SubmissionsService, moderation: ModerationService, tools: OwnPageTools) {
  const repo = new SubmissionsRepository(deps.storage.db);
  const asContributor = (req: PageRequest, user: User) => ({ deps, lang: req.lang, ctx: { ...req.ctx, user: { ...user, role: 'contributor' as const } } });
  const publicUrl = (req: PageRequest, event: { id: number; status: string; slug: string }) => eventPageUrl(editionPath(req.env, ''), event);

  async function list(req: PageRequest, reply: FastifyReply, session: Session) {
    const paged = Number(req.params.get('paged') ?? '1');
    const page = Number.isInteger(paged) && paged >= 1 && paged <= 100_000 ? paged : 1;
    const { rows, total } = await repo.ofMember(session.user.id, PER_PAGE, (page - 1) * PER_PAGE);
    const pages = Math.max(1, Math.ceil(total / PER_PAGE));
    if (page > pages) return tools.notFound(reply, req);
    const notice = NOTICES[req.params.get('message') as keyof typeof NOTICES];
    const shown: OwnSubmission[] = rows.map((row) => {
      const state = ownState(row.decision, row.status);
      return {
        id: row.event_id,
        title: row.title,
        schedule: { start_date: row.start_local, end_date: row.end_local, all_day: row.all_day === 1, timezone: row.timezone, timezone_abbr: row.timezone_abbr },
        state,
        reason: row.reason,
        href: state === 'published' ? publicUrl(req, { id: row.event_id, status: row.status, slug: row.slug }) : undefined,
      };
    });
    return tools.page(reply, 200, OwnSubmissionsPage({ env: req.env, list: { rows: shown, page, pages, csrfToken: session.csrfToken, notice: notice ? req.env.t(notice) : undefined } }));
  }

  /** The member's own submission with its event as the API shows it to them, or undefined (→ 404). */
  async function ownEvent(req: PageRequest, user: User, id: number): Promise<{ submission: SubmissionRow; event: StoredSubmissionEvent & ApiEventExtras; etag?: string } | undefined> {
    const submission = await repo.find(id);
    if (submission?.member_id !== user.id) return undefined;
    const read = await callApi(asContributor(req, user), { method: 'GET', route: EVENT_ROUTE, params: { id, context: 'edit' } });
    return read.ok ? { submission, event: read.body, etag: read.etag } : undefined;
  }

  async function edit(req: PageRequest, request: FastifyRequest, reply: FastifyReply, session: Session, id: number) {
    const own = await ownEvent(req, session.user, id);
    const state = own && ownState(own.submission.decision, own.event.status);
    if (!own || !state || (state !== 'published' && !isOpen(state))) return tools.notFound(reply, req);
    const { event, submission } = own;
    if (state === 'published') {
      const row: OwnSubmission = { id, title: event.title, schedule: { ...event, timezone_abbr: event.timezone_abbr ?? '' }, state, reason: null, href: publicUrl(req, event) };
      // A save posted after an editor published it: the same read-only page, as a conflict.
      const conflict: { status: number; headers: Record<string, string> } = request.method === 'POST' ? { status: 409, headers: { 'X-Calendar-Error': 'submission-already-decided' } } : { status: 200, headers: {} };
      return tools.page(reply, conflict.status, PublishedSubmissionPage({ env: req.env, row }), conflict.headers);
    }
    const action = req.path;
    const render = async (status: number, form: SubmissionForm, errors: Record<string, string>, revision: string | undefined, headers: Record<string, string> = {}) => {
      const model = await tools.formModel(req, form, errors, session.user);
      const view = { ...model, csrfToken: session.csrfToken, edit: true, revision, venues: withOwn(model.venues, event.venue, 'venue'), organizers: withOwn(model.organizers, event.organizer[0], 'organizer') };
      return tools.page(reply, status, SubmissionPage({ env: req.env, page: view, action: editionPath(req.env, action) }), headers);
    };
    if (request.method !== 'POST') return render(200, submissionFormOf(event), {}, own.etag);

    const body = (request.body ?? {}) as Record<string, unknown>;
    if (body.action === 'withdraw') {
      await moderation.withdraw(req.ctx, session.user, id);
      return tools.redirect(reply, `${editionPath(req.env, '/events/community/list/')}?message=withdrawn`);
    }
    const form = readSubmissionForm(body);
    const revision = typeof body.revision === 'string' && body.revision !== '' ? body.revision : own.etag;
    const reasons = await submissions.editReasons(form, req.ctx.now, submission);
    if (Object.keys(reasons).length > 0) return render(422, form, tools.translated(req, reasons), revision, { 'X-Calendar-Error': 'rest_invalid_param' });
    const status = event.status === 'draft' ? 'draft' : 'pending';
    const saved = await callApi(asContributor(req, session.user), { method: 'POST', route: EVENT_ROUTE, params: { ...updateParameters(form, status), id }, ifMatch: revision });
    if (!saved.ok) {
      const code = saved.status === 400 ? 'rest_invalid_param' : saved.code;
      return render(saved.status === 400 ? 422 : saved.status, form, refusals(saved, form), revision, { 'X-Calendar-Error': code });
    }
    await submissions.noteCreatedLinks(id, form, req.ctx.now);
    return tools.redirect(reply, `${editionPath(req.env, '/events/community/list/')}?message=saved`);
  }

  return { list, edit };
}

/** The parts of the API's event object beyond the form's fields that these pages show. */
interface ApiEventExtras {
  id: number;
  status: string;
  slug: string;
  timezone_abbr?: string;
  venue: { id: number; venue?: string } | unknown[];
  organizer: Array<{ id: number; organizer?: string }>;
}

/** The form lists published records only; the submission's own unpublished venue or organizer is offered too. */
function withOwn(choices: Choice[], linked: { id: number; venue?: string; organizer?: string } | unknown[] | undefined, kind: 'venue' | 'organizer'): Choice[] {
  if (linked === undefined || Array.isArray(linked) || choices.some((choice) => choice.id === linked.id)) return choices;
  return [...choices, { id: linked.id, name: linked[kind] ?? String(linked.id) }];
}

/** An API refusal on the form's fields (100 §11: every reason lands on a field). */
function refusals(outcome: Extract<ApiOutcome, { ok: false }>, form: SubmissionForm): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [parameter, detail] of Object.entries(outcome.details)) errors[fieldOfParameter(parameter, form)] ??= detail.message;
  if (Object.keys(errors).length === 0) errors.title = outcome.message;
  return errors;
}
