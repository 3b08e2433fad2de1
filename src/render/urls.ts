import { EDITION_PREFIXES, type Language } from '../i18n/catalog.ts';

export const NAMESPACE = 'calendar/events/v1';
export const ADMIN_NAMESPACE = 'calendar/admin/v1';

/**
 * Builds the absolute addresses a response carries, keeping the edition prefix and the namespace
 * (the service's own or an alias, 90 §1) the request came in on.
 */
export class UrlBuilder {
  /** `{origin}{base}`, without edition prefix. */
  readonly site: string;
  /** `{origin}{base}{edition}`. */
  readonly edition: string;
  /** `{origin}{base}{edition}/{namespace}`. */
  readonly ns: string;

  constructor(
    readonly origin: string,
    readonly basePath: string,
    readonly lang: Language,
    /** The namespace the request was addressed to. */
    readonly namespace: string = NAMESPACE,
  ) {
    this.site = origin + basePath;
    this.edition = this.site + EDITION_PREFIXES[lang];
    this.ns = `${this.edition}/${namespace}`;
  }

  /** `{host}{base}` without scheme and port: the prefix of `global_id`. */
  get globalIdPrefix(): string {
    return new URL(this.origin).hostname + this.basePath;
  }

  /** `path` under the namespace with a percent-encoded query; undefined values are left out. */
  nsUrl(path: string, query?: ReadonlyArray<[string, string | number | undefined]>): string {
    return this.ns + path + queryString(query);
  }
}

export function queryString(query?: ReadonlyArray<[string, string | number | undefined]>): string {
  if (!query) return '';
  const parts = query
    .filter((pair): pair is [string, string | number] => pair[1] !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  return parts.length ? `?${parts.join('&')}` : '';
}
