import { validateArgs } from '../../args/validate-args.ts';
import { forbidden, InvalidParamsError, MissingParamsError, RestError } from '../../domain/errors.ts';
import { bodyHash, entityTagOfHash } from '../../domain/sync/preconditions.ts';
import { translate } from '../../i18n/catalog.ts';
import { ADMIN_NAMESPACE, NAMESPACE, UrlBuilder } from '../../render/urls.ts';
import type { RestContext } from '../rest/context.ts';
import type { Endpoint, HttpMethod, NamespaceDef } from '../rest/endpoint.ts';
import { FileBody, JsonText } from '../rest/send.ts';
import type { AppDeps } from '../routes/index.ts';
import type { AdminRequest } from './admin-request.ts';

export type ApiOutcome =
  | { ok: true; status: number; body: any; etag?: string }
  | { ok: false; status: number; code: string; message: string; details: Record<string, { code?: string; message: string }>; data?: unknown };

export interface ApiCall {
  method: HttpMethod;
  /** The RouteDef pattern in its namespace, e.g. '/events/(?P<id>\\d+)'. */
  route: string;
  /** Default: the events namespace. */
  namespace?: 'events' | 'admin';
  /** Merged arguments (path ids included). */
  params: Record<string, unknown>;
  /** The form's `revision` → If-Match. */
  ifMatch?: string;
}

const namespaces = new WeakMap<AppDeps, NamespaceDef[]>();

/** The namespaces whose endpoints callApi runs (buildApp hands over the same objects the REST routes use). */
export function provideApi(deps: AppDeps, defs: NamespaceDef[]): void {
  namespaces.set(deps, defs);
}

function findEndpoint(deps: AppDeps, call: ApiCall): Endpoint {
  const name = call.namespace === 'admin' ? ADMIN_NAMESPACE : NAMESPACE;
  const def = namespaces.get(deps)?.find((candidate) => candidate.namespace === name);
  const route = def?.routes.find((candidate) => candidate.pattern === call.route);
  const endpoint = route?.endpoints.find((candidate) => candidate.methods.includes(call.method));
  if (!endpoint) throw new Error(`no endpoint ${call.method} ${name}${call.route}`);
  return endpoint;
}

function failure(error: RestError, ctx: RestContext): ApiOutcome {
  const details: Record<string, { code?: string; message: string }> = {};
  if (error instanceof InvalidParamsError) {
    for (const [name, { reason }] of Object.entries(error.failures)) details[name] = { code: reason.code, message: translate(ctx.lang, reason.messageKey, reason.vars) };
  }
  if (error instanceof MissingParamsError) {
    for (const name of error.names) details[name] = { code: 'rest_missing_callback_param', message: translate(ctx.lang, 'reason_not_empty') };
  }
  return { ok: false, status: error.status, code: error.code, message: translate(ctx.lang, error.messageKey, error.vars), details, data: { status: error.status, ...error.data } };
}

/**
 * 100 §11 "one implementation": runs a REST endpoint in process for the session's user and
 * edition — the same Endpoint object the REST route runs: argument validation, permission gate,
 * handler — with `ifMatch` as the request's If-Match. A RestError is an `ok: false` outcome.
 * Public pages call it too, with a context of their own user (members' submissions, 120 §9).
 */
export async function callApi(req: Pick<AdminRequest, 'deps' | 'ctx' | 'lang'>, call: ApiCall): Promise<ApiOutcome> {
  const endpoint = findEndpoint(req.deps, call);
  const { config } = req.deps;
  const urls = req.ctx.urls;
  const ctx: RestContext = {
    ...req.ctx,
    urls: new UrlBuilder(urls.origin, urls.basePath, req.lang, call.namespace === 'admin' ? ADMIN_NAMESPACE : NAMESPACE, urls.apiPath),
    precondition: { ifMatch: call.ifMatch, required: config.requireIfMatch },
  };
  try {
    const params = await validateArgs(endpoint.args, { ...call.params }, ctx, {});
    if (endpoint.permission && !(await endpoint.permission(ctx, params))) throw forbidden(ctx.user === null);
    const result = await endpoint.handler(ctx, params);
    const body = result.body instanceof JsonText ? result.body.value : result.body;
    const etag = result.etag === undefined || body instanceof FileBody ? undefined : entityTagOfHash(bodyHash(JSON.stringify(body)), result.etag);
    return { ok: true, status: result.status ?? 200, body, etag };
  } catch (error) {
    if (error instanceof RestError) return failure(error, ctx);
    throw error;
  }
}

/** A call into the admin namespace (users, credentials, webhooks), as the people and webhook pages make them. */
export function callAdminApi(req: AdminRequest, method: HttpMethod, route: string, params: Record<string, unknown> = {}): Promise<ApiOutcome> {
  return callApi(req, { method, route, namespace: 'admin', params });
}
