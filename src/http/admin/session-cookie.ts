import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LiveSession } from '../../services/signin/sessions-service.ts';

export const SESSION_COOKIE = 'cal_session';
export const LOGIN_COOKIE = 'cal_login';
/** 100 §5.1: the pre-sign-in cookie lives an hour. */
const LOGIN_COOKIE_SECONDS = 3600;

/** The value of one cookie of the request (the first one of that name). */
export function readCookie(request: FastifyRequest | { headers: FastifyRequest['headers'] }, name: string): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * 100 §4: the longest common path prefix of `{base}/` and `{api}/` (whole segments), so that the
 * cookie reaches both the back office and the REST API; `/` when they share nothing.
 */
export function cookiePath(basePath: string, apiPath: string): string {
  const a = `${basePath}/`.split('/');
  const b = `${apiPath}/`.split('/');
  const common: string[] = [];
  for (let i = 0; i < Math.min(a.length, b.length) - 1 && a[i] === b[i]; i++) common.push(a[i]);
  const path = common.join('/');
  return path === '' ? '/' : `${path}/`;
}

export interface CookieSettings {
  path: string;
  /** The public origin is https (CALENDAR_PUBLIC_URL's, else the request's). */
  secure: boolean;
}

export function cookieSettings(request: FastifyRequest, paths: { basePath: string; apiPath: string; publicUrl: string | null }): CookieSettings {
  const secure = paths.publicUrl !== null ? paths.publicUrl.startsWith('https:') : request.protocol === 'https';
  return { path: cookiePath(paths.basePath, paths.apiPath), secure };
}

function cookie(name: string, value: string, settings: CookieSettings, maxAge?: number): string {
  return [`${name}=${value}`, `Path=${settings.path}`, 'HttpOnly', 'SameSite=Lax', ...(settings.secure ? ['Secure'] : []), ...(maxAge !== undefined ? [`Max-Age=${maxAge}`] : [])].join('; ');
}

/** Adds a `Set-Cookie` to the reply, keeping those already set. */
export function addCookie(reply: FastifyReply, value: string): void {
  const existing = reply.getHeader('set-cookie');
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing.map(String) : [String(existing)];
  reply.header('set-cookie', [...list, value]);
}

/** The session cookie: a browser-session cookie, or with "keep me signed in" `Max-Age` = the time left. */
export function sessionCookie(token: string, session: Pick<LiveSession, 'remember' | 'expires'>, settings: CookieSettings, now: Date): string {
  const maxAge = session.remember ? Math.max(0, Math.floor((session.expires.getTime() - now.getTime()) / 1000)) : undefined;
  return cookie(SESSION_COOKIE, token, settings, maxAge);
}

export function clearedCookie(name: string, settings: CookieSettings): string {
  return cookie(name, '', settings, 0);
}

export function loginCookie(value: string, settings: CookieSettings): string {
  return cookie(LOGIN_COOKIE, value, settings, LOGIN_COOKIE_SECONDS);
}
