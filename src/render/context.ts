import { translate, type Language, type MessageKey, type MessageVars } from '../i18n/catalog.ts';
import type { User } from '../domain/users/user.ts';
import type { UrlBuilder } from './urls.ts';

/**
 * What a rendering depends on besides its model: who is asking, the edition and the addresses
 * it is rendered for, and the instant it is rendered at. Services, read models and renderers take
 * this; the HTTP layer builds one per request, other callers (the site import, webhooks) their own.
 */
export interface RenderContext {
  readonly lang: Language;
  /** null = visitor. */
  readonly user: User | null;
  readonly urls: UrlBuilder;
  /** The request's instant (from the injectable clock): every rule of one request sees the same now. */
  readonly now: Date;
  t(key: MessageKey, vars?: MessageVars): string;
}

/** A render context whose messages are the catalog's in its language. */
export function renderContext(who: { lang: Language; user: User | null; urls: UrlBuilder; now: Date }): RenderContext {
  return { ...who, t: (key, vars) => translate(who.lang, key, vars) };
}
