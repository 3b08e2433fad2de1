import type { Config } from '../../config.ts';
import type { SessionsService } from '../../services/signin/sessions-service.ts';
import type { SigninService } from '../../services/signin/signin-service.ts';
import type { PageAssets } from '../../web/page-assets.ts';
import type { FailureThrottle } from '../plugins/failure-throttle.ts';
import type { AppDeps } from '../routes/index.ts';

/** What the back office's pages share in one app: the sign-in services, the API's failure counters, the assets. */
export interface AdminServices {
  config: Config;
  sessions: SessionsService;
  signin: SigninService;
  /** The API's authentication failure counters (100 §5.2: sign-in failures count with them). */
  throttle: FailureThrottle;
  assets: PageAssets;
  /** Paths (below /admin) of the registered pages: the navigation links only to pages that exist. */
  pagePaths: Set<string>;
}

const registry = new WeakMap<AppDeps, AdminServices>();

export function provideAdminServices(deps: AppDeps, services: AdminServices): void {
  registry.set(deps, services);
}

/** The back office services of the app `deps` belongs to (pages: `adminServices(req.deps)`). */
export function adminServices(deps: AppDeps): AdminServices {
  const services = registry.get(deps);
  if (!services) throw new Error('the back office is not registered for these deps');
  return services;
}
