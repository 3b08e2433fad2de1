import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { uniqueSlugCandidates } from '../../domain/text/slug.ts';
import { lockUntilCommit } from '../locks.ts';
import type { Database } from '../schema.ts';

export type SluggedTable = 'events' | 'venues' | 'organizers';

/** Candidates asked for per query: index lookups by exact value, whatever the table's size. */
const BATCH = 20;

/**
 * The first free slug among `base`, `base-2`, `base-3`… in one table (slugs are unique per
 * kind), ignoring the record `excludeId` itself. Call inside the write transaction: the lock
 * keeps concurrent writers from handing out the same slug.
 */
export async function findFreeSlug(db: Kysely<Database>, table: SluggedTable, base: string, excludeId?: number, maxLength?: number): Promise<string> {
  if (base === '') return '';
  await lockUntilCommit(db, `slug:${table}:${base}`);
  const candidates = uniqueSlugCandidates(base, maxLength);
  for (;;) {
    const batch = Array.from({ length: BATCH }, () => candidates.next().value);
    let query = db.selectFrom(table).select('slug').where('slug', 'in', batch);
    if (excludeId !== undefined) query = query.where('id', '!=', excludeId);
    // Occurrences show their series' slug and take no part in uniqueness (60 §2). The unary plus
    // keeps SQLite's planner off the post_parent index, which would scan every standalone event:
    // the slug index finds the few candidates in any table size.
    if (table === 'events') query = (query as SelectQueryBuilder<Database, 'events', { slug: string }>).where(sql`+post_parent`, '=', 0) as typeof query;
    const taken = new Set((await query.execute()).map((row) => row.slug));
    const free = batch.find((candidate) => !taken.has(candidate));
    if (free !== undefined) return free;
  }
}
