import { peopleDeps } from '../../src/http/routes/admin-people.ts';
import { adminNamespace } from '../../src/http/routes/admin-users.ts';
import { ADMIN_NAMESPACE } from '../../src/render/urls.ts';
import { UsersService } from '../../src/services/users-service.ts';
import { webhookRoutes } from '../../src/http/routes/admin-webhooks.ts';
import { changeHead } from '../../src/services/webhooks/change-fan-out.ts';
import { WebhooksService } from '../../src/services/webhooks/webhooks-service.ts';
import { NS, type TestApp } from '../helpers/test-app.ts';

/** One route of the service as its index publishes it: a pattern, and per handler its methods and argument names. */
export interface CatalogRoute {
  /** The index key, e.g. `/calendar/events/v1/venues/(?P<id>\d+)`. */
  key: string;
  endpoints: CatalogEndpoint[];
}

export interface CatalogEndpoint {
  methods: string[];
  args: string[];
  required: string[];
}

interface IndexEntry {
  endpoints: Array<{ methods: string[]; args: Record<string, { required?: boolean }> | [] }>;
}

/**
 * Every route and method of the service: the events namespace from its own index `GET {ns}`
 * (so routes added later are covered without touching the tests) plus the admin namespace,
 * which has no index, from its declaration.
 */
export async function routeCatalog(t: TestApp): Promise<CatalogRoute[]> {
  const index = await t.request('GET', NS);
  if (index.status !== 200) throw new Error(`GET ${NS} answered ${index.status}`);
  const routes: CatalogRoute[] = Object.entries(index.body.routes as Record<string, IndexEntry>).map(([key, entry]) => ({
    key,
    endpoints: entry.endpoints.map((endpoint) => {
      const args = Array.isArray(endpoint.args) ? {} : endpoint.args;
      return { methods: endpoint.methods, args: Object.keys(args), required: Object.keys(args).filter((name) => args[name].required === true) };
    }),
  }));
  const webhooks = webhookRoutes(new WebhooksService(t.storage, t.config.webhooks, changeHead), t.config.webhooks);
  const admin = adminNamespace(peopleDeps({ users: new UsersService(t.storage, () => new Date()), storage: t.storage, clock: () => new Date(), config: t.config }), webhooks);
  for (const route of admin.routes) {
    routes.push({
      key: `/${ADMIN_NAMESPACE}${route.pattern}`,
      endpoints: route.endpoints.map((endpoint) => ({
        methods: [...endpoint.methods],
        args: Object.keys(endpoint.args),
        required: Object.keys(endpoint.args).filter((name) => endpoint.args[name].required === true),
      })),
    });
  }
  return routes;
}

/** The path variables of a route key, in order: `[['id', '\\d+']]`. */
export function pathVariables(key: string): Array<[name: string, regex: string]> {
  return [...key.matchAll(/\(\?P<(\w+)>([^)]*)\)/g)].map((match) => [match[1], match[2]]);
}

/** The key with each path variable replaced by the given (already encoded) segment. */
export function fillPath(key: string, segments: readonly string[]): string {
  let index = 0;
  return key.replace(/\(\?P<(\w+)>([^)]*)\)/g, () => segments[index++] ?? '').replace(/\\\./g, '.');
}
