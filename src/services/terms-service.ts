import type { Kysely } from 'kysely';
import { can, type Principal } from '../domain/auth/capabilities.ts';
import { formatWall } from '../domain/dates/datetime-format.ts';
import { RestError, invalidParam } from '../domain/errors.ts';
import { REASONS } from '../domain/reasons.ts';
import { escapeSpecialChars } from '../domain/text/entities.ts';
import { filterRichHtml, sanitizeTermName } from '../domain/text/html-filter.ts';
import { slugify, uniqueSlugCandidates } from '../domain/text/slug.ts';
import { isHierarchical } from '../render/json/term-serializer.ts';
import type { Database, Taxonomy } from '../storage/schema.ts';
import { TermsRepository, type CountedTerm, type KeyedTerm, type Term, type TermListFilter, type TermSortKey } from '../storage/repositories/terms-repository.ts';
import { lockUntilCommit } from '../storage/locks.ts';

/** A term ready for the term serializer: its row with count, and its ancestors' slugs (root first). */
export interface TermView {
  term: CountedTerm;
  ancestors: string[];
}

function utc(now: Date): string {
  return formatWall(now);
}

// PHP is_numeric: such entries name term ids and are never taken as names (10-events §6.4).
const NUMERIC = /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i;
const POSITIVE_INTEGER = /^\s*\+?0*[1-9]\d*\s*$/;

/** A term reference as a client writes it: an id, or a text that is a slug or a name. */
type TermKey = { id: number } | { text: string } | { invalid: true };

function termKey(entry: unknown): TermKey {
  if (typeof entry === 'number') return Number.isSafeInteger(entry) && entry > 0 ? { id: entry } : { invalid: true };
  if (typeof entry !== 'string') return { invalid: true };
  if (POSITIVE_INTEGER.test(entry)) return { id: Number(entry) };
  if (NUMERIC.test(entry)) return { invalid: true };
  const text = entry.trim();
  return text === '' ? { invalid: true } : { text };
}

interface KeyLookup {
  taxonomy: Taxonomy;
  keys: readonly TermKey[];
}

/**
 * Looks up every key of every taxonomy in one query: an id in its taxonomy, else a text as slug,
 * else as name. The matches come per lookup, per key.
 */
async function matchKeysOf(repo: TermsRepository, lookups: readonly KeyLookup[], options: { parenthood?: boolean } = {}): Promise<Array<Array<KeyedTerm | undefined>>> {
  const asked = lookups.map(({ taxonomy, keys }) => {
    const ids: number[] = [];
    const texts: string[] = [];
    for (const key of keys) {
      if ('id' in key) ids.push(key.id);
      else if ('text' in key) texts.push(key.text);
    }
    return { taxonomy, ids, slugs: texts.map((text) => slugify(text)), names: texts.map(sanitizeTermName) };
  });
  const found = await repo.findByKeys(asked, options);
  return lookups.map(({ taxonomy, keys }) => {
    const ofTaxonomy = found.filter((term) => term.taxonomy === taxonomy);
    return keys.map((key) => {
      if ('id' in key) return ofTaxonomy.find((term) => term.id === key.id);
      if (!('text' in key)) return undefined;
      return findText(ofTaxonomy, key.text);
    });
  });
}

async function matchKeys(repo: TermsRepository, taxonomy: Taxonomy, keys: readonly TermKey[], options: { parenthood?: boolean } = {}): Promise<Array<KeyedTerm | undefined>> {
  const [matches] = await matchKeysOf(repo, [{ taxonomy, keys }], options);
  return matches;
}

function findText<T extends Term>(terms: readonly T[], text: string): T | undefined {
  const slug = slugify(text);
  const name = sanitizeTermName(text).toLowerCase();
  return terms.find((term) => slug !== '' && term.slug === slug) ?? terms.find((term) => term.name.toLowerCase() === name);
}

/**
 * Whether every entry names an existing term of the taxonomy by id, slug or name: the check of
 * the list filters `include`/`exclude` (30 §1.4). An empty list names nothing and fails.
 */
export async function termsExist(db: Kysely<Database>, taxonomy: Taxonomy, entries: readonly unknown[]): Promise<boolean> {
  if (entries.length === 0) return false;
  const matches = await matchKeys(new TermsRepository(db), taxonomy, entries.map(termKey));
  return matches.every((term) => term !== undefined);
}

/**
 * The events list filters `categories` / `tags` (10-events §4.1, §4.3): every entry is an id, a
 * slug or a name of an existing term; null as soon as one entry matches nothing. Categories
 * also bring all their descendants, whose events match too.
 */
