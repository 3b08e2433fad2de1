import { sql, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { uniqueSlugCandidates } from '../../domain/text/slug.ts';
import { lockAllUntilCommit } from '../locks.ts';
import type { Database } from '../schema.ts';
import { isPostgres } from '../sql-helpers.ts';

export type SluggedTable = 'events' | 'venues' | 'organizers';

/** Candidates asked for per query: index lookups by exact value, whatever the table's size. */
const BATCH = 20;

/**
 * The first free slug among `base`, `base-2`, `base-3`… in one table (slugs are unique per
 * kind), ignoring the record `excludeId` itself. Call inside the write transaction: the lock
 * keeps concurrent writers from handing out the same slug.
 */
export async function findFreeSlug(db: Kysely<Database>, table: SluggedTable, base: string, excludeId?: number, maxLength?: number): Promise<string> {
  return (await findFreeSlugs(db, table, [base], maxLength, excludeId))[0];
}

/**
 * `findFreeSlug` for several new records at once (a batch of creates), in one query per round
 * for all of them: each gets the first candidate of its base that is neither stored nor given
 * to an earlier one of the batch. An empty base stays empty.
 */
export async function findFreeSlugs(db: Kysely<Database>, table: SluggedTable, bases: readonly string[], maxLength?: number, excludeId?: number): Promise<string[]> {
  const wanted = [...new Set(bases.filter((base) => base !== ''))];
  await lockAllUntilCommit(db, wanted.map((base) => `slug:${table}:${base}`));
  const candidates = new Map(wanted.map((base) => [base, uniqueSlugCandidates(base, maxLength)]));
  const seen = new Map<string, string[]>(wanted.map((base) => [base, []]));
  const taken = new Set<string>();
  const free = bases.map(() => '');
  let pending = bases.flatMap((base, index) => (base === '' ? [] : [index]));
  while (pending.length > 0) {
    // Each base whose candidates so far are used up asks for its next BATCH.
    const asked = [...new Set(pending.map((index) => bases[index]))].flatMap((base) => {
      const batch = Array.from({ length: BATCH }, () => candidates.get(base)!.next().value);
      seen.get(base)!.push(...batch);
      return batch;
    });
    // PostgreSQL: a list read at run time (an array) keeps the slug index in use while the table's
    // statistics lag behind its size; a constant list of 300 candidates was estimated at 5,668
    // of 20,000 events before the first ANALYZE, and every event was read (5 ms a group).
    let query = isPostgres(db)
      ? db.selectFrom(table).select('slug').where(sql<SqlBool>`slug = any(array(select unnest(${asked}::text[])))`)
      : db.selectFrom(table).select('slug').where('slug', 'in', asked);
    if (excludeId !== undefined) query = query.where('id', '!=', excludeId);
    // Occurrences show their series' slug and take no part in uniqueness (60 §2). The unary plus
    // keeps SQLite's planner off the post_parent index, which would scan every standalone event:
    // the slug index finds the few candidates in any table size.
    if (table === 'events') query = (query as SelectQueryBuilder<Database, 'events', { slug: string }>).where(sql`+post_parent`, '=', 0) as typeof query;
    for (const row of await query.execute()) taken.add(row.slug);
    pending = pending.filter((index) => {
      const found = seen.get(bases[index])!.find((candidate) => !taken.has(candidate));
      if (found === undefined) return true;
      free[index] = found;
      taken.add(found);
      return false;
    });
  }
  return free;
}
