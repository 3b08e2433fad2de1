import type { FastifyInstance } from 'fastify';
import { pageAssets } from '../../web/page-assets.ts';
import type { FailureThrottle } from '../plugins/failure-throttle.ts';
import type { NamespaceDef } from '../rest/endpoint.ts';
import type { AppDeps } from '../routes/index.ts';
import { signinServices } from '../../services/signin/signin-services.ts';
import { provideAdminServices } from './admin-services.ts';
import { provideApi } from './call-api.ts';
import { ADMIN_PAGE_MODULES, PUBLIC_PAGES } from './pages/index.ts';
import { registerAdminRouter } from './router.ts';

/**
 * The back office (100) in one app: its services, the namespaces callApi runs (the very objects
 * the REST routes were registered from), and the router over every page module.
 */
export async function registerBackOffice(app: FastifyInstance, deps: AppDeps, namespaces: NamespaceDef[], throttle: FailureThrottle): Promise<void> {
  provideApi(deps, namespaces);
  provideAdminServices(deps, {
    config: deps.config,
    ...signinServices(deps),
    throttle,
    assets: pageAssets(deps.config.basePath, deps.config.brand).links,
    pagePaths: new Set(),
  });
  await registerAdminRouter(app, { deps, modules: ADMIN_PAGE_MODULES, publicPages: PUBLIC_PAGES });
}
