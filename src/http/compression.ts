import type { IncomingHttpHeaders } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import { LOGIN_COOKIE, SESSION_COOKIE } from './admin/session-cookie.ts';

/** The content codings answers are sent in when the client accepts one (brotli preferred). */
export type Encoding = 'br' | 'gzip';

const SUPPORTED: readonly Encoding[] = ['br', 'gzip'];

/** Choices remembered per Accept-Encoding value: browsers send a handful; a client choosing others only empties it. */
const choices = new Map<string, Encoding | null>();
const MAX_CHOICES = 256;

const BACK_OFFICE_COOKIE = new RegExp(`(?:^|;)\\s*(?:${SESSION_COOKIE}|${LOGIN_COOKIE})=`);

/** Below this, what compression saves is about what its headers and work cost. */
const MIN_BYTES = 1024;

/** Text formats: pages, JSON, feeds, iCalendar, styles and scripts. Images and uploads are compressed already. */
const TEXT = /^\s*(?:text\/|application\/(?:json|ld\+json|problem\+json|rss\+xml|atom\+xml|xml|javascript|manifest\+json)|image\/svg\+xml)/i;

/**
 * Fast settings: an answer is compressed as it leaves (a replayed one once per recording), on
 * libuv's thread pool. Brotli 4 made a 204 KB month page 9.7 KB in about 1.6 ms; 5 and above saved
 * 15 % more for 50 % more time.
 */
const BROTLI_QUALITY = 4;
const GZIP_LEVEL = 6;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

type HeaderValue = number | string | readonly string[] | undefined;

/**
 * Whether an answer of this type may be sent compressed, whatever its size: such answers vary
 * with the request's Accept-Encoding (80 §1.4). An answer that says `no-transform` keeps its
 * bytes here too, as proxies must leave them (RFC 9111 §5.2.2.6).
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
  if (headers.cookie !== undefined && BACK_OFFICE_COOKIE.test(headers.cookie)) return undefined;
  let choice = choices.get(accepted);
  if (choice === undefined) {
    choice = negotiated(accepted);
    if (choices.size >= MAX_CHOICES) choices.clear();
    choices.set(accepted, choice);
  }
  return choice ?? undefined;
}

/** The preferred coding `header` accepts; one it refuses by name (`q=0`) stays refused when it also accepts `*`. */
function negotiated(header: string): Encoding | null {
  const lower = header.toLowerCase();
  const refused = new Set<string>();
  for (const entry of lower.split(',')) {
    const [name, ...parameters] = entry.split(';').map((part) => part.trim());
    if (parameters.some((parameter) => /^q\s*=\s*0(?:\.0*)?$/.test(parameter))) refused.add(name);
  }
  const candidates = SUPPORTED.filter((coding) => !refused.has(coding));
  return candidates.length === 0 ? null : negotiate(lower, candidates);
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
