import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../../domain/dates/clock.ts';
import { forbidden } from '../../domain/errors.ts';
import { EDITION_PREFIXES, LANGUAGES } from '../../i18n/catalog.ts';
import { createContext, type RestContext } from './context.ts';
import { fastifyPath, type Endpoint, type NamespaceDef, type RouteDef } from './endpoint.ts';
import { adoptObservedEpoch } from '../../read/read-cache.ts';
import { epochObservedBefore, markReplayable } from '../replay/answer-replay.ts';
import { renderRoute } from './route-index.ts';
import { sendJson } from './send.ts';
import { validateArgs } from '../../args/validate-args.ts';

export interface RegisterOptions {
  basePath: string;
  publicUrl: string | null;
  clock: Clock;
  /** 80 §1.3 (`CALENDAR_REQUIRE_IF_MATCH`). */
  requireIfMatch?: boolean;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !Buffer.isBuffer(value);
}

/**
 * Request parameters from every source, path values winning (30 §4.7): path > body > query.
 * A body that is not an object (a JSON array or string) contributes nothing. `shadowed` keeps
 * what a path value replaced (a by-slug update's body `slug` is the new slug, 10-events §7.5).
 */
function mergeInput(request: FastifyRequest): { merged: Record<string, unknown>; shadowed: Record<string, unknown> } {
  const merged: Record<string, unknown> = Object.create(null);
  const shadowed: Record<string, unknown> = Object.create(null);
  if (isPlainObject(request.query)) Object.assign(merged, request.query);
  if (isPlainObject(request.body)) Object.assign(merged, request.body);
  if (isPlainObject(request.params)) {
    for (const name of Object.keys(request.params)) {
      if (merged[name] !== undefined) shadowed[name] = merged[name];
    }
    Object.assign(merged, request.params);
  }
  return { merged, shadowed };
}

/**
 * Registers every route of a namespace under each language edition and under each alias of the
 * namespace (90 §1): a mount differs only in the addresses its answers link to.
 */
export function registerNamespace(app: FastifyInstance, def: NamespaceDef, options: RegisterOptions, aliases: readonly string[] = []): void {
  for (const namespace of [def.namespace, ...aliases]) {
    for (const lang of LANGUAGES) mount(app, def, options, namespace, `${options.basePath}${EDITION_PREFIXES[lang]}/${namespace}`);
  }
}

function mount(app: FastifyInstance, def: NamespaceDef, options: RegisterOptions, namespace: string, prefix: string): void {
  const context = (request: FastifyRequest): RestContext =>
    createContext(request, { publicUrl: options.publicUrl, basePath: options.basePath, namespace, now: options.clock(), requireIfMatch: options.requireIfMatch });

  const run = (endpoint: Endpoint) => async (request: FastifyRequest, reply: import('fastify').FastifyReply) => {
    const ctx = context(request);
    const observed = epochObservedBefore(request.raw);
    if (observed !== undefined) adoptObservedEpoch(ctx, observed);
    const { merged, shadowed } = mergeInput(request);
    const params = await validateArgs(endpoint.args, merged, ctx, shadowed);
    if (endpoint.permission && !(await endpoint.permission(ctx, params))) throw forbidden(ctx.user === null);
    const result = await endpoint.handler(ctx, params);
    if (request.method === 'GET') markReplayable(request.raw, ctx.now, result.survives);
    return sendJson(request, reply, result.status ?? 200, result.body, result.headers, result.etag);
  };

  for (const route of def.routes) {
    const url = prefix + fastifyPath(route.pattern);
    for (const endpoint of route.endpoints) {
      app.route({ method: [...endpoint.methods], url: url === '' ? '/' : url, handler: run(endpoint) });
    }
    app.route({ method: 'OPTIONS', url, handler: optionsHandler(route, context) });
  }
}

function optionsHandler(route: RouteDef, context: (request: FastifyRequest) => RestContext) {
  const allow = [...new Set(route.endpoints.flatMap((endpoint) => endpoint.methods))].join(', ');
  return async (request: FastifyRequest, reply: import('fastify').FastifyReply) => {
    const ctx = context(request);
    const body = renderRoute(route, ctx);
    return sendJson(request, reply, 200, body, { Allow: allow });
  };
}
