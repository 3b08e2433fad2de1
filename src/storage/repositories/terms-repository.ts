import type { Expression, ExpressionBuilder, Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import { sql } from 'kysely';
import type { Database, Taxonomy, TermRow } from '../schema.ts';
import { containsInsensitive, SCHEDULED, toInt } from '../sql-helpers.ts';

export type Term = Selectable<TermRow>;
export type CountedTerm = Term & { count: number };

/** The sort keys a term list understands (30 §1.4 `orderby`, already mapped from the request). */
export type TermSortKey = 'name' | 'slug' | 'description' | 'id' | 'count' | 'parent' | 'include' | 'term_order' | 'none';

export interface TermListFilter {
  taxonomy: Taxonomy;
  /** Substring texts matched case-insensitively against the name or the slug (any of them). */
  search?: readonly string[];
  include?: readonly number[];
  exclude?: readonly number[];
  parent?: number;
  /** Only the terms of this event. */
  eventId?: number;
  slug?: string;
  /** Hide terms without published events; categories stay when a descendant has some. */
  hideEmpty: boolean;
}

export interface TermListOrder {
  key: TermSortKey;
  descending: boolean;
}

/** What one taxonomy's terms are looked up by (any of them matches). */
export interface TermKeys {
  taxonomy: Taxonomy;
  ids: readonly number[];
  slugs: readonly string[];
  names: readonly string[];
}

export interface NewTerm {
  taxonomy: Taxonomy;
  name: string;
  slug: string;
  description: string;
  parent: number;
}

type TermsScope = ExpressionBuilder<Database, 'terms'>;

const CATEGORY: Taxonomy = 'tribe_events_cat';

/**
 * An event counts for its terms while published, a series once, by its master (60 §2): the
 * triggers of migration 0008 keep `published_count` for status publish. A scheduled event whose
 * publication instant has passed is published as well (40 §6.1), whether or not anything has
 * flipped its status yet: those few (`due`) are added here, by primary key.
 */
function dueLinks(eb: TermsScope, due: Due) {
  const links = eb.selectFrom('event_terms').whereRef('event_terms.term_id', '=', 'terms.id');
  if ('nowUtc' in due) return links.where('event_terms.event_id', 'in', eb.selectFrom('events').select('events.id').where(isDue(due.nowUtc)));
  return links.where('event_terms.event_id', 'in', [...due]);
}

/**
 * The ids of the due events, read beforehand, or the instant they are due by, when the query
 * finds them itself (a subquery through the status index: one round trip fewer).
 */
type Due = readonly number[] | { nowUtc: string };

/**
 * The columns of an event that a term's count reads: published standalone events count (0008),
 * and scheduled ones whose publication date has passed. A change of other columns of one event
 * leaves every term's count as it was.
 */
export const TERM_COUNT_COLUMNS: ReadonlySet<string> = new Set(['status', 'post_parent', 'date_utc']);

/** The scheduled series masters and single events whose publication instant has passed (few: their status flips). */
function isDue(nowUtc: string) {
  return (eb: ExpressionBuilder<Database, 'events'>) => eb.and([eb('events.status', '=', SCHEDULED), eb('events.date_utc', '<=', nowUtc), eb('events.post_parent', '=', 0)]);
}

function publishedCount(eb: TermsScope, due: Due) {
  const kept = eb.ref('terms.published_count');
  if (!('nowUtc' in due) && due.length === 0) return sql<number>`${kept}`;
  return sql<number>`(${kept} + (${dueLinks(eb, due).select((inner) => inner.fn.countAll().as('n'))}))`;
}

function hasPublished(eb: TermsScope, due: readonly number[]) {
  const counted = eb('terms.published_count', '>', 0);
  return due.length === 0 ? counted : eb.or([counted, eb.exists(dueLinks(eb, due).select(sql.lit(1).as('one')))]);
}

/** Categories and tags (one table, one id sequence). The only place that knows their SQL. */
export class TermsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async findById(taxonomy: Taxonomy, id: number, nowUtc: string): Promise<CountedTerm | undefined> {
    const row = await this.withCount(this.db.selectFrom('terms'), { nowUtc })
      .where('terms.taxonomy', '=', taxonomy)
      .where('terms.id', '=', id)
      .executeTakeFirst();
    return row && counted(row);
  }

  async exists(taxonomy: Taxonomy, id: number): Promise<boolean> {
    const row = await this.db.selectFrom('terms').select('id').where('taxonomy', '=', taxonomy).where('id', '=', id).executeTakeFirst();
    return row !== undefined;
  }

  /**
   * The terms named by any of the lookups' ids, or of their taxonomies by any of their slugs or
   * (case-insensitive) names, in one query: a superset, which the caller matches per lookup and
   * taxonomy. One condition per key kind, not one per lookup: SQLite answered an OR of a lookup
   * per taxonomy (a group of 16 creates) with a MULTI-INDEX OR of 32 rowid searches that took
   * 1–1.5 ms on a table of 60 terms, where `id in (…)` takes a tenth of that.
   */
  async findByKeys(lookups: ReadonlyArray<TermKeys>, options: { parenthood?: boolean } = {}): Promise<KeyedTerm[]> {
    const asked = lookups.filter((keys) => keys.ids.length + keys.slugs.length + keys.names.length > 0);
    if (asked.length === 0) return [];
    const distinct = <T>(values: (keys: TermKeys) => readonly T[]) => [...new Set(asked.flatMap(values))];
    const taxonomies = distinct((keys) => [keys.taxonomy]);
    const ids = distinct((keys) => keys.ids);
    const slugs = distinct((keys) => keys.slugs);
    const names = distinct((keys) => keys.names.map((name) => name.toLowerCase()));
    return this.db
      .selectFrom('terms')
      .selectAll()
      .where((eb) =>
        eb.or([
          ...(ids.length ? [eb('id', 'in', ids)] : []),
          ...(slugs.length ? [eb.and([eb('taxonomy', 'in', taxonomies), eb('slug', 'in', slugs)])] : []),
          ...(names.length ? [eb.and([eb('taxonomy', 'in', taxonomies), eb(eb.fn('lower', ['name']), 'in', names)])] : []),
        ]),
      )
      .$if(options.parenthood === true, (q) =>
        q.select((eb) =>
          eb
            .exists(eb.selectFrom('terms as child').select('child.id').whereRef('child.taxonomy', '=', 'terms.taxonomy').whereRef('child.parent', '=', 'terms.id'))
            .as('is_parent'),
        ),
      )
      .orderBy('id')
      .execute();
  }

  /** Terms with this name (case-insensitive) under `parent`, oldest first: the duplicate-name check of 30 §1.6. */
  findByName(taxonomy: Taxonomy, name: string, parent: number): Promise<Term[]> {
    return this.db
      .selectFrom('terms')
      .selectAll()
      .where('taxonomy', '=', taxonomy)
      .where('parent', '=', parent)
      .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()))
      .orderBy('id')
      .execute();
  }

  findBySlug(taxonomy: Taxonomy, slug: string): Promise<Term | undefined> {
    return this.db.selectFrom('terms').selectAll().where('taxonomy', '=', taxonomy).where('slug', '=', slug).executeTakeFirst();
  }

  /**
   * Slugs of the taxonomy that could collide with `base` or any suffixed form of it (`base-…`).
   * LIKE wildcards inside `base` only widen the set; callers compare exactly.
   */
  async slugsStartingWith(taxonomy: Taxonomy, base: string, excludeId?: number): Promise<Set<string>> {
    let query = this.db
      .selectFrom('terms')
      .select('slug')
      .where('taxonomy', '=', taxonomy)
      .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]));
    if (excludeId !== undefined) query = query.where('id', '!=', excludeId);
    return new Set((await query.execute()).map((row) => row.slug));
  }

  /** The given category ids and all their descendants, in one recursive query. */
  async withDescendants(taxonomy: Taxonomy, ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .withRecursive('tree(id)', (db) =>
        db
          .selectFrom('terms')
          .select('terms.id')
          .where('terms.taxonomy', '=', taxonomy)
          .where('terms.id', 'in', [...ids])
          .union((eb) =>
            eb.selectFrom('terms').innerJoin('tree', 'tree.id', 'terms.parent').select('terms.id').where('terms.taxonomy', '=', taxonomy),
          ),
      )
      .selectFrom('tree')
      .select('id')
      .execute();
    return rows.map((row) => row.id);
  }

  /**
   * The slugs of every ancestor of the given terms, root first (for the archive `url` of a
   * category), in one recursive query however many terms are asked.
   */
  async ancestorSlugs(terms: ReadonlyArray<Pick<Term, 'id' | 'parent'>>): Promise<Map<number, string[]>> {
    const parents = [...new Set(terms.map((term) => term.parent).filter((parent) => parent !== 0))];
    const result = new Map<number, string[]>(terms.map((term) => [term.id, []]));
    if (parents.length === 0) return result;
    const rows = await this.db
      .withRecursive('up(id)', (db) =>
        db
          .selectFrom('terms')
          .select('terms.id')
          .where('terms.id', 'in', parents)
          .union((eb) => eb.selectFrom('terms').innerJoin('up', 'up.id', 'terms.id').select('terms.parent as id').where('terms.parent', '!=', 0)),
      )
      .selectFrom('terms')
      .select(['terms.id', 'terms.parent', 'terms.slug'])
      .where('terms.id', 'in', (eb) => eb.selectFrom('up').select('up.id'))
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const term of terms) {
      const chain: string[] = [];
      const seen = new Set<number>([term.id]);
      for (let node = byId.get(term.parent); node && !seen.has(node.id); node = byId.get(node.parent)) {
        seen.add(node.id);
        chain.unshift(node.slug);
      }
      result.set(term.id, chain);
    }
    return result;
  }

  async count(filter: TermListFilter, nowUtc: string): Promise<number> {
    const row = await this.filtered(this.db.selectFrom('terms'), filter, await this.due(nowUtc))
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return toInt(row.n);
  }

  /** One page of a term list, each term with its published-event count. */
  async list(filter: TermListFilter, order: TermListOrder, page: { limit: number; offset: number }, nowUtc: string): Promise<CountedTerm[]> {
    const due = await this.due(nowUtc);
    let query = this.withCount(this.filtered(this.db.selectFrom('terms'), filter, due), due);
    const direction = order.descending ? 'desc' : 'asc';
    const key = this.sortExpression(order.key, filter, due);
    if (order.key === 'none') {
      query = query.orderBy('terms.id', 'asc');
    } else {
      if (key) query = query.orderBy(key, direction);
      // Equal keys keep a stable, reversible order (30 §4.10: the reference's tie order is unverified).
      query = query.orderBy('terms.id', direction);
    }
    const rows = await query.limit(page.limit).offset(page.offset).execute();
    return rows.map(counted);
  }

  /** The terms of many events (any taxonomy) with their counts, each row naming the event it is linked to (`eventTermLinks` reads them). */
  termsOfEventsQuery(eventIds: readonly number[], nowUtc: string) {
    return this.withCount(this.db.selectFrom('terms'), { nowUtc })
      .innerJoin('event_terms', 'event_terms.term_id', 'terms.id')
      .select('event_terms.event_id as linked_event_id')
      .where('event_terms.event_id', 'in', [...new Set(eventIds)]);
  }

  /** The new term's id, or undefined when another writer took the slug first (the caller picks another). */
  async insert(term: NewTerm): Promise<number | undefined> {
    const row = await this.db
      .insertInto('terms')
      .values(term)
      .onConflict((conflict) => conflict.columns(['taxonomy', 'slug']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return row?.id;
  }

  async update(id: number, changes: Partial<Omit<NewTerm, 'taxonomy'>>): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await this.db.updateTable('terms').set(changes).where('id', '=', id).execute();
  }

  /**
   * Deletes a term for good: its children move up to its parent and events lose it. Returns
   * false when the term was already gone.
   */
  async delete(term: Term): Promise<boolean> {
    await this.db.updateTable('terms').set({ parent: term.parent }).where('taxonomy', '=', term.taxonomy).where('parent', '=', term.id).execute();
    await this.db.deleteFrom('event_terms').where('term_id', '=', term.id).execute();
    const result = await this.db.deleteFrom('terms').where('id', '=', term.id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  private async due(nowUtc: string): Promise<number[]> {
    const rows = await this.db.selectFrom('events').select('id').where(isDue(nowUtc)).execute();
    return rows.map((row) => row.id);
  }

  private withCount<O>(query: SelectQueryBuilder<Database, 'terms', O>, due: Due) {
    return query.selectAll('terms').select((eb) => publishedCount(eb, due).as('count'));
  }

  private filtered<O>(query: SelectQueryBuilder<Database, 'terms', O>, filter: TermListFilter, due: readonly number[]): SelectQueryBuilder<Database, 'terms', O> {
    let q = query.where('terms.taxonomy', '=', filter.taxonomy);
    const { search, include, exclude, parent, eventId, slug } = filter;
    if (search && search.length > 0) {
      q = q.where((eb) => eb.or(search.flatMap((text) => [containsInsensitive(eb.ref('terms.name'), text), containsInsensitive(eb.ref('terms.slug'), text)])));
    }
    if (include) q = q.where('terms.id', 'in', include.length ? [...include] : [0]);
    else if (exclude && exclude.length > 0) q = q.where('terms.id', 'not in', [...exclude]);
    if (parent !== undefined) q = q.where('terms.parent', '=', parent);
    if (slug !== undefined) q = q.where('terms.slug', '=', slug);
    if (eventId !== undefined) {
      q = q.where('terms.id', 'in', (eb) => eb.selectFrom('event_terms').select('event_terms.term_id').where('event_terms.event_id', '=', eventId));
    } else if (filter.hideEmpty) {
      q = filter.taxonomy === CATEGORY ? this.whereCategoryShown(q, due) : q.where((eb) => hasPublished(eb, due));
    }
    return q;
  }

  /**
   * An empty category still shows when a descendant has published events (30 §1.4): the shown
   * set is every non-empty category plus all its ancestors, built by one recursive subquery.
   */
  private whereCategoryShown<O>(query: SelectQueryBuilder<Database, 'terms', O>, due: readonly number[]): SelectQueryBuilder<Database, 'terms', O> {
    return query.where('terms.id', 'in', () =>
      this.db
        .withRecursive('shown(id)', (db) =>
          db
            .selectFrom('terms')
            .select('terms.id')
            .where('terms.taxonomy', '=', CATEGORY)
            .where((eb) => hasPublished(eb, due))
            .union((eb) => eb.selectFrom('terms').innerJoin('shown', 'shown.id', 'terms.id').select('terms.parent as id').where('terms.parent', '!=', 0)),
        )
        .selectFrom('shown')
        .select('shown.id'),
    );
  }

  private sortExpression(key: TermSortKey, filter: TermListFilter, due: readonly number[]): ((eb: TermsScope) => Expression<unknown>) | undefined {
    switch (key) {
      case 'name':
      case 'slug':
      case 'description':
        // Case-insensitive, as the reference's database collation compares (30 §1.4).
        return (eb) => eb.fn('lower', [`terms.${key}`]);
      case 'count':
        return (eb) => publishedCount(eb, due);
      case 'parent':
        return (eb) => eb.ref('terms.parent');
      case 'include': {
        const ids = filter.include ?? [];
        if (ids.length === 0) return undefined;
        // Literal integers (validated ids and positions), so PostgreSQL types the CASE as integer.
        return () => sql`case ${sql.ref('terms.id')} ${sql.join(ids.map((id, position) => sql`when ${sql.lit(id)} then ${sql.lit(position)}`), sql` `)} else ${sql.lit(ids.length)} end`;
      }
      case 'term_order': {
        const eventId = filter.eventId;
        if (eventId === undefined) return undefined;
        return (eb) =>
          eb.selectFrom('event_terms').select('event_terms.position').where('event_terms.event_id', '=', eventId).whereRef('event_terms.term_id', '=', 'terms.id');
      }
      case 'id':
      case 'none':
        return undefined;
    }
  }
}

/** A term `findByKeys` found; with `parenthood`, whether it has children (true or 1 as the dialect gives it). */
export type KeyedTerm = Term & { is_parent?: unknown };

/** The rows of `termsOfEventsQuery`: each term with the event it is linked to. */
export function eventTermLinks(rows: ReadonlyArray<Term & { count: unknown; linked_event_id: number }>): Array<{ eventId: number; term: CountedTerm }> {
  return rows.map(({ linked_event_id: eventId, ...term }) => ({ eventId, term: counted(term) }));
}

function counted<T extends Term & { count: unknown }>(row: T): T & { count: number } {
  return { ...row, count: toInt(row.count) };
}
