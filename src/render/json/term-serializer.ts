import type { UrlBuilder } from '../urls.ts';
import type { Taxonomy } from '../../storage/schema.ts';
import type { CountedTerm } from '../../storage/repositories/terms-repository.ts';

/** The collection each taxonomy lives under in the namespace. */
export const TERM_COLLECTIONS: Record<Taxonomy, 'categories' | 'tags'> = { tribe_events_cat: 'categories', post_tag: 'tags' };

export function isHierarchical(taxonomy: Taxonomy): boolean {
  return taxonomy === 'tribe_events_cat';
}

function termUrls(term: CountedTerm, urls: UrlBuilder): Record<string, string> {
  const collection = `/${TERM_COLLECTIONS[term.taxonomy]}`;
  const links: Record<string, string> = { self: urls.nsUrl(`${collection}/${term.id}`), collection: urls.nsUrl(collection) };
  if (term.parent !== 0) links.up = urls.nsUrl(`${collection}/${term.parent}`);
  return links;
}

/** The public archive page of the term (no page is served there; 30 §1.3 #9). */
function archiveUrl(term: CountedTerm, ancestorSlugs: readonly string[], urls: UrlBuilder): string {
  if (term.taxonomy === 'post_tag') return `${urls.site}/tag/${term.slug}/`;
  return `${urls.site}/events/category/${[...ancestorSlugs, term.slug].join('/')}/`;
}

/**
 * The term object of the categories and tags routes (30 §1.3), keys in the reference's order.
 * `ancestorSlugs` (root first) build the category archive url; `links` adds the `_links` of
 * single-term responses.
 */
export function serializeTerm(term: CountedTerm, ancestorSlugs: readonly string[], urls: UrlBuilder, options: { links: boolean }): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: term.id,
    count: term.count,
    description: term.description,
    name: term.name,
    slug: term.slug,
    taxonomy: term.taxonomy,
  };
  if (isHierarchical(term.taxonomy)) out.parent = term.parent;
  out.meta = [];
  out.url = archiveUrl(term, ancestorSlugs, urls);
  const links = termUrls(term, urls);
  out.urls = links;
  if (options.links) {
    out._links = {
      self: [{ href: links.self }],
      collection: [{ href: links.collection }],
      ...(links.up ? { up: [{ href: links.up, embeddable: true }] } : {}),
    };
  }
  return out;
}

/** The storage-shaped term inside an event's `categories` / `tags` (10-events §3.6, 30 §1.3). */
export function serializeEmbeddedTerm(term: CountedTerm, urls: UrlBuilder): Record<string, unknown> {
  return {
    name: term.name,
    slug: term.slug,
    term_group: 0,
    term_taxonomy_id: term.id,
    taxonomy: term.taxonomy,
    description: term.description,
    parent: term.parent,
    count: term.count,
    filter: 'raw',
    id: term.id,
    urls: termUrls(term, urls),
  };
}
