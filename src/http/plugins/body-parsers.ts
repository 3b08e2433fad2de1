import formBody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import qs from 'qs';
import { RestError } from '../../domain/errors.ts';

/**
 * PHP-style parameters: `a[]=1&a[]=2`, `a[0]=1`, nested `venue[city]=Pisa`; a repeated plain
 * name keeps its last value, as PHP does. Limits keep a hostile query from growing huge objects.
 */
export const QS_OPTIONS: qs.IParseOptions = {
  arrayLimit: 1000,
  parameterLimit: 2000,
  depth: 5,
  duplicates: 'last',
  allowPrototypes: false,
};

export function parseQueryString(text: string): Record<string, unknown> {
  return qs.parse(text, QS_OPTIONS) as Record<string, unknown>;
}

/**
 * The fields of a multipart body; they arrive flat (`categories[]`) and are re-read with the PHP
 * rules above. Files are drained unread (no route takes uploads). A body the parser cannot read
 * (no boundary, cut short) is bad input, not a server error; limits keep their own answer (413).
 */
async function readMultipartFields(request: FastifyRequest): Promise<Record<string, unknown>> {
  const pairs: [string, string][] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') part.file.resume();
      else if (typeof part.value === 'string') pairs.push([part.fieldname, part.value]);
    }
  } catch (error) {
    if (typeof (error as FastifyError).code === 'string' && (error as FastifyError).code.startsWith('FST_')) throw error;
    throw new RestError(400, 'rest_invalid_json');
  }
  return parseQueryString(new URLSearchParams(pairs).toString());
}

export async function registerBodyParsers(app: FastifyInstance, bodyLimit: number): Promise<void> {
  const defaultJson = app.getDefaultJsonParser('remove', 'remove');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    defaultJson(request, text, (error, parsed) => {
      if (error) {
        done(new RestError(400, 'rest_invalid_json', { data: { json_error_code: 4, json_error_message: 'Syntax error' } }), undefined);
      } else {
        done(null, parsed);
      }
    });
  });
  await app.register(formBody, { bodyLimit, parser: (text) => parseQueryString(text) });
  await app.register(multipart, { limits: { fileSize: bodyLimit, files: 5, fields: 1000, fieldSize: bodyLimit, parts: 1005 } });
  app.addHook('preValidation', (request, _reply, done) => {
    // The import route reads its own parts (the file among them). A callback hook: other
    // requests cost no promise.
    if (!request.isMultipart() || (request.routeOptions.config as { readsFiles?: boolean } | undefined)?.readsFiles === true) return done();
    readMultipartFields(request).then((fields) => {
      request.body = fields;
      done();
    }, done);
  });
  // Bodies of other types carry no parameters (as in the reference), but still count against the limit.
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, _body, done) => done(null, undefined));
}

const OVERRIDABLE = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

/**
 * `_method=VERB` in the query (any request) or `X-HTTP-Method-Override` replaces the HTTP method
 * before routing, for clients behind proxies that only pass GET and POST.
 */
export function overriddenMethod(url: string, header: string | string[] | undefined): string | undefined {
  const question = url.indexOf('?');
  if (question >= 0 && url.includes('_method=', question)) {
    const value = new URLSearchParams(url.slice(question + 1)).get('_method');
    if (value && OVERRIDABLE.has(value.toUpperCase())) return value.toUpperCase();
  }
  const headerValue = Array.isArray(header) ? header[0] : header;
  if (headerValue && OVERRIDABLE.has(headerValue.toUpperCase())) return headerValue.toUpperCase();
  return undefined;
}
