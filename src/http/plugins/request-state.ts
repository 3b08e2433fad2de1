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
    /** A page framed by other sites (130 §10.1): its policy replaces the pages' one. */
    contentSecurityPolicy?: string;
    /** An uploaded file (110-media §5.2): publicly cacheable whoever asks. */
    publicFile?: boolean;
    /** The route reads its own multipart parts (file uploads). */
    readsFiles?: boolean;
  }
}

/** The language edition a path belongs to: `{base}/da/...` is Danish, no prefix is English. */
export function languageOfPath(url: string, basePath: string): Language {
  const path = url.slice(basePath.length, basePath.length + 4);
  if (path === '/da/' || path === '/da') return 'da';
  if (path === '/it/' || path === '/it') return 'it';
  if (path === '/es/' || path === '/es') return 'es';
  return 'en';
}
