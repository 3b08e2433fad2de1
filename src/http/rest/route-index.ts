import { translateDescription } from '../../i18n/descriptions/index.ts';
import type { ArgSpec } from '../../args/arg-spec.ts';
import type { RestContext } from './context.ts';
import type { NamespaceDef, RouteDef } from './endpoint.ts';

/** The JSON-Schema-like keys the reference publishes for an argument, in declaration order. */
const PUBLISHED_KEYS = new Set(['default', 'description', 'type', 'items', 'enum', 'format', 'minimum', 'maximum', 'maxItems']);

function renderArg(spec: ArgSpec, ctx: RestContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(spec)) {
    if (!PUBLISHED_KEYS.has(key)) continue;
    out[key] = key === 'description' ? translateDescription(ctx.lang, value as string) : value;
  }
  out.required = spec.required === true;
  return out;
}

/** The index key of a route: `/{namespace}{pattern}`, in the namespace the request came in on. */
function routeKey(route: RouteDef, ctx: RestContext): string {
  return `/${ctx.urls.namespace}${route.pattern}`;
}

/** One entry of the namespace index (30 §2), also the body of OPTIONS on that route. */
export function renderRoute(route: RouteDef, ctx: RestContext): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    namespace: ctx.urls.namespace,
    methods: route.endpoints.flatMap((endpoint) => endpoint.methods),
    endpoints: route.endpoints.map((endpoint) => {
      const args = Object.entries(endpoint.args);
      return {
        methods: endpoint.methods,
        args: args.length === 0 ? [] : Object.fromEntries(args.map(([name, spec]) => [name, renderArg(spec, ctx)])),
      };
    }),
  };
  if (!route.pattern.includes('(?P<')) entry._links = { self: [{ href: `${ctx.urls.edition}${routeKey(route, ctx)}` }] };
  return entry;
}

/**
 * `GET {ns}`: the namespace index, generated from the registered routes in their order, named
 * after the namespace the request came in on (an alias's index is the alias's, 90 §1).
 */
export function renderNamespaceIndex(def: NamespaceDef, ctx: RestContext): Record<string, unknown> {
  const routes: Record<string, unknown> = {};
  for (const route of def.routes) routes[routeKey(route, ctx)] = renderRoute(route, ctx);
  return { namespace: ctx.urls.namespace, routes, _links: { up: [{ href: `${ctx.urls.edition}/` }] } };
}
