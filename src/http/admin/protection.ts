import type { FastifyRequest } from 'fastify';
import { sameSecret } from '../../domain/signin/tokens.ts';
import type { UploadedFile } from './admin-request.ts';

/** The public origin: CALENDAR_PUBLIC_URL's, else the request's own scheme and Host. */
export function publicOrigin(request: FastifyRequest, publicUrl: string | null): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * 100 §6.1 step 1: `Origin` present must equal the public origin (`null` fails); without it the
 * `Referer` must be present and same-origin.
 */
export function sameOriginPost(request: FastifyRequest, origin: string): boolean {
  const header = request.headers.origin;
  if (header !== undefined) return header === origin;
  const referer = request.headers.referer;
  return referer !== undefined && originOf(referer) === origin;
}

/** Step 3: the form's `_token` equals the expected one, compared in constant time. */
export function tokenMatches(given: string | undefined, expected: string): boolean {
  return sameSecret(given, expected);
}

/** What a multipart post held once its first part passed: fields as sent, and files read whole. */
export interface MultipartBody {
  pairs: [string, string][];
  files: UploadedFile[];
}

export class MultipartRefused extends Error {
  constructor(readonly reason: 'token' | 'too-large') {
    super(reason);
  }
}

/**
 * Reads a multipart post whose FIRST part must be the field `_token` equal to `expected`: a
 * wrong or missing token refuses before any file is read (100 §6.1 step 3). The whole body is
 * bounded by `limit` bytes (step 4).
 */
export async function readMultipart(request: FastifyRequest, expected: string, limit: number): Promise<MultipartBody> {
  const pairs: [string, string][] = [];
  const files: UploadedFile[] = [];
  let first = true;
  let total = 0;
  const parts = request.parts({ limits: { fileSize: limit, fieldSize: limit, files: 5, fields: 1000 } });
  for await (const part of parts) {
    if (first) {
      first = false;
      if (part.type !== 'field' || part.fieldname !== '_token' || !tokenMatches(String(part.value), expected)) {
        if (part.type === 'file') part.file.resume();
        throw new MultipartRefused('token');
      }
    }
    if (part.type === 'file') {
      const data = await part.toBuffer();
      total += data.length;
      if (part.file.truncated || total > limit) throw new MultipartRefused('too-large');
      files.push({ field: part.fieldname, filename: part.filename, mimetype: part.mimetype, data });
    } else {
      const value = String(part.value);
      total += value.length;
      if (total > limit) throw new MultipartRefused('too-large');
      pairs.push([part.fieldname, value]);
    }
  }
  if (first) throw new MultipartRefused('token');
  return { pairs, files };
}
