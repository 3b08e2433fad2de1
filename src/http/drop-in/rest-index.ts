import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { DateTime } from 'luxon';
import type { Config } from '../../config.ts';
import type { Clock } from '../../domain/dates/clock.ts';
import { createContext } from '../rest/context.ts';
import type { NamespaceDef } from '../rest/endpoint.ts';
import { renderNamespaceIndex } from '../rest/route-index.ts';
import { sendJson } from '../rest/send.ts';
import { markReplayable } from '../replay/answer-replay.ts';
import { restRouteForm } from './rest-route.ts';

/** A namespace as the index lists it: its routes, mounted under its own name or an alias's. */
export interface IndexedNamespace {
  name: string;
  def: NamespaceDef;
}

/** `UTC`, `UTC+5:30`, `+02:00`: zones WordPress keeps as an offset, with an empty `timezone_string`. */
const OFFSET_ZONE = /^(?:(?:UTC|GMT)?[+-]\d{1,2}(?::?\d{2})?)$/i;

const ROOT_ROUTE = {
  namespace: '',
  methods: ['GET'],
  endpoints: [{ methods: ['GET'], args: { context: { default: 'view', required: false } } }],
};

/**
 * `GET|HEAD {api}/`: WordPress's REST index (140 §1.3, `WP_REST_Server::get_index()`), which
 * clients written for WordPress read first. When `{api}` and `{base}` are one address, the page
 * root stays the page's for `?post_type=…&p=…` (55 §7.5) and, with an empty prefix, for plain
 * visits; the `?rest_route=/` form always reaches the index.
 */
export function registerRestIndex(app: FastifyInstance, config: Config, clock: Clock, namespaces: IndexedNamespace[], pageRoot?: RouteHandlerMethod): void {
  const api = config.apiPath;
  const index = (request: FastifyRequest, reply: FastifyReply) => {
    const now = clock();
    const context = (namespace: string) =>
      createContext(request, { publicUrl: config.publicUrl, basePath: config.basePath, apiPath: api, namespace, now });
    const home = context('').urls;
    const routes: Record<string, unknown> = { '/': { ...ROOT_ROUTE, _links: { self: [{ href: `${home.apiEdition}/` }] } } };
    for (const { name, def } of namespaces) Object.assign(routes, renderNamespaceIndex(def, context(name)).routes);
    const offset = DateTime.fromJSDate(now, { zone: config.timezone }).offset / 60;
    const body = {
      name: config.siteName ?? new URL(home.origin).hostname,
      description: '',
      url: home.site,
      home: home.site,
      gmt_offset: offset,
      timezone_string: OFFSET_ZONE.test(config.timezone) ? '' : config.timezone,
      page_for_posts: 0,
      page_on_front: 0,
      show_on_front: 'posts',
      namespaces: namespaces.map((namespace) => namespace.name),
      authentication: {},
      routes,
      _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] },
    };
    // With both prefixes empty `/` is also the page root: its replay key would be the page's.
    if (request.method === 'GET' && api !== '') markReplayable(request.raw, now, () => true);
    return sendJson(request, reply, 200, body);
  };
  const url = api === '' ? '/' : `${api}/`;
  if (pageRoot === undefined) {
    app.route({ method: ['GET', 'HEAD'], url, handler: index });
    return;
  }
  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url,
    handler(request, reply) {
      if (restRouteForm(request.raw)) return index(request, reply);
      const query = request.query as Record<string, unknown>;
      const page = api === '' || (query.post_type !== undefined && query.p !== undefined) || (request.method !== 'GET' && request.method !== 'HEAD');
      return page ? pageRoot.call(this, request, reply) : index(request, reply);
    },
  });
}
