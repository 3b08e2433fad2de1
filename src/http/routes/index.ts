import type { MediaService } from '../../services/media/media-service.ts';
import type { Clock } from '../../domain/dates/clock.ts';
import type { Config } from '../../config.ts';
import type { UsersService } from '../../services/users-service.ts';
import type { Storage } from '../../storage/database.ts';
import type { NamespaceDef } from '../rest/endpoint.ts';
import { NAMESPACE } from '../../render/urls.ts';
import { changesRoute } from './changes.ts';
import { docRoute } from './doc.ts';
import { eventRoutes } from './events.ts';
import { organizerRoutes, venueRoutes } from './linked-posts.ts';
import { rootRoute } from './root.ts';
import { categoryRoutes, tagRoutes } from './terms.ts';

/** What route modules are built from. */
export interface AppDeps {
  config: Config;
  storage: Storage;
  clock: Clock;
  users: UsersService;
  media: MediaService;
}

/**
 * The events namespace. Routes are listed in the reference's order (30 §2): the namespace index
 * shows them in this order.
 */
export function eventsNamespace(deps: AppDeps): NamespaceDef {
  const def: NamespaceDef = { namespace: NAMESPACE, routes: [] };
  def.routes.push(
    rootRoute(def),
    docRoute(def),
    ...eventRoutes(deps),
    ...venueRoutes(deps),
    ...organizerRoutes(deps),
    ...categoryRoutes(deps),
    ...tagRoutes(deps),
    changesRoute(deps),
  );
  return def;
}
