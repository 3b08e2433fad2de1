import { createServer, type Server } from 'node:http';
import type { FastifyInstance, FastifyServerFactory } from 'fastify';
import type { AnswerReplay } from './answer-replay.ts';

/**
 * The HTTP server Fastify would create (same timeouts), with recorded answers replayed before a
 * request reaches the framework.
 */
export function replayingServer(replay: AnswerReplay): FastifyServerFactory<Server> {
  return (handler, options) => {
    const settings = options as { http?: object; keepAliveTimeout: number; requestTimeout: number; connectionTimeout: number; maxRequestsPerSocket?: number };
    const server = createServer(settings.http ?? {}, (request, response) => replay.handle(request, response, handler));
    server.keepAliveTimeout = settings.keepAliveTimeout;
    server.requestTimeout = settings.requestTimeout;
    server.setTimeout(settings.connectionTimeout);
    if ((settings.maxRequestsPerSocket ?? 0) > 0) server.maxRequestsPerSocket = settings.maxRequestsPerSocket!;
    return server;
  };
}

/**
 * Records answers as they leave: registered after every hook that sets headers on all routes
 * (security, CORS), so that a replay carries the same ones.
 */
export function registerReplayRecording(app: FastifyInstance, replay: AnswerReplay): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    replay.record(request.raw, reply.statusCode, reply.getHeaders(), payload);
    done(null, payload);
  });
}
