import type { Kysely } from 'kysely';
import type { Database, Taxonomy } from '../schema.ts';

/** A record a sitemap lists: what its address and `lastmod` need, nothing more (130 §12). */
export interface SitemapRecord {
  id: number;
  slug: string;
  status: string;
  post_parent: number;
  start_local: string;
  modified_utc: string;
}

export type SitemapPostType = 'events' | 'venues' | 'organizers';

/**
 * The records of the sitemaps (130 §9): events a visitor finds in the views (published, listed,
 * occurrences rather than their series), published venues and organizers, by id.
 */
export class SitemapRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private events() {
    return this.db
      .selectFrom('events')
      .where('status', '=', 'publish')
      .where('hide_from_listings', '=', 0)
      .where('is_series_master', '=', 0)
      .orderBy('id');
  }

  private linked(type: 'venues' | 'organizers') {
    return this.db.selectFrom(type).where('status', '=', 'publish').orderBy('id');
  }

  /** The `limit` records after the first `offset`, by id. */
  async page(type: SitemapPostType, offset: number, limit: number): Promise<SitemapRecord[]> {
    if (type === 'events') {
      return this.events().select(['id', 'slug', 'status', 'post_parent', 'start_local', 'modified_utc']).limit(limit).offset(offset).execute();
    }
    const rows = await this.linked(type).select(['id', 'slug', 'status', 'modified_utc']).limit(limit).offset(offset).execute();
    return rows.map((row) => ({ ...row, post_parent: 0, start_local: '' }));
  }

  /** Every record's last change, by id: how many files a type fills and each one's `lastmod`. */
  async stamps(type: SitemapPostType): Promise<string[]> {
    const query = type === 'events' ? this.events().select('modified_utc') : this.linked(type).select('modified_utc');
    return (await query.execute()).map((row) => row.modified_utc);
  }

  /** Terms of a taxonomy by id, with their parents (archive paths come from the chain). */
  terms(taxonomy: Taxonomy): Promise<Array<{ id: number; slug: string; parent: number }>> {
    return this.db.selectFrom('terms').select(['id', 'slug', 'parent']).where('taxonomy', '=', taxonomy).orderBy('id').execute();
  }

  /** Ids of the terms that carry at least one event the views list. */
  async listedTermIds(taxonomy: Taxonomy): Promise<Set<number>> {
    const rows = await this.db
      .selectFrom('event_terms')
      .innerJoin('events', 'events.id', 'event_terms.event_id')
      .innerJoin('terms', 'terms.id', 'event_terms.term_id')
      .select('event_terms.term_id')
      .distinct()
      .where('terms.taxonomy', '=', taxonomy)
      .where('events.status', '=', 'publish')
      .where('events.hide_from_listings', '=', 0)
      .where('events.is_series_master', '=', 0)
      .execute();
    return new Set(rows.map((row) => row.term_id));
  }
}
