import type { User } from '../../domain/users/user.ts';
import type { Language } from '../../i18n/catalog.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The edition's language, from the path prefix. */
    lang: Language;
    /** The authenticated user; null for visitors. */
    user: User | null;
  }
  interface FastifyContextConfig {
    /** A public calendar page (55): its own security headers and caching. */
    page?: boolean;
    /** The route reads `Authorization` itself (the metrics token, 140 §4.1): the sign-in check leaves it alone. */
    ownAuthorization?: boolean;
    /** Probed every few seconds by monitors (`/healthz`, `/readyz`, 140 §2): no request log line at `info`. */
    probe?: boolean;
    /** A page framed by other sites (130 §10.1): its policy replaces the pages' one. */
    contentSecurityPolicy?: string;
    /** An uploaded file (110-media §5.2): publicly cacheable whoever asks. */
    publicFile?: boolean;
    /** The route reads its own multipart parts (file uploads). */
    readsFiles?: boolean;
  }
}

/** Requests a page answered on a route that is not only a page's (the root the REST index shares, 140 §1.3). */
const pageAnswers = new WeakSet<object>();

export function markPageAnswer(request: object): void {
  pageAnswers.add(request);
}

/** Whether a page (55) answers `request`: its route is a page route, or a shared one handed it to a page. */
export function answeredByPage(request: { routeOptions?: { config?: { page?: boolean } } }): boolean {
  return request.routeOptions?.config?.page === true || pageAnswers.has(request);
}

/** The two prefixes of 140 §1.1: `{base}` for the site, `{api}` for the REST namespaces. */
export interface SitePaths {
  basePath: string;
  apiPath: string;
}

/** Whether `url` lies at or below the path `prefix`. */
function under(url: string, prefix: string): boolean {
  const next = url.charAt(prefix.length);
  return url.startsWith(prefix) && (next === '' || next === '/' || next === '?');
}

/**
 * The language edition a path belongs to: `{base}/da/...` and `{api}/da/...` are Danish, no prefix
 * is English. The longer prefix the path lies under is the one its edition follows.
 */
export function languageOfPath(url: string, paths: SitePaths): Language {
  const [longer, shorter] = paths.apiPath.length > paths.basePath.length ? [paths.apiPath, paths.basePath] : [paths.basePath, paths.apiPath];
  const prefix = under(url, longer) ? longer : shorter;
  const path = url.slice(prefix.length, prefix.length + 4);
  if (path === '/da/' || path === '/da') return 'da';
  if (path === '/it/' || path === '/it') return 'it';
  if (path === '/es/' || path === '/es') return 'es';
  return 'en';
}
