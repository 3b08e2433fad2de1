import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import { readSubmissionForm, type FieldReasons, type SubmissionForm } from '../../domain/submissions/submission-form.ts';
import type { User } from '../../domain/users/user.ts';
import { EDITION_PREFIXES, LANGUAGES, translate, type Language, type MessageKey } from '../../i18n/catalog.ts';
import { sameOriginPost, tokenMatches } from '../admin/protection.ts';
import type { AppDeps } from '../routes/index.ts';
import type { ModerationService } from '../../services/submissions/moderation-service.ts';
import { ownSubmissionPages } from './own-submission-pages.ts';
import { EventsService } from '../../services/events-service.ts';
import type { SubmissionsService } from '../../services/submissions/submissions-service.ts';
import { formChoices } from '../../storage/repositories/submissions-repository.ts';
import { editionPath } from '../../web/links.ts';
import { pageAssets } from '../../web/page-assets.ts';
import { MessagePage } from '../../web/pages/message.tsx';
import { SubmissionPage, ThanksPage, type Choice, type SubmissionPageModel } from '../../web/pages/submission-form.tsx';
import { renderDocument } from '../../web/render.ts';
import { PageData } from './page-data.ts';
import { pageRequests, type PageRequest } from './page-routes.ts';

/** The widget's files (120 §6.4), served from our own origin: no third-party request, CSP unchanged. */
export const ALTCHA_ASSETS = '/assets/altcha';
export const SUBMIT_SCRIPT_PATH = '/assets/submit.js';
/** The widget's translation of each edition but English (its own default). */
export const WIDGET_LANGUAGES: Record<string, string> = { da: 'da', it: 'it', es: 'es-es' };

/** Registers the widget (`altcha/external`), its translations and the PBKDF2 worker, all from `{base}/assets/`. */
function submitScript(base: string): string {
  return [
    `import '${base}${ALTCHA_ASSETS}/altcha.js';`,
    ...Object.values(WIDGET_LANGUAGES).map((lang) => `import '${base}${ALTCHA_ASSETS}/i18n/${lang}.js';`),
    `globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Worker('${base}${ALTCHA_ASSETS}/workers/pbkdf2.js'));`,
    '',
  ].join('\n');
}

function widgetFiles(): { path: string; type: string; body: Buffer }[] {
  const external = dirname(createRequire(import.meta.url).resolve('altcha/external'));
  const dist = dirname(external);
  const js = 'text/javascript; charset=utf-8';
  return [
    { path: '/altcha.js', type: js, body: readFileSync(join(external, 'altcha.js')) },
    { path: '/altcha.css', type: 'text/css; charset=utf-8', body: readFileSync(join(external, 'altcha.css')) },
    { path: '/workers/pbkdf2.js', type: js, body: readFileSync(join(dist, 'workers', 'pbkdf2.js')) },
    ...Object.values(WIDGET_LANGUAGES).map((lang) => ({ path: `/i18n/${lang}.js`, type: js, body: readFileSync(join(dist, 'i18n', `${lang}.js`)) })),
  ];
}

/** Who is signed in on a submission page (the back office session, 100 §4) and its `_token`; null = a visitor. */
export type MemberOf = (request: FastifyRequest) => Promise<{ user: User; csrfToken: string } | null>;

type SubPath = { kind: 'add' | 'thanks' | 'list' } | { kind: 'edit'; id: number } | { kind: 'root' } | { kind: 'unknown' };

function subPath(rest: string): SubPath {
  if (rest === '' || rest === '/') return { kind: 'root' };
  const match = /^\/(add|thanks|list)\/?$/.exec(rest);
  if (match) return { kind: match[1] as 'add' | 'thanks' | 'list' };
  const edit = /^\/edit\/([1-9]\d{0,9})\/?$/.exec(rest);
  if (edit) return { kind: 'edit', id: Number(edit[1]) };
  return { kind: 'unknown' };
}

/** §5 step 2: the largest form body accepted. */
const BODY_LIMIT = 64 * 1024;

const TIMEZONES = Intl.supportedValuesOf('timeZone');

/**
 * `/events/community/…` in every edition (120 §3): the form, its processing, the thanks page.
 * Every answer is private and never indexed: each form carries its own token.
 */
