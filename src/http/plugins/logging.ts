import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';
import type prettyModule from 'pino-pretty';
import { lazyModule } from '../../lazy-module.ts';
import type { Config } from '../../config.ts';
import type { AnswerReplay } from '../replay/answer-replay.ts';

/** Headers that carry credentials: never written to a log line. */
/** Loaded only for readable lines (a terminal, or LOG_FORMAT=pretty): JSON lines never need it. */
const pretty = lazyModule<typeof prettyModule>('pino-pretty');

const REDACTED = ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie'];

/**
 * The logger options: readable lines on a terminal, JSON lines for log collectors otherwise
 * (LOG_FORMAT forces either). Fastify's own two lines per request are replaced by one (below).
 */
export function loggerOptions(config: Config, stream: DestinationStream | undefined, isTerminal: boolean): FastifyServerOptions['logger'] {
  const format = config.logFormat ?? (isTerminal ? 'pretty' : 'json');
  const destination =
    stream ??
    (format === 'pretty'
      ? pretty()({ colorize: isTerminal, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,reqId', singleLine: true, sync: true })
      : undefined);
  return { level: config.logLevel, redact: { paths: REDACTED, censor: '[redacted]' }, ...(destination ? { stream: destination } : {}) };
}

const QUIETER_THAN_INFO = new Set(['warn', 'error', 'fatal', 'silent']);

/**
 * One line per request at `info`: method, path (without the query string, which may hold an
 * event password), status and time in milliseconds; a replayed answer says so.
 */
export function registerRequestLog(app: FastifyInstance, replay?: AnswerReplay): void {
  // Above `info` the hook would only cost every request its call.
  if (QUIETER_THAN_INFO.has(app.log.level)) return;
  const line = (log: FastifyBaseLogger, method: string, url: string, status: number, elapsedMs: number, replayed = false) => {
    const path = url.split('?', 1)[0];
    const ms = Math.round(elapsedMs * 10) / 10;
    log.info({ method, path, status, ms, ...(replayed ? { replayed } : {}) }, `${method} ${path} ${status} ${ms}ms${replayed ? ' (replayed)' : ''}`);
  };
  app.addHook('onResponse', (request, reply, done) => {
    if (request.routeOptions.config?.probe === true) return done();
    line(request.log, request.method, request.url, reply.statusCode, reply.elapsedTime);
    done();
  });
  if (replay) replay.requestLine = (method, url, status, ms) => line(app.log, method, url, status, ms, true);
}
