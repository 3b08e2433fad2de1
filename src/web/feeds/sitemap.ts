import { EDITION_PREFIXES, LANGUAGES } from '../../i18n/catalog.ts';
import { utcInstant, XML_DECLARATION, xmlElement, xmlText } from './xml.ts';

/** A page a sitemap lists: its path after `{base}{edition}` and its last change (UTC), if known. */
export interface SitemapEntry {
  path: string;
  modifiedUtc?: string;
}

/** W3C datetime in UTC: `2026-04-12T10:00:00+00:00`. */
export function w3cDate(utc: string): string {
  return utcInstant(utc).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/**
 * A `<urlset>` (130 §9): each page once per edition, every entry naming all editions and
 * `x-default` (English) as alternates, so search engines show the reader's language.
 */
export function renderUrlset(site: string, entries: readonly SitemapEntry[]): string {
  const urls = entries.flatMap(({ path, modifiedUtc }) => {
    const alternates = [
      ...LANGUAGES.map((lang) => xmlElement('xhtml:link', { rel: 'alternate', hreflang: lang, href: `${site}${EDITION_PREFIXES[lang]}${path}` })),
      xmlElement('xhtml:link', { rel: 'alternate', hreflang: 'x-default', href: `${site}${path}` }),
    ].join('');
    const lastmod = modifiedUtc === undefined ? '' : xmlElement('lastmod', {}, w3cDate(modifiedUtc));
    return LANGUAGES.map((lang) => `<url><loc>${xmlText(`${site}${EDITION_PREFIXES[lang]}${path}`)}</loc>${lastmod}${alternates}</url>`);
  });
  return `${XML_DECLARATION}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">${urls.join('')}</urlset>\n`;
}

/** The sitemap index: one `<sitemap>` per child file, absolute. */
export function renderSitemapIndex(files: ReadonlyArray<{ loc: string; modifiedUtc?: string }>): string {
  const items = files.map(({ loc, modifiedUtc }) => `<sitemap>${xmlElement('loc', {}, loc)}${modifiedUtc === undefined ? '' : xmlElement('lastmod', {}, w3cDate(modifiedUtc))}</sitemap>`);
  return `${XML_DECLARATION}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${items.join('')}</sitemapindex>\n`;
}
