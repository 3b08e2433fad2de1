import type { ArgSpecs } from '../../args/arg-spec.ts';
import type { RestContext } from './context.ts';
import type { Params } from '../../args/validate-args.ts';
import type { RecordTag } from '../../domain/sync/preconditions.ts';
import type { Survives } from '../replay/answer-replay.ts';
import type { JsonSchema } from '../schemas/json-schema.ts';

/** A documented answer of an endpoint: English description, and the body's schema when it has one. */
export interface DocumentedResponse {
  description: string;
  schema?: JsonSchema;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RestResponse {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  /** A single record's answer: its tag carries kind, id and revision (80 §1.1); other answers get a list tag. */
  etag?: RecordTag;
  /** A read's: which described writes leave the answer true (replayed through them); without it, none. */
  survives?: Survives;
}

/**
 * One handler of a route, declared the way the reference declares it: arguments (validated
 * before anything else), a permission gate (after validation: 401 for visitors, 403 otherwise),
 * then the handler.
 */
export interface Endpoint {
  methods: readonly HttpMethod[];
  args: ArgSpecs;
  permission?: (ctx: RestContext, params: Params) => boolean | Promise<boolean>;
  handler: (ctx: RestContext, params: Params) => RestResponse | Promise<RestResponse>;
  /** Short English summary, for the documentation. */
  summary?: string;
  /** Media type of a success body that is not JSON (an iCalendar file); the route is an extension. */
  produces?: string;
  /** The answers the document lists, by status, for an endpoint that answers no record of a resource. */
  responses?: Readonly<Record<number, DocumentedResponse>>;
}

export interface RouteDef {
  /**
   * The reference's route pattern relative to the namespace, e.g. `/events/(?P<id>\d+)`: the key
   * of the namespace index. The Fastify path is derived from it.
   */
  pattern: string;
  endpoints: Endpoint[];
}

/** A namespace and its routes in registration order (the order the index lists them). */
export interface NamespaceDef {
  namespace: string;
  routes: RouteDef[];
}

/**
 * `/events/(?P<id>\d+)` → `/events/:id(^\d+$)`; `(?P<slug>[^/]+)` → `:slug`; a variable followed by
 * an extension (`(?P<id>\d+)\.ics`) → `:id(^\d+).ics`.
 */
export function fastifyPath(pattern: string): string {
  return pattern.replace(/\(\?P<(\w+)>([^)]*)\)(\\\.\w+)?/g, (_whole, name: string, regex: string, extension?: string) => {
    if (extension) return `:${name}(^${regex})${extension.slice(1)}`;
    return regex === '[^/]+' ? `:${name}` : `:${name}(^${regex}$)`;
  });
}
