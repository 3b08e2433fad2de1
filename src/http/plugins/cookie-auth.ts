import type { FastifyReply, FastifyRequest } from 'fastify';
import { RestError } from '../../domain/errors.ts';
import { sameSecret } from '../../domain/signin/tokens.ts';
import type { SessionsService } from '../../services/signin/sessions-service.ts';
import { readCookie, SESSION_COOKIE } from '../admin/session-cookie.ts';

/** Requests a session cookie + nonce authenticated, with their session's id: private answers, never stored by anyone. */
const cookieAuthenticated = new WeakMap<object, number>();

export function byCookie(request: object): boolean {
  return cookieAuthenticated.has(request);
}

/** The back office session of a cookie + nonce request (the `/me` credential routes need one, 100 §10). */
export function cookieSessionId(request: object): number | undefined {
  return cookieAuthenticated.get(request);
}

function nonceOf(request: FastifyRequest): string | undefined {
  const header = request.headers['x-wp-nonce'];
  if (typeof header === 'string') return header;
  const query = request.query as Record<string, unknown> | undefined;
  const param = query?._wpnonce;
  return typeof param === 'string' ? param : undefined;
}

/**
 * 100 §6.2, WordPress's convention for the REST API (no `Authorization` header): a session
 * cookie counts only with `X-WP-Nonce` (or `_wpnonce`) equal to its CSRF token — then the request
 * is that user's, and the answer carries the nonce and `Cache-Control: private, no-store`. Without
 * a nonce the cookie is ignored (a visitor); a wrong nonce, or one with a dead or absent cookie,
 * is 403 `rest_cookie_invalid_nonce` (not a sign-in failure: not throttled).
 */
export async function authenticateByCookie(request: FastifyRequest, reply: FastifyReply, sessions: SessionsService): Promise<void> {
  const nonce = nonceOf(request);
  if (nonce === undefined) return;
  const session = await sessions.lookup(readCookie(request, SESSION_COOKIE));
  if (session === null || !sameSecret(nonce, session.csrfToken)) throw new RestError(403, 'rest_cookie_invalid_nonce');
  request.user = session.user;
  cookieAuthenticated.set(request, session.id);
  reply.header('X-WP-Nonce', session.csrfToken);
}
