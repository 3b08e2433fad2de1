import type { FastifyInstance } from 'fastify';
import { RestError } from '../../domain/errors.ts';
import type { Storage } from '../../storage/database.ts';
import { sendRestError } from '../plugins/errors.ts';

/** `GET {base}/healthz`: 200 while the database answers, 503 when it does not. */
export function registerHealth(app: FastifyInstance, storage: Storage, basePath: string): void {
  app.get(`${basePath}/healthz`, async (request, reply) => {
    if (await storage.ping()) return reply.type('application/json; charset=UTF-8').send('{"status":"ok","database":"reachable"}');
    return sendRestError(new RestError(503, 'rest_service_unavailable'), request, reply);
  });
}
