import type { IncomingHttpHeaders } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import { LOGIN_COOKIE, readCookie, SESSION_COOKIE } from './admin/session-cookie.ts';

/** The content codings answers are sent in when the client accepts one (brotli preferred). */
export type Encoding = 'br' | 'gzip';

const negotiator = new Negotiator<Encoding>({ supportedValues: ['br', 'gzip'] });

/** Below this, what compression saves is about what its headers and work cost. */
const MIN_BYTES = 1024;

/** Text formats: pages, JSON, feeds, iCalendar, styles and scripts. Images and uploads are compressed already. */
const TEXT = /^\s*(?:text\/|application\/(?:json|ld\+json|problem\+json|rss\+xml|atom\+xml|xml|javascript|manifest\+json)|image\/svg\+xml)/i;

/**
 * Fast settings: an answer is compressed as it leaves (a replayed one once per recording), on
 * libuv's thread pool. Brotli 4 made a 205 KB month page 9.9 KB in 1.6 ms; 5 and above saved
 * 15 % more for 50 % more time.
 */
const BROTLI_QUALITY = 4;
const GZIP_LEVEL = 6;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

type HeaderValue = number | string | readonly string[] | undefined;

/**
 * Whether an answer of this type may be sent compressed, whatever its size: such answers vary
 * with the request's Accept-Encoding (80 §1.4). `no-transform` forbids it (RFC 9111 §5.2.2.6).
 */
export function compressibleType(contentType: HeaderValue, cacheControl: HeaderValue, contentEncoding: HeaderValue): boolean {
  if (typeof contentType !== 'string' || !TEXT.test(contentType) || contentEncoding !== undefined) return false;
  return typeof cacheControl !== 'string' || !/\bno-transform\b/i.test(cacheControl);
}

/**
 * The coding to send a body of `length` bytes in, for a request's Accept-Encoding; undefined for
 * the body as it is. Never for a request carrying a back office cookie: its answers may hold a
 * CSRF token beside text the request put there, and the compressed size would tell an observer
 * of the traffic how much of the two match (BREACH).
 */
export function chosenEncoding(headers: IncomingHttpHeaders, length: number): Encoding | undefined {
  const accepted = headers['accept-encoding'];
  if (length < MIN_BYTES || typeof accepted !== 'string' || accepted === '') return undefined;
  if (headers.cookie !== undefined && (readCookie({ headers }, SESSION_COOKIE) !== undefined || readCookie({ headers }, LOGIN_COOKIE) !== undefined)) return undefined;
  return negotiator.negotiate(accepted.toLowerCase()) ?? undefined;
}

export function compress(body: Buffer, encoding: Encoding): Promise<Buffer> {
  if (encoding === 'gzip') return gzipped(body, { level: GZIP_LEVEL });
  return brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
}

/** `vary` with Accept-Encoding added (once). */
export function varyingByEncoding(vary: HeaderValue): string {
  const names = (Array.isArray(vary) ? vary.join(',') : typeof vary === 'string' ? vary : '').split(',').map((name) => name.trim()).filter((name) => name !== '');
  if (names.includes('*') || names.some((name) => name.toLowerCase() === 'accept-encoding')) return names.join(', ');
  return [...names, 'Accept-Encoding'].join(', ');
}