export function registerSubmissionPages(app: FastifyInstance, deps: AppDeps, service: SubmissionsService, moderation: ModerationService, memberOf: MemberOf): void {
  const { config, storage, clock } = deps;
  const base = config.basePath;
  const settings = config.submissions;
  const data = new PageData(storage.db, new EventsService(storage.db, config.timezone), config.timezone);
  const pageRequest = pageRequests(config, data, pageAssets(base, config.brand, null).links, clock);

  const page = (reply: FastifyReply, status: number, body: VNode, headers: Record<string, string> = {}) => {
    reply.code(status).type('text/html; charset=utf-8').header('Cache-Control', 'private, no-store').header('X-Robots-Tag', 'noindex');
    for (const [name, value] of Object.entries(headers)) reply.header(name, value);
    return reply.send(renderDocument(body));
  };
  const message = (reply: FastifyReply, req: PageRequest, status: number, code: string | null, title: string, text: string, headers: Record<string, string> = {}) =>
    page(reply, status, MessagePage({ env: req.env, title, text }), { ...(code ? { 'X-Calendar-Error': code } : {}), ...headers });
  const notFound = (reply: FastifyReply, req: PageRequest) => message(reply, req, 404, null, req.env.t('page_not_found'), req.env.t('page_not_found_text'));
  /**
   * §5 step 2 for every POST: urlencoded, and the origin — for a visitor an `Origin`, when sent,
   * must be ours; a member's form is a back-office form (100 §6.1 steps 1 and 3 in full).
   */
  const postRefusal = (request: FastifyRequest, req: PageRequest, session: { csrfToken: string } | null, body: Record<string, unknown> | undefined): { status: number; code: string; text: MessageKey } | undefined => {
    if (!String(request.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
      return { status: 415, code: 'submission_unsupported_type', text: 'submission_unsupported_type' };
    }
    const origin = request.headers.origin;
    if (session === null) {
      return origin !== undefined && origin !== req.ctx.urls.origin ? { status: 403, code: 'submission_origin_mismatch', text: 'submission_origin_mismatch' } : undefined;
    }
    if (!sameOriginPost(request, req.ctx.urls.origin)) return { status: 403, code: 'admin_origin_mismatch', text: 'submission_origin_mismatch' };
    if (!tokenMatches(typeof body?._token === 'string' ? body._token : undefined, session.csrfToken)) return { status: 403, code: 'admin_token_invalid', text: 'rest_forbidden' };
    return undefined;
  };
  const redirect = (reply: FastifyReply, location: string, status = 303) => reply.code(status).header('Location', location).header('Cache-Control', 'private, no-store').send();

  const formModel = async (req: PageRequest, form: SubmissionForm, errors: Record<string, string>, member: User | null): Promise<SubmissionPageModel> => {
    const choices = await formChoices(storage.db);
    return {
      form,
      errors,
      member: member ? { login: member.login, email: member.email } : undefined,
      terms: settings.terms,
      venues: choices.venues,
      organizers: choices.organizers,
      categories: categoryTree(choices.categories),
      timezones: TIMEZONES.includes(config.timezone) ? TIMEZONES : [config.timezone, ...TIMEZONES],
      siteZone: config.timezone,
      widget: { script: base + SUBMIT_SCRIPT_PATH, css: `${base}${ALTCHA_ASSETS}/altcha.css`, language: WIDGET_LANGUAGES[req.lang] ?? 'en' },
    };
  };
  /** The add form's model: a fresh `_form` token (a 422 keeps the genuine one it was sent with) and the challenge. */
  const model = async (req: PageRequest, form: SubmissionForm, errors: Record<string, string>, member: User | null, token?: string): Promise<SubmissionPageModel> => {
    const ticket = await service.ticket(req.ctx.now, member, token);
    return { ...(await formModel(req, form, errors, member)), token: ticket.token, challenge: ticket.challenge };
  };
  const translated = (lang: Language, reasons: FieldReasons) =>
    Object.fromEntries(Object.entries(reasons).map(([name, reason]) => [name, translate(lang, reason.messageKey, reason.vars)]));
  const own = ownSubmissionPages(deps, service, moderation, {
    page,
    notFound,
    redirect: (reply, location) => redirect(reply, location),
    formModel: (req, form, errors, member) => formModel(req, form, errors, member),
    translated: (req, reasons) => translated(req.lang, reasons),
  });

  const handler = (lang: Language) => async (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url;
    const mark = url.indexOf('?');
    const fullPath = mark === -1 ? url : url.slice(0, mark);
    const prefix = base + EDITION_PREFIXES[lang];
    const path = fullPath.slice(prefix.length);
    const req = pageRequest(request, lang, path, mark === -1 ? '' : url.slice(mark));
    const target = subPath(path.slice('/events/community'.length));
    if (settings.mode === 'off' || target.kind === 'unknown') return notFound(reply, req);
    const postable = target.kind === 'add' || target.kind === 'edit';
    if (request.method !== 'GET' && request.method !== 'HEAD' && !(postable && request.method === 'POST')) {
      return message(reply, req, 405, 'admin_method_not_allowed', req.env.t('page_not_found'), req.env.t('page_not_found_text'), { Allow: postable ? 'GET, HEAD, POST' : 'GET, HEAD' });
    }
    if (target.kind === 'root') return redirect(reply, editionPath(req.env, '/events/community/add/'), 301);
    if (!fullPath.endsWith('/')) return redirect(reply, `${fullPath}/${mark === -1 ? '' : url.slice(mark)}`, 301);
    if (target.kind === 'thanks') return page(reply, 200, ThanksPage({ env: req.env }));
    const session = await memberOf(request);
    const member = session?.user ?? null;
    const body = request.body as Record<string, unknown> | undefined;
    const signIn = (expired: boolean) => `${editionPath(req.env, '/admin/login')}?${expired ? 'expired=1&' : ''}redirect_to=${encodeURIComponent(fullPath)}`;
    // Only members' forms carry `_token`: posted without a live session, the session ended meanwhile (§3).
    if (member === null && request.method === 'POST' && typeof body?._token === 'string') return redirect(reply, signIn(true));
    // Members' pages, and every page in `members` mode, need the back office session (§3, §9).
    if (member === null && (target.kind === 'list' || target.kind === 'edit' || settings.mode === 'members')) return redirect(reply, signIn(false));
    if (request.method === 'POST') {
      const refused = postRefusal(request, req, session, body);
      if (refused) return message(reply, req, refused.status, refused.code, req.env.t('submit_link'), req.env.t(refused.text));
    }
    if (session !== null && target.kind === 'list') return own.list(req, reply, session);
    if (session !== null && target.kind === 'edit') return own.edit(req, request, reply, session, target.id);
    if (request.method !== 'POST') {
      return page(reply, 200, SubmissionPage({ env: req.env, page: { ...(await model(req, readSubmissionForm({}), {}, member)), csrfToken: session?.csrfToken }, action: fullPath }));
    }
    const outcome = await service.submit({ body, lang, address: request.ip, member, ctx: req.ctx });
    switch (outcome.kind) {
      case 'rate-limited':
        return message(reply, req, 429, 'submission_rate_limited', req.env.t('submit_link'), req.env.t('submission_rate_limited', { seconds: outcome.retryAfter }), { 'Retry-After': String(outcome.retryAfter) });
      case 'invalid': {
        const token = typeof body?._form === 'string' ? body._form : undefined;
        const view = await model(req, outcome.form, translated(lang, outcome.reasons), member, token);
        return page(reply, 422, SubmissionPage({ env: req.env, page: { ...view, csrfToken: session?.csrfToken }, action: fullPath }), { 'X-Calendar-Error': 'rest_invalid_param' });
      }
      default:
        // A stored submission and a silent drop answer the same bytes (§6.3).
        return redirect(reply, editionPath(req.env, '/events/community/thanks/'));
    }
  };

  /** §5 step 2 and §11: a body over the limit is an HTML page in the edition's language (off: the 404 page, as every answer). */
  const errorHandler = (lang: Language) => (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE' && error.statusCode !== 413) throw error;
    const fullPath = request.url.split('?')[0];
    const req = pageRequest(request, lang, fullPath.slice((base + EDITION_PREFIXES[lang]).length), '');
    if (settings.mode === 'off') return notFound(reply, req);
    return message(reply, req, 413, 'rest_request_too_large', req.env.t('submit_link'), req.env.t('rest_request_too_large', { limit: BODY_LIMIT }));
  };
  for (const lang of LANGUAGES) {
    const prefix = base + EDITION_PREFIXES[lang];
    for (const url of [`${prefix}/events/community`, `${prefix}/events/community/*`]) {
      app.route({ method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'], url, bodyLimit: BODY_LIMIT, config: { page: true }, handler: handler(lang), errorHandler: errorHandler(lang) });
    }
  }
  if (settings.mode === 'off') return;
  const assets = [...widgetFiles().map((file) => ({ ...file, path: ALTCHA_ASSETS + file.path })), { path: SUBMIT_SCRIPT_PATH, type: 'text/javascript; charset=utf-8', body: Buffer.from(submitScript(base)) }];
  for (const { path, type, body } of assets) {
    app.get(`${base}${path}`, { config: { page: true } }, async (_request, reply) => reply.type(type).header('Cache-Control', 'public, max-age=3600').send(body));
  }
}

/** Categories as a tree in name order: each parent followed by its children, indented by depth. */
function categoryTree(terms: { id: number; name: string; parent: number }[]): Choice[] {
  const children = new Map<number, typeof terms>();
  for (const term of terms) children.set(term.parent, [...(children.get(term.parent) ?? []), term]);
  const ids = new Set(terms.map((term) => term.id));
  const out: Choice[] = [];
  const walk = (parent: number, depth: number) => {
    for (const term of children.get(parent) ?? []) {
      out.push({ id: term.id, name: term.name, depth });
      if (depth < 20) walk(term.id, depth + 1);
    }
  };
  walk(0, 0);
  // Orphans (a parent that is gone) at the top level.
  for (const term of terms) if (term.parent !== 0 && !ids.has(term.parent)) out.push({ id: term.id, name: term.name, depth: 0 });
  return out;
}
