import type { FastifyReply, FastifyRequest } from 'fastify';
import { envelope, pickFields } from './response-shaping.ts';
import { bodyHash, entityTagOfHash, noneMatchHits, type RecordTag } from '../../domain/sync/preconditions.ts';

const JSON_TYPE = 'application/json; charset=UTF-8';

function queryValue(request: FastifyRequest, name: string): unknown {
  return (request.query as Record<string, unknown> | undefined)?.[name];
}

/**
 * A body already written as JSON (a cached response), kept as its UTF-8 bytes: a cached answer is
 * written as it is, without encoding it again. `value` serves `_fields` and `_envelope`.
 */
export class JsonText {
  readonly bytes: Buffer;
  private bytesHash: string | undefined;
  constructor(
    text: string,
    readonly value: unknown,
  ) {
    this.bytes = Buffer.from(text);
  }

  /** The hash of the body for its entity tag, computed once however often the cached body is sent. */
  get hash(): string {
    this.bytesHash ??= bodyHash(this.bytes);
    return this.bytesHash;
  }
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
}

function sendFile(request: FastifyRequest, reply: FastifyReply, status: number, body: FileBody, headers: Record<string, string>): FastifyReply {
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  reply.header('ETag', body.etag);
  if (noneMatchHits(request.headers['if-none-match'], body.etag)) return reply.code(304).send();
  reply.code(status).type(body.contentType);
  return reply.send(request.method === 'HEAD' ? '' : body.text);
}

/**
 * Writes a JSON response, honouring `_fields` (success only) and `_envelope`. A successful GET/HEAD
 * (and a write answering with one record) carries a strong `ETag` over the exact body bytes, so it
 * works whatever produced the body (a cache, a serializer); a matching `If-None-Match` on GET/HEAD
 * gets 304 with the same headers and no body (80 §1.2). The envelope ignores conditionals.
 */
export function sendJson(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  record?: RecordTag,
): FastifyReply {
  if (body instanceof FileBody) return sendFile(request, reply, status, body, headers);
  const fields = queryValue(request, '_fields');
  const reshaped = typeof fields === 'string' || queryValue(request, '_envelope') !== undefined;
  let payload = body instanceof JsonText ? body.value : body;
  if (status < 400 && typeof fields === 'string') payload = pickFields(payload, fields);
  if (queryValue(request, '_envelope') !== undefined) {
    return reply.code(200).type(JSON_TYPE).send(JSON.stringify(envelope(status, payload, headers)));
  }
  const cached = body instanceof JsonText && !reshaped ? body : undefined;
  const serialized = cached ? cached.bytes : JSON.stringify(payload);
  reply.code(status).type(JSON_TYPE);
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  const read = request.method === 'GET' || request.method === 'HEAD';
  if ((read && status === 200) || (!read && status < 300 && record !== undefined)) {
    const tag = entityTagOfHash(cached ? cached.hash : bodyHash(serialized), record);
    reply.header('ETag', tag);
    if (read) {
      // Visitors' answers may be stored but must be revalidated (signed-in ones stay private, no-store).
      if (request.user === null) reply.header('Cache-Control', 'no-cache');
      reply.header('Vary', 'Authorization, Origin');
      if (noneMatchHits(request.headers['if-none-match'], tag)) return reply.code(304).send();
    }
  }
  return reply.send(request.method === 'HEAD' ? '' : serialized);
}
