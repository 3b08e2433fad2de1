import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import { LANGUAGES, translate, type Language, type MessageKey, type MessageVars } from '../../i18n/catalog.ts';
import { NAMESPACE } from '../../render/urls.ts';
import type { LiveSession } from '../../services/signin/sessions-service.ts';
import { renderDocument } from '../../web/render.ts';
import type { PublicView } from '../../web/admin/frame.tsx';
import { createContext } from '../rest/context.ts';
import type { AppDeps } from '../routes/index.ts';
import { adminHref, formFields, NO_FIELDS, queryRecord, type AdminAnswer, type AdminRequest, type FormFields } from './admin-request.ts';
import { adminServices, type AdminServices } from './admin-services.ts';
import { adminPrefix, mayOpen, publicView, type Access } from './admin-view.ts';
import { adminErrorPage, publicErrorPage } from './errors.ts';
import { MultipartRefused, publicOrigin, readMultipart, sameOriginPost, tokenMatches } from './protection.ts';
import { addCookie, clearedCookie, cookieSettings, readCookie, SESSION_COOKIE, type CookieSettings } from './session-cookie.ts';

/** A back office page: its path below `/admin`, handlers, and who may open it (100 §2, §7.1). */
export interface AdminPage {
  /** Fastify-style below /admin, e.g. '/events/', '/events/new', '/events/:id(^\\d+)/'. */
  path: string;
  get?: (req: AdminRequest) => Promise<AdminAnswer>;
  /** Called only after §6.1 steps 1–4 passed. */
  post?: (req: AdminRequest) => Promise<AdminAnswer>;
  access: Access;
  /** Multipart pages (imports, media): the body limit they take. */
  multipart?: boolean | { limit: number };
}

export type AdminPageModule = (deps: AppDeps) => AdminPage[];

/** What a page without a session (sign-in, one-time links) gets; it checks its own token (100 §5.2). */
export interface PublicRequest {
  lang: Language;
  t(key: MessageKey, vars?: MessageVars): string;
  path: string;
  params: Record<string, string>;
  query: Record<string, string | string[]>;
  form: FormFields;
  deps: AppDeps;
  services: AdminServices;
  /** A live session the request already has (the sign-in page sends it on), or null. */
  session: LiveSession | null;
  view(message?: string): PublicView;
  cookies: CookieSettings;
  adminUrl(path: string, query?: Record<string, string | number | undefined>): string;
  raw: FastifyRequest;
}

export interface PublicPage {
  path: string;
  get?: (req: PublicRequest) => Promise<AdminAnswer>;
  post?: (req: PublicRequest) => Promise<AdminAnswer>;
}

/** 100 §12: every `/admin/` answer. */
export const ADMIN_CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' https: data:; script-src 'self'; style-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const ADMIN_HEADERS: Record<string, string> = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy': ADMIN_CONTENT_SECURITY_POLICY,
  'X-Frame-Options': 'DENY',
  'X-Robots-Tag': 'noindex',
  'Referrer-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
};

const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

interface Compiled<P> {
  page: P;
  regex: RegExp;
}

/** `/events/:id(^\\d+)/` → a regex with named groups. */
export function compilePath(path: string): RegExp {
  let source = '';
  let last = 0;
  for (const match of path.matchAll(/:(\w+)(\((?:[^()]|\([^()]*\))*\))?/g)) {
    source += escape(path.slice(last, match.index));
    const inner = match[2] ? match[2].slice(1, -1).replace(/^\^/, '').replace(/\$$/, '') : '[^/]+';
    source += `(?<${match[1]}>${inner})`;
    last = match.index + match[0].length;
  }
  source += escape(path.slice(last));
  return new RegExp(`^${source}$`);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function find<P>(pages: Compiled<P>[], path: string): { page: P; params: Record<string, string> } | undefined {
  for (const { page, regex } of pages) {
    const match = regex.exec(path);
    if (!match) continue;
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(match.groups ?? {})) {
      try {
        params[name] = decodeURIComponent(value);
      } catch {
        return undefined;
      }
    }
    return { page, params };
  }
  return undefined;
}

/** 100 §2: `redirect_to` is honoured only for a path under `{base}{edition}/admin/` (never the sign-in pages). */
export function allowedRedirect(target: string | undefined, prefix: string): string | undefined {
  if (target === undefined || !target.startsWith(`${prefix}/`)) return undefined;
  if (/[\\\s]|\/\/|\/\.\.?(\/|$|\?)/.test(target)) return undefined;
  const rest = target.slice(prefix.length);
  if (rest.startsWith('/login') || rest.startsWith('/invite/') || rest.startsWith('/logout')) return undefined;
  return target;
}