export async function resolveTermFilter(db: Kysely<Database>, taxonomy: Taxonomy, entries: unknown[]): Promise<number[] | null> {
  const repo = new TermsRepository(db);
  const hierarchical = isHierarchical(taxonomy);
  const matches = await matchKeys(repo, taxonomy, entries.map(termKey), { parenthood: hierarchical });
  if (matches.some((term) => term === undefined)) return null;
  const ids = [...new Set(matches.map((term) => term!.id))];
  // Terms without children are their own descendants: the tree is read only below a parent.
  return hierarchical && matches.some((term) => Boolean(term!.is_parent)) ? repo.withDescendants(taxonomy, ids) : ids;
}

/** The name of the term an id, slug or name entry names, if any (a feed named after its filter). */
export async function termNameOf(db: Kysely<Database>, taxonomy: Taxonomy, entry: unknown): Promise<string | undefined> {
  const [term] = await matchKeys(new TermsRepository(db), taxonomy, [termKey(entry)]);
  return term?.name;
}

function eventTermEntries(input: unknown): unknown[] {
  if (input === undefined || input === null) return [];
  if (typeof input === 'string') return input.split(',');
  if (Array.isArray(input)) return input;
  if (typeof input === 'object') return Object.values(input);
  return [input];
}

/**
 * The terms of an event being written (10-events §6.4), per taxonomy sent (existing ones of
 * every taxonomy looked up in one query): a comma string or a list of ids, slugs and names.
 * Unknown ids are skipped; a text naming no term creates one. Deduplicated, in input order. An
 * entry that is an object with an `id` (a term as events return it) names that id, so a client
 * can send back what it read.
 */
export async function resolveEventTerms(trx: Kysely<Database>, inputs: ReadonlyArray<{ taxonomy: Taxonomy; input: unknown }>): Promise<number[][]> {
  const repo = new TermsRepository(trx);
  const lookups = inputs.map(({ taxonomy, input }) => ({
    taxonomy,
    keys: eventTermEntries(input).map((entry) =>
      entry !== null && typeof entry === 'object' && 'id' in entry ? termKey((entry as { id: unknown }).id) : termKey(entry),
    ),
  }));
  const matched = await matchKeysOf(repo, lookups);
  const resolved: number[][] = [];
  for (const [lookup, { taxonomy, keys }] of lookups.entries()) {
    const created: Term[] = [];
    const ids: number[] = [];
    for (const [index, key] of keys.entries()) {
      let term = matched[lookup][index];
      if (!term && 'text' in key) {
        term = findText(created, key.text);
        if (!term) {
          const name = sanitizeTermName(key.text);
          if (name === '') continue;
          // Concurrent writes naming the same new term: the second waits, then finds the first's.
          await lockUntilCommit(trx, `term:${taxonomy}:${name.toLowerCase()}`);
          [term] = await matchKeys(repo, taxonomy, [key]);
          term ??= await insertTerm(repo, { taxonomy, name, slug: slugify(name), description: '', parent: 0 }, []);
          created.push(term);
        }
      }
      if (term && !ids.includes(term.id)) ids.push(term.id);
    }
    resolved.push(ids);
  }
  return resolved;
}

// --- the categories and tags routes ---

export interface TermListRequest {
  page: number;
  perPage: number;
  search?: string;
  include?: number[];
  exclude?: number[];
  order?: string;
  orderby?: string;
  hideEmpty: boolean;
  parent?: number;
  eventId?: number;
  slug?: string;
}

/** `orderby` of a term list (30 §1.4): case-insensitive; unknown values sort by name. */
function sortKey(request: TermListRequest): TermSortKey {
  const key = (request.orderby ?? 'name').toLowerCase();
  switch (key) {
    case 'name':
    case 'slug':
    case 'description':
    case 'count':
    case 'parent':
    case 'none':
    case 'term_order':
      return key;
    case 'id':
    case 'term_id':
    case 'term_taxonomy_id':
    // One value for every term of a list: equal keys, so the id decides.
    case 'term_group':
    case 'taxonomy':
      return 'id';
    case 'include':
      return request.include ? 'include' : 'name';
    default:
      return 'name';
  }
}

