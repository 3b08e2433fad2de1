import type { Kysely } from 'kysely';
import { uniqueSlugCandidates } from '../../domain/text/slug.ts';
import type { Database } from '../schema.ts';
import { lockUntilCommit } from '../locks.ts';

export type SluggedTable = 'events' | 'venues' | 'organizers';

/**
 * The first free slug among `base`, `base-2`, `base-3`… in one table (slugs are unique per
 * kind), ignoring the record `excludeId` itself. Call inside the write transaction. LIKE
 * wildcards inside `base` (`_`, `%`) can only widen the candidate set, which is filtered exactly.
 */
export async function findFreeSlug(db: Kysely<Database>, table: SluggedTable, base: string, excludeId?: number, maxLength?: number): Promise<string> {
  if (base === '') return '';
  await lockUntilCommit(db, `slug:${table}:${base}`);
  let query = db.selectFrom(table).select('slug').where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]));
  if (excludeId !== undefined) query = query.where('id', '!=', excludeId);
  const taken = new Set((await query.execute()).map((row) => row.slug));
  for (const candidate of uniqueSlugCandidates(base, maxLength)) {
    if (!taken.has(candidate)) return candidate;
  }
  throw new Error('unreachable: the candidate sequence is infinite');
}