/** The pages each app's router serves (the tests of 100 §17 walk them: every POST route, whoever wrote it). */
const registered = new WeakMap<FastifyInstance, { pages: AdminPage[]; publicPages: PublicPage[] }>();

export function registeredPages(app: FastifyInstance): { pages: AdminPage[]; publicPages: PublicPage[] } {
  return registered.get(app) ?? { pages: [], publicPages: [] };
}

export interface AdminRouterOptions {
  deps: AppDeps;
  modules: AdminPageModule[];
  publicPages: PublicPage[];
}

/**
 * The back office (100 §2): one route per edition for `/admin` and everything below it; pages
 * are matched here, so that the slash rules, 303 to sign-in, 404 and 405 pages and the §6.1
 * protection steps hold for every page, whoever wrote it.
 */
export async function registerAdminRouter(app: FastifyInstance, options: AdminRouterOptions): Promise<void> {
  const { deps } = options;
  const services = adminServices(deps);
  const { config } = deps;
  const pages: Compiled<AdminPage>[] = options.modules.flatMap((module) => module(deps)).map((page) => ({ page, regex: compilePath(page.path) }));
  const publicPages: Compiled<PublicPage>[] = options.publicPages.map((page) => ({ page, regex: compilePath(page.path) }));
  for (const { page } of pages) services.pagePaths.add(page.path);
  registered.set(app, { pages: pages.map(({ page }) => page), publicPages: options.publicPages });

  await app.register(async (scope) => {
    // Form posts are read as the pairs they are (`categories[]` stays a name), within the body limit.
    scope.removeContentTypeParser('application/x-www-form-urlencoded');
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: config.bodyLimit }, (_request, body, done) => {
      done(null, [...new URLSearchParams(body.toString())]);
    });
    scope.addHook('onSend', (_request, reply, payload, done) => {
      for (const [name, value] of Object.entries(ADMIN_HEADERS)) reply.header(name, value);
      done(null, payload);
    });
    scope.setErrorHandler((error: Error & { code?: string; statusCode?: number }, request, reply) => {
      const lang = request.lang;
      const t = (key: MessageKey, vars?: MessageVars) => translate(lang, key, vars);
      const view = publicView(services, { lang, t, path: '/', query: {}, raw: request, origin: publicOrigin(request, config.publicUrl) });
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
        return send(reply, publicErrorPage(view, 413, 'rest_request_too_large', t('rest_request_too_large', { limit: config.bodyLimit })));
      }
      request.log.error({ err: error }, 'back office page failed');
      return send(reply, publicErrorPage(view, 500, 'rest_internal_error'));
    });
    for (const lang of LANGUAGES) {
      const prefix = adminPrefix(config.basePath, lang);
      const route = { method: [...ALL_METHODS], config: { ownAuthorization: true, readsFiles: true }, handler: handler(lang, prefix) };
      scope.route({ ...route, url: prefix });
      scope.route({ ...route, url: `${prefix}/*` });
    }
  });

  function send(reply: FastifyReply, answer: AdminAnswer): FastifyReply {
    for (const value of answer.cookies ?? []) addCookie(reply, value);
    if ('redirect' in answer) return reply.code(answer.status ?? 303).header('Location', answer.redirect).send();
    for (const [name, value] of Object.entries(answer.headers ?? {})) reply.header(name, value);
    const html = typeof answer.body === 'string' ? answer.body : renderDocument(answer.body as VNode);
    return reply.code(answer.status ?? 200).type('text/html; charset=utf-8').send(html);
  }

  function handler(lang: Language, prefix: string) {
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const question = request.url.indexOf('?');
      const rawPath = question < 0 ? request.url : request.url.slice(0, question);
      const search = question < 0 ? '' : request.url.slice(question);
      const path = rawPath.slice(prefix.length);
      const t = (key: MessageKey, vars?: MessageVars) => translate(lang, key, vars);
      const adminUrl = (to: string, query?: Record<string, string | number | undefined>) => adminHref(prefix, to, query);
      const query = queryRecord(search.slice(1));
      const origin = publicOrigin(request, config.publicUrl);
      const cookies = cookieSettings(request, config);
      const view = (message?: string) => publicView(services, { lang, t, path, query, raw: request, origin }, message);
      // 100 §2 slash rules: `/admin` → `/admin/`; a path that exists with(out) its trailing slash → 301 there.
      if (path === '') return reply.code(301).header('Location', `${prefix}/${search}`).send();
      const matchedPublic = find(publicPages, path);
      const matched = matchedPublic ? undefined : find(pages, path);
      if (!matchedPublic && !matched) {
        const other = path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
        if (other !== '' && (find(publicPages, other) || find(pages, other))) return reply.code(301).header('Location', `${prefix}${other}${search}`).send();
      }
      const method = request.method === 'HEAD' ? 'GET' : request.method;
      const presented = readCookie(request, SESSION_COOKIE);
      const session = presented === undefined ? null : await services.sessions.lookup(presented);
      if (presented !== undefined && session === null) addCookie(reply, clearedCookie(SESSION_COOKIE, cookies));
      if (method === 'POST' && !sameOriginPost(request, origin)) {
        return send(reply, publicErrorPage(view(), 403, 'admin_origin_mismatch'));
      }

      if (matchedPublic) {
        const page = matchedPublic.page;
        const run = method === 'GET' ? page.get : method === 'POST' ? page.post : undefined;
        if (!run) return send(reply, methodNotAllowed(publicErrorPage(view(), 405, 'admin_method_not_allowed'), page));
        const form = method === 'POST' ? formOf(request) : NO_FIELDS;
        return send(reply, await run({ lang, t, path, params: matchedPublic.params, query, form, deps, services, session, view, cookies, adminUrl, raw: request }));
      }

      // 100 §2 / §6.1 step 2: no live session → sign in first (nothing is written).
      if (session === null) {
        const back = method === 'POST' ? { expired: 1, redirect_to: rawPath + search } : { redirect_to: rawPath + search };
        return send(reply, { redirect: adminUrl('/login', back) });
      }
      request.user = session.user;
      const ctx = createContext(request, { publicUrl: config.publicUrl, basePath: config.basePath, apiPath: config.apiPath, namespace: NAMESPACE, now: deps.clock() });
      const base: AdminRequest = {
        user: session.user,
        lang,
        csrfToken: session.csrfToken,
        sessionId: session.id,
        path,
        params: matched?.params ?? {},
        query,
        form: NO_FIELDS,
        files: [],
        ctx: { ...ctx, sessionId: session.id, precondition: { ifMatch: undefined, required: config.requireIfMatch } },
        deps,
        adminUrl,
        t,
        raw: request,
      };
      if (!matched) return send(reply, adminErrorPage(base, 404, 'admin_not_found'));
      const page = matched.page;
      const run = method === 'GET' ? page.get : method === 'POST' ? page.post : undefined;
      if (!run) return send(reply, methodNotAllowed(adminErrorPage(base, 405, 'admin_method_not_allowed'), page));
      if (!mayOpen(session.user, page.access)) return send(reply, adminErrorPage(base, 403, 'rest_forbidden'));
      if (method === 'POST') {
        // §6.1 step 3 (and 4 for multipart; urlencoded bodies were bounded when read).
        if (page.multipart && request.isMultipart()) {
          const limit = typeof page.multipart === 'object' ? page.multipart.limit : config.bodyLimit;
          try {
            const body = await readMultipart(request, session.csrfToken, limit);
            return send(reply, await run({ ...base, form: formFields(body.pairs), files: body.files }));
          } catch (error) {
            if (!(error instanceof MultipartRefused)) throw error;
            if (error.reason === 'token') return send(reply, adminErrorPage(base, 403, 'admin_token_invalid'));
            return send(reply, adminErrorPage(base, 413, 'rest_request_too_large', t('rest_request_too_large', { limit })));
          }
        }
        const form = formOf(request);
        if (!tokenMatches(form.get('_token'), session.csrfToken)) return send(reply, adminErrorPage(base, 403, 'admin_token_invalid'));
        return send(reply, await run({ ...base, form }));
      }
      return send(reply, await run(base));
    };
  }
}

function methodNotAllowed(answer: AdminAnswer, page: { get?: unknown; post?: unknown }): AdminAnswer {
  const allow = [...(page.get ? ['GET', 'HEAD'] : []), ...(page.post ? ['POST'] : [])].join(', ');
  return 'redirect' in answer ? answer : { ...answer, headers: { ...answer.headers, Allow: allow } };
}

/** The pairs of an urlencoded post (a multipart one on a page that takes none reads as empty). */
function formOf(request: FastifyRequest): FormFields {
  if (request.isMultipart()) return NO_FIELDS;
  return Array.isArray(request.body) ? formFields(request.body as [string, string][]) : NO_FIELDS;
}

