import type { FastifyInstance } from 'fastify';
import { RestError } from '../../domain/errors.ts';
import { restRouteForm } from './rest-route.ts';

/**
 * `?rest_route=` names REST routes only (140 §1.4): a value that is no address, or that lands on a
 * page, is WordPress's 404 `rest_no_route`.
 */
export function refuseNonRestRoutes(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const form = restRouteForm(request.raw);
    if (form !== undefined && (!form.valid || request.routeOptions.config?.page === true)) return done(new RestError(404, 'rest_no_route'));
    done();
  });
}
