import type { Storage } from '../storage/database.ts';
import type { EventRow, Taxonomy } from '../storage/schema.ts';
import type { EventsService } from './events-service.ts';
import { ReadCache, type RequestScope } from '../read/read-cache.ts';
import { resolveTermFilter } from './terms-service.ts';

/**
 * The small reads that event requests make before their cached answer (an event's record for
 * the permission checks, a slug's id, a term filter resolved to ids), kept under the same cache
 * epoch as the answers: a repeated read is answered without a query, and a request that asks
 * twice (argument validation, then the handler) reads once.
 */
export class EventLookups {
  private readonly records: ReadCache<EventRow>;
  private readonly slugs: ReadCache<number | undefined>;
  private readonly termFilters: ReadCache<number[] | null>;

  constructor(
    private readonly storage: Pick<Storage, 'db' | 'epochs'>,
    private readonly events: EventsService,
  ) {
    // A described write is one standalone event's row: other events' records and every term stay.
    this.records = new ReadCache(storage, 5000, (event, write) => event.id !== write.id);
    this.slugs = new ReadCache(storage, 5000);
    this.termFilters = new ReadCache(storage, 1000, () => true);
  }

  /** The event as `EventsService.read` answers it (404/400 for an unknown id). */
  event(request: RequestScope, id: number): Promise<EventRow> {
    return this.records.get(request, String(id), () => this.events.read(id, request.now));
  }

  idBySlug(request: RequestScope, slug: string): Promise<number | undefined> {
    return this.slugs.get(request, slug, () => this.events.findIdBySlug(slug, request.now));
  }

  /** The term ids a `categories`/`tags` filter selects, or null when an entry names no term. */
  termFilter(request: RequestScope, taxonomy: Taxonomy, entries: readonly string[]): Promise<number[] | null> {
    return this.termFilters.get(request, JSON.stringify([taxonomy, entries]), () => resolveTermFilter(this.storage.db, taxonomy, [...entries]));
  }
}
