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

/** Writes a JSON response, honouring `_fields` (success only) and `_envelope`. */
export function sendJson(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): FastifyReply {
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
