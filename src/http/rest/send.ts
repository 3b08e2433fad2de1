import type { FastifyReply, FastifyRequest } from 'fastify';
import { envelope, pickFields } from './response-shaping.ts';

const JSON_TYPE = 'application/json; charset=UTF-8';

function queryValue(request: FastifyRequest, name: string): unknown {
  return (request.query as Record<string, unknown> | undefined)?.[name];
}

/** A body already written as JSON text (a cached response); `value` serves `_fields` and `_envelope`. */
export class JsonText {
  constructor(
    readonly text: string,
    readonly value: unknown,
  ) {}
}

/**
 * A body that is not JSON (an iCalendar file) with its strong entity tag: a request whose
 * `If-None-Match` names the tag gets 304 without a body (80 §1.2 comparison: a list of tags or `*`,
 * weak prefixes ignored).
 */
export class FileBody {
  constructor(
    readonly text: string,
    readonly contentType: string,
    readonly etag: string,
  ) {}

  matches(ifNoneMatch: string | undefined): boolean {
    if (ifNoneMatch === undefined) return false;
    return ifNoneMatch.split(',').some((tag) => {
      const trimmed = tag.trim().replace(/^W\//, '');
      return trimmed === '*' || trimmed === this.etag;
    });
  }
}

function sendFile(request: FastifyRequest, reply: FastifyReply, status: number, body: FileBody, headers: Record<string, string>): FastifyReply {
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  reply.header('ETag', body.etag);
  if (body.matches(request.headers['if-none-match'])) return reply.code(304).send();
  reply.code(status).type(body.contentType);
  return reply.send(request.method === 'HEAD' ? '' : body.text);
}

/** Writes a JSON response, honouring `_fields` (success only) and `_envelope`. */
export function sendJson(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): FastifyReply {
  if (body instanceof FileBody) return sendFile(request, reply, status, body, headers);
  const fields = queryValue(request, '_fields');
  const reshaped = typeof fields === 'string' || queryValue(request, '_envelope') !== undefined;
  if (body instanceof JsonText && !reshaped) {
    reply.code(status).type(JSON_TYPE);
    for (const [name, value] of Object.entries(headers)) reply.header(name, value);
    return reply.send(request.method === 'HEAD' ? '' : body.text);
  }
  let payload = body instanceof JsonText ? body.value : body;
  if (status < 400 && typeof fields === 'string') payload = pickFields(payload, fields);
  if (queryValue(request, '_envelope') !== undefined) {
    return reply.code(200).type(JSON_TYPE).send(JSON.stringify(envelope(status, payload, headers)));
  }
  reply.code(status).type(JSON_TYPE);
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  return reply.send(request.method === 'HEAD' ? '' : JSON.stringify(payload));
}
