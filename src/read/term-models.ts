import type { Kysely } from 'kysely';
import { formatWall } from '../domain/dates/datetime-format.ts';
import type { RenderContext } from '../render/context.ts';
import { serializeEmbeddedTerm } from '../render/json/term-serializer.ts';
import { eventTermLinks, TermsRepository, type CountedTerm, type Term } from '../storage/repositories/terms-repository.ts';
import type { Database } from '../storage/schema.ts';
import { readOf, type Read } from '../storage/reads-together.ts';

/**
 * The `categories` and `tags` of many events in the embedded shape (10-events §3.6), each list
 * sorted by name (case-insensitive): one query however many events.
 */
export function embeddedTermsRead(
  db: Kysely<Database>,
  eventIds: readonly number[],
  ctx: RenderContext,
): Read<Map<number, { categories: Record<string, unknown>[]; tags: Record<string, unknown>[] }>> {
  const terms = new TermsRepository(db);
  const values: [string, ...number[]] = [formatWall(ctx.now), ...new Set(eventIds)];
  const build = ([nowUtc, ...ids]: typeof values) => ({ links: ids.length === 0 ? undefined : terms.termsOfEventsQuery(ids, nowUtc) });
  return readOf('event terms', values, build, (rows) => {
    const result = new Map(eventIds.map((id) => [id, { categories: [] as CountedTerm[], tags: [] as CountedTerm[] }]));
    for (const { eventId, term } of eventTermLinks(rows.links)) {
      const lists = result.get(eventId);
      if (!lists) continue;
      (term.taxonomy === 'tribe_events_cat' ? lists.categories : lists.tags).push(term);
    }
    const embed = (list: CountedTerm[]) => list.sort(byName).map((term) => serializeEmbeddedTerm(term, ctx.urls));
    return new Map([...result].map(([id, lists]) => [id, { categories: embed(lists.categories), tags: embed(lists.tags) }]));
  });
}

function byName(a: Term, b: Term): number {
  const left = a.name.toLowerCase();
  const right = b.name.toLowerCase();
  return left < right ? -1 : left > right ? 1 : a.id - b.id;
}
