import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from '../../config.ts';

/** Headers that carry credentials: never written to a log line. */
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
      ? pretty({ colorize: isTerminal, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,reqId', singleLine: true, sync: true })
      : undefined);
  return { level: config.logLevel, redact: { paths: REDACTED, censor: '[redacted]' }, ...(destination ? { stream: destination } : {}) };
}

const QUIETER_THAN_INFO = new Set(['warn', 'error', 'fatal', 'silent']);

/**
 * One line per request at `info`: method, path (without the query string, which may hold an
 * event password), status and time in milliseconds.
 */
export function registerRequestLog(app: FastifyInstance): void {
  // Above `info` the hook would only cost every request its call.
  if (QUIETER_THAN_INFO.has(app.log.level)) return;
  app.addHook('onResponse', (request, reply, done) => {
    const path = request.url.split('?', 1)[0];
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    request.log.info({ method: request.method, path, status: reply.statusCode, ms }, `${request.method} ${path} ${reply.statusCode} ${ms}ms`);
    done();
  });
}
