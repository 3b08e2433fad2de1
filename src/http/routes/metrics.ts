import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { RestError } from '../../domain/errors.ts';
import { sendRestError } from '../plugins/errors.ts';

const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `GET {base}/metrics` (140 §4.1): the Prometheus text, to loopback clients (the socket's address;
 * forwarded headers never count) or, with a token set, to whoever sends it as a Bearer token.
 */
export function registerMetricsRoute(app: FastifyInstance, basePath: string, token: string | null, exposition: () => Promise<string>): void {
  app.get(`${basePath}/metrics`, { config: { ownAuthorization: true } }, async (request, reply) => {
    if (token !== null) {
      const header = request.headers.authorization ?? '';
      if (!header.startsWith('Bearer ') || !sameToken(header.slice(7), token)) {
        return sendRestError(new RestError(401, 'metrics-unauthorized', { headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' } }), request, reply);
      }
    } else if (!isLoopback(request.raw.socket.remoteAddress)) {
      return sendRestError(new RestError(403, 'metrics-forbidden'), request, reply);
    }
    const text = await exposition();
    return reply.type(CONTENT_TYPE).header('Cache-Control', 'no-store').send(text);
  });
}
