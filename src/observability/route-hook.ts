import type { FastifyInstance } from 'fastify';
import { routeLabel, setRouteLabel } from './route-label.ts';

/** Names each routed request after the pattern that matched it (unmatched ones stay unnamed). */
export function labelRoutes(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const pattern = request.routeOptions.url;
    if (pattern !== undefined && request.is404 !== true) setRouteLabel(request.raw, routeLabel(pattern));
    done();
  });
}
