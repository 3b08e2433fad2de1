import type { FastifyInstance } from 'fastify';
import { RestError } from '../../domain/errors.ts';
import type { Storage } from '../../storage/database.ts';
import { sendRestError } from '../plugins/errors.ts';

/** What `/readyz` reports besides the database (140 §2): set once a stop has begun. */
export interface Lifecycle {
  stopping: boolean;
}

/**
 * `GET {base}/healthz`: 200 while the database answers (liveness, also while stopping).
 * `GET {base}/readyz`: 200 while the process has started, is not stopping and the database answers.
 */
export function registerHealth(app: FastifyInstance, storage: Storage, basePath: string, lifecycle: Lifecycle = { stopping: false }): void {
  const json = 'application/json; charset=UTF-8';
  app.get(`${basePath}/healthz`, { config: { probe: true } }, async (request, reply) => {
    if (await storage.ping()) return reply.type(json).header('Cache-Control', 'no-store').send('{"status":"ok","database":"reachable"}');
    return sendRestError(new RestError(503, 'rest_service_unavailable'), request, reply);
  });
  app.get(`${basePath}/readyz`, { config: { probe: true } }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (lifecycle.stopping) return sendRestError(new RestError(503, 'rest_service_unavailable', { messageKey: 'rest_service_stopping', data: { reason: 'stopping' } }), request, reply);
    if (!(await storage.ping())) return sendRestError(new RestError(503, 'rest_service_unavailable', { data: { reason: 'database' } }), request, reply);
    return reply.type(json).send('{"status":"ready"}');
  });
}
