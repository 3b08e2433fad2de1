import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FastifyServerFactory } from 'fastify';
import type { AnswerReplay } from './replay/answer-replay.ts';

/** Something that watches every request from its arrival to its last byte (metrics, the shutdown's count). */
export type RequestObserver = (request: IncomingMessage, response: ServerResponse) => void;

export interface FrontOptions {
  /** Rewrites a request's address before anything looks at it (`?rest_route=`, 140 §1.4). */
  rewrite: (request: IncomingMessage) => void;
  /** The metrics' watch, when they are on (nothing else runs per request: see in-flight.ts). */
  observe?: RequestObserver;
  /** Recorded answers replayed in front of the framework. */
  replay?: AnswerReplay;
}

/**
 * The HTTP server Fastify would create (same timeouts), where each request is first rewritten and
 * observed, then answered from a recording or handed to the framework.
 */
export function frontServer(front: FrontOptions): FastifyServerFactory<Server> {
  return (handler, options) => {
    const settings = options as { http?: object; keepAliveTimeout: number; requestTimeout: number; connectionTimeout: number; maxRequestsPerSocket?: number };
    const server = createServer(settings.http ?? {}, (request, response) => {
      front.rewrite(request);
      front.observe?.(request, response);
      if (front.replay) front.replay.handle(request, response, handler);
      else handler(request, response);
    });
    server.keepAliveTimeout = settings.keepAliveTimeout;
    server.requestTimeout = settings.requestTimeout;
    server.setTimeout(settings.connectionTimeout);
    if ((settings.maxRequestsPerSocket ?? 0) > 0) server.maxRequestsPerSocket = settings.maxRequestsPerSocket!;
    return server;
  };
}