export async function listTerms(db: Kysely<Database>, taxonomy: Taxonomy, request: TermListRequest, now: Date): Promise<{ total: number; views: TermView[] }> {
  const repo = new TermsRepository(db);
  const nowUtc = utc(now);
  const filter: TermListFilter = {
    taxonomy,
    // Names are stored with `&`, `<`, `>` encoded; a search typed with the plain characters finds them too.
    search: request.search === undefined ? undefined : [...new Set([request.search, escapeSpecialChars(request.search, false)])],
    include: request.include,
    exclude: request.include ? undefined : request.exclude,
    parent: request.parent,
    eventId: request.eventId,
    slug: request.slug === undefined ? undefined : slugify(request.slug),
    hideEmpty: request.hideEmpty && request.eventId === undefined,
  };
  const order = { key: sortKey(request), descending: (request.order ?? 'asc').toLowerCase() !== 'asc' };
  const [total, terms] = await Promise.all([
    repo.count(filter, nowUtc),
    repo.list(filter, order, { limit: request.perPage, offset: (request.page - 1) * request.perPage }, nowUtc),
  ]);
  return { total, views: await withAncestors(repo, terms) };
}

async function withAncestors(repo: TermsRepository, terms: CountedTerm[]): Promise<TermView[]> {
  const ancestors = await repo.ancestorSlugs(terms);
  return terms.map((term) => ({ term, ancestors: ancestors.get(term.id) ?? [] }));
}

export async function getTerm(db: Kysely<Database>, taxonomy: Taxonomy, id: number, now: Date): Promise<TermView | undefined> {
  const repo = new TermsRepository(db);
  const term = await repo.findById(taxonomy, id, utc(now));
  return term && (await withAncestors(repo, [term]))[0];
}

/** Slugs of the ancestors of a term placed under `parent`, root first (the parent itself last). */
async function chainAbove(repo: TermsRepository, parent: number): Promise<string[]> {
  if (parent === 0) return [];
  // Term ids start at 1, so 0 stands for the term that is not stored yet.
  const slugs = await repo.ancestorSlugs([{ id: 0, parent }]);
  return slugs.get(0) ?? [];
}

/**
 * A slug free in the taxonomy (30 §1.6 step 5): taken slugs of a child category first get its
 * ancestors' slugs appended one by one (`jazz-music`, `jazz-music-arts`), then numbers (`-2`, …)
 * on the longest of those, as WordPress does.
 */
async function freeSlug(repo: TermsRepository, taxonomy: Taxonomy, base: string, ancestors: readonly string[], excludeId?: number): Promise<string> {
  const taken = await repo.slugsStartingWith(taxonomy, base, excludeId);
  if (!taken.has(base)) return base;
  let slug = base;
  for (const ancestor of [...ancestors].reverse()) {
    slug = `${slug}-${ancestor}`;
    if (!taken.has(slug)) return slug;
  }
  for (const candidate of uniqueSlugCandidates(slug)) {
    if (!taken.has(candidate)) return candidate;
  }
  throw new Error('unreachable: the candidate sequence is infinite');
}

/**
 * Inserts a term under a free slug. A concurrent writer may take that slug between the check and
 * the insert (PostgreSQL serves many instances); then the next free one is taken. A name
 * without any slug-able character takes its id as slug, as in WordPress.
 */
async function insertTerm(
  repo: TermsRepository,
  term: { taxonomy: Taxonomy; name: string; slug: string; description: string; parent: number },
  ancestors: readonly string[],
): Promise<Term> {
  for (;;) {
    // An empty slug holds the row only until its id is known, inside this transaction.
    const slug = term.slug === '' ? '' : await freeSlug(repo, term.taxonomy, term.slug, ancestors);
    const id = await repo.insert({ ...term, slug });
    if (id === undefined) continue;
    // A new term carries no events yet.
    if (term.slug !== '') return { ...term, id, slug, revision: 0, published_count: 0 };
    const fallback = await freeSlug(repo, term.taxonomy, String(id), ancestors, id);
    await repo.update(id, { slug: fallback });
    // Writing the slug raised the revision (80 §1.1).
    return { ...term, id, slug: fallback, revision: 1, published_count: 0 };
  }
}

export interface TermInput {
  name?: string;
  description?: string;
  slug?: string;
  parent?: number;
}

function termName(raw: string): string {
  const name = sanitizeTermName(raw);
  if (name === '') throw new RestError(400, 'empty_term_name');
  return name;
}

/** Descriptions keep raw HTML only for callers trusted with it (40 §9). */
function termDescription(raw: string, principal: Principal): string {
  return can(principal, 'unfiltered_html') ? raw : filterRichHtml(raw);
}

