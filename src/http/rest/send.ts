import type { FastifyReply, FastifyRequest } from 'fastify';
import { envelope, pickFields } from './response-shaping.ts';

const JSON_TYPE = 'application/json; charset=UTF-8';

function queryValue(request: FastifyRequest, name: string): unknown {
  return (request.query as Record<string, unknown> | undefined)?.[name];
}

/** Writes a JSON response, honouring `_fields` (success only) and `_envelope`. */
export function sendJson(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): FastifyReply {
  let payload = body;
  const fields = queryValue(request, '_fields');
  if (status < 400 && typeof fields === 'string') payload = pickFields(payload, fields);
  if (queryValue(request, '_envelope') !== undefined) {
    return reply.code(200).type(JSON_TYPE).send(JSON.stringify(envelope(status, payload, headers)));
  }
  reply.code(status).type(JSON_TYPE);
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  return reply.send(request.method === 'HEAD' ? '' : JSON.stringify(payload));
}
