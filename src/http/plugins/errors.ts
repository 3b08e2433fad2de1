import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { translate } from '../../i18n/catalog.ts';
import { InvalidParamsError, RestError } from '../../domain/errors.ts';
import { sendJson } from '../rest/send.ts';
import { languageOfPath, type SitePaths } from './request-state.ts';
import { setSecurityHeaders } from './security.ts';

interface ErrorBody {
  code: string;
  message: string;
  data: Record<string, unknown>;
}

function restErrorBody(error: RestError, request: FastifyRequest): ErrorBody {
  const lang = request.lang;
  const data: Record<string, unknown> = { status: error.status, ...error.data };
  if (error instanceof InvalidParamsError) {
    const params: Record<string, string> = {};
    const details: Record<string, unknown> = {};
    for (const [name, failure] of Object.entries(error.failures)) {
      params[name] = translate(lang, failure.messageKey ?? 'rest_invalid_param_generic', failure.vars);
      const { reason } = failure;
      details[name] = { code: reason.code, message: translate(lang, reason.messageKey, reason.vars), data: { status: 400 } };
    }
    data.params = params;
    data.details = details;
  }
  return { code: error.code, message: translate(lang, error.messageKey, error.vars), data };
}

/** Framework errors (body parsing, limits) in the service's vocabulary. */
function fromFrameworkError(error: FastifyError, bodyLimit: number): RestError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new RestError(413, 'rest_request_too_large', { vars: { limit: bodyLimit } });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new RestError(400, 'rest_invalid_json');
  }
  if (error.statusCode === 413) return new RestError(413, 'rest_request_too_large', { vars: { limit: bodyLimit } });
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return new RestError(400, 'rest_invalid_json');
  }
  return null;
}

export function sendRestError(error: RestError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendJson(request, reply, error.status, restErrorBody(error, request), error.headers);
}

/**
 * Errors of the router itself (a path that cannot be percent-decoded, a path segment longer than
 * any identifier): no route can serve such a path. They arrive before any hook has run.
 */
export function routerErrorAnswer(paths: SitePaths) {
  return (_error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    request.lang = languageOfPath(request.url, paths);
    setSecurityHeaders(request, reply);
    return sendRestError(new RestError(404, 'rest_no_route'), request, reply);
  };
}

/**
 * Every error leaves as JSON in the WordPress REST shape. Unexpected ones are logged with their
 * stack and answered with a 500 that says nothing about the internals.
 */
export function registerErrorHandling(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof RestError) {
      if (error.cause !== undefined) request.log.error({ err: error.cause }, `request failed: ${error.code}`);
      return sendRestError(error, request, reply);
    }
    const mapped = fromFrameworkError(error, bodyLimit);
    if (mapped) return sendRestError(mapped, request, reply);
    request.log.error({ err: error }, 'unhandled error');
    return sendRestError(new RestError(500, 'rest_internal_error'), request, reply);
  });
  app.setNotFoundHandler((request, reply) => sendRestError(new RestError(404, 'rest_no_route'), request, reply));
}