/** 30 §1.6: sanitising, duplicate-name check, free slug, insert. Run inside the request's transaction. */
/** Creates a term; the answer is read back from the row, so it shows exactly what was stored. */
export async function createTerm(trx: Kysely<Database>, taxonomy: Taxonomy, input: TermInput & { name: string }, principal: Principal, now: Date): Promise<TermView> {
  const repo = new TermsRepository(trx);
  const name = termName(input.name);
  const parent = isHierarchical(taxonomy) ? (input.parent ?? 0) : 0;
  const slugGiven = input.slug !== undefined;
  const slug = (slugGiven ? slugify(input.slug!) : '') || slugify(name);
  await lockUntilCommit(trx, `term:${taxonomy}:${name.toLowerCase()}`);
  await refuseDuplicateName(repo, taxonomy, { name, slug, slugGiven, parent });
  const ancestors = await chainAbove(repo, parent);
  const description = input.description === undefined ? '' : termDescription(input.description, principal);
  const term = await insertTerm(repo, { taxonomy, name, slug, description, parent }, ancestors);
  return (await getTerm(trx, taxonomy, term.id, now))!;
}

/**
 * WordPress's duplicate check on insert (30 §1.6 step 4): a term of the same name (same parent
 * for categories, case-insensitive) blocks the insert unless a new slug was asked for.
 */
async function refuseDuplicateName(repo: TermsRepository, taxonomy: Taxonomy, candidate: { name: string; slug: string; slugGiven: boolean; parent: number }): Promise<void> {
  const [sameName] = await repo.findByName(taxonomy, candidate.name, candidate.parent);
  if (!sameName) return;
  const sameSlug = await repo.findBySlug(taxonomy, candidate.slug);
  const hierarchical = isHierarchical(taxonomy);
  let existing: Term | undefined;
  if (!candidate.slugGiven || sameName.slug === candidate.slug) existing = sameName;
  // Tags report the term of that name; categories the sibling holding the slug.
  else if (sameSlug && !hierarchical) existing = sameName;
  else if (sameSlug && sameSlug.parent === candidate.parent) existing = sameSlug;
  if (!existing) return;
  throw new RestError(400, 'term_exists', {
    messageKey: hierarchical ? 'term_exists_parent' : 'term_exists',
    data: { term_id: existing.id },
  });
}

/** 30 §1.7: only the sent fields change; a taken slug is refused unless the parent changes too. */
export async function updateTerm(trx: Kysely<Database>, taxonomy: Taxonomy, id: number, input: TermInput, principal: Principal, now: Date): Promise<TermView> {
  const repo = new TermsRepository(trx);
  const current = await repo.findById(taxonomy, id, utc(now));
  if (!current) throw invalidParam('id', REASONS.unknownTerm);
  const changes: Partial<Pick<Term, 'name' | 'slug' | 'description' | 'parent'>> = {};
  if (input.name !== undefined) changes.name = termName(input.name);
  if (input.description !== undefined) changes.description = termDescription(input.description, principal);
  if (input.parent !== undefined && isHierarchical(taxonomy)) {
    // A term cannot sit below itself: such a parent silently makes it top-level (WordPress loop protection).
    const below = await repo.withDescendants(taxonomy, [id]);
    changes.parent = below.includes(input.parent) ? 0 : input.parent;
  }
  const parent = changes.parent ?? current.parent;
  const ancestors = await chainAbove(repo, parent);
  if (input.slug !== undefined) {
    const asked = slugify(input.slug);
    const slug = asked || slugify(changes.name ?? current.name) || current.slug;
    const holder = await repo.findBySlug(taxonomy, slug);
    if (holder && holder.id !== id) {
      if (asked !== '' && parent === current.parent) throw new RestError(400, 'duplicate_term_slug', { vars: { slug } });
      changes.slug = await freeSlug(repo, taxonomy, slug, ancestors, id);
    } else {
      changes.slug = slug;
    }
  }
  await repo.update(id, changes);
  return (await getTerm(trx, taxonomy, id, now))!;
}

/** 30 §1.8: permanent; the answer is the term as it was just before. */
export async function deleteTerm(trx: Kysely<Database>, taxonomy: Taxonomy, id: number, now: Date): Promise<TermView> {
  const repo = new TermsRepository(trx);
  const view = await getTerm(trx, taxonomy, id, now);
  if (!view) throw invalidParam('id', REASONS.unknownTerm);
  if (!(await repo.delete(view.term))) throw new RestError(500, 'rest_cannot_delete');
  return view;
}
