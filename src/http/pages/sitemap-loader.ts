import type { Kysely } from 'kysely';
import { occurrencePageUrl } from '../../domain/events/event-web.ts';
import { SitemapRepository, type SitemapPostType } from '../../storage/repositories/sitemap-repository.ts';
import type { Database, Taxonomy } from '../../storage/schema.ts';
import { renderSitemapIndex, renderUrlset, type SitemapEntry } from '../../web/feeds/sitemap.ts';
import { LANGUAGES } from '../../i18n/catalog.ts';

const POST_TYPES: readonly SitemapPostType[] = ['events', 'venues', 'organizers'];
const TERM_TYPES: ReadonlyArray<['categories' | 'tags', Taxonomy]> = [['categories', 'tribe_events_cat'], ['tags', 'post_tag']];

/** `/events/`, then each enabled view's base path. */
const VIEW_PATHS: Record<string, string> = { list: '/events/list/', month: '/events/month/', day: '/events/today/', week: '/events/week/', photo: '/events/photo/', summary: '/events/summary/', map: '/events/map/' };

function newest(stamps: readonly string[]): string | undefined {
  return stamps.reduce<string | undefined>((latest, stamp) => (latest === undefined || stamp > latest ? stamp : latest), undefined);
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * The sitemap files of 130 §9 for the site `{origin}{base}`. A file holds whole records (one
 * entry per edition each), so at most ⌊CALENDAR_SITEMAP_MAX_URLS / editions⌋ records.
 */
export class Sitemaps {
  private readonly repo: SitemapRepository;
  private readonly perFile: number;

  constructor(db: Kysely<Database>, maxUrls: number, private readonly views: readonly string[]) {
    this.repo = new SitemapRepository(db);
    this.perFile = Math.floor(maxUrls / LANGUAGES.length);
  }

  /** Listed terms by id with their archive paths (categories under their ancestors). */
  private async termEntries(taxonomy: Taxonomy): Promise<SitemapEntry[]> {
    const [terms, listed] = await Promise.all([this.repo.terms(taxonomy), this.repo.listedTermIds(taxonomy)]);
    const byId = new Map(terms.map((term) => [term.id, term]));
    const pathOf = (term: { slug: string; parent: number }): string => {
      const parent = byId.get(term.parent);
      return parent ? `${pathOf(parent)}/${term.slug}` : term.slug;
    };
    // A category archive lists its descendants' events too (55 §9).
    const shown = new Set<number>();
    for (const id of listed) {
      for (let term = byId.get(id); term && !shown.has(term.id); term = taxonomy === 'tribe_events_cat' ? byId.get(term.parent) : undefined) shown.add(term.id);
    }
    const segment = taxonomy === 'tribe_events_cat' ? 'category' : 'tag';
    return terms.filter((term) => shown.has(term.id)).map((term) => ({ path: `/events/${segment}/${pathOf(term)}/` }));
  }

  async index(site: string): Promise<string> {
    const files: Array<{ loc: string; modifiedUtc?: string }> = [{ loc: `${site}/sitemaps/pages.xml` }];
    for (const type of POST_TYPES) {
      chunks(await this.repo.stamps(type), this.perFile).forEach((stamps, index) => files.push({ loc: `${site}/sitemaps/${type}-${index + 1}.xml`, modifiedUtc: newest(stamps) }));
    }
    for (const [name, taxonomy] of TERM_TYPES) {
      const count = (await this.termEntries(taxonomy)).length;
      for (let n = 1; (n - 1) * this.perFile < count; n++) files.push({ loc: `${site}/sitemaps/${name}-${n}.xml` });
    }
    return renderSitemapIndex(files);
  }

  /** A child file by name (`pages.xml`, `events-2.xml`, …); undefined = no such file. */
  async file(site: string, name: string): Promise<string | undefined> {
    if (name === 'pages.xml') {
      return renderUrlset(site, [{ path: '/events/' }, ...this.views.flatMap((view) => (VIEW_PATHS[view] ? [{ path: VIEW_PATHS[view] }] : []))]);
    }
    const match = /^(events|venues|organizers|categories|tags)-([1-9]\d{0,5})\.xml$/.exec(name);
    if (!match) return undefined;
    const type = match[1];
    const n = Number(match[2]);
    let entries: SitemapEntry[];
    if (type === 'categories' || type === 'tags') {
      entries = (await this.termEntries(type === 'categories' ? 'tribe_events_cat' : 'post_tag')).slice((n - 1) * this.perFile, n * this.perFile);
    } else {
      const records = await this.repo.page(type as SitemapPostType, (n - 1) * this.perFile, this.perFile);
      entries = records.map((record) => ({
        path: type === 'events' ? occurrencePageUrl('', record) : `/${type === 'venues' ? 'venue' : 'organizer'}/${record.slug}/`,
        modifiedUtc: record.modified_utc,
      }));
    }
    // The first file of a type exists even when the type is empty; past the last one, nothing.
    if (entries.length === 0 && n > 1) return undefined;
    return renderUrlset(site, entries);
  }
}
