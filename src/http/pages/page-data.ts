import type { Kysely } from 'kysely';
import { formatWall } from '../../domain/dates/datetime-format.ts';
import { utcToWall } from '../../domain/dates/time-zone.ts';
import { eventSearchTerms } from '../../domain/text/search.ts';
import { isUnlocked } from '../../domain/posts/password.ts';
import { eventOwnership, type EventsService } from '../../services/events-service.ts';
import { resolveTermFilter } from '../../services/terms-service.ts';
import type { EventListFilter } from '../../storage/repositories/events-repository.ts';
import type { Database, EventRow } from '../../storage/schema.ts';
import { TermsRepository } from '../../storage/repositories/terms-repository.ts';
import { addDays } from '../../web/dates.ts';
import type { ArchiveRef } from '../../web/links.ts';
import type { RestContext } from '../rest/context.ts';
import type { EventModel } from '../../render/json/event-serializer.ts';
import { loadEventModels } from '../../read/event-models.ts';

/** The §3.2/§3.3 filters of a view: everything but the date window. */
export interface ViewFilters {
  search?: string;
  featured: boolean;
  categoryIds?: number[];
  tagIds?: number[];
  venueIds?: number[];
  organizerIds?: number[];
}

export interface ResolvedTerm {
  id: number;
  name: string;
  description: string;
  /** Ancestors and own slug, root first. */
  path: string;
}

type Bounds = EventListFilter['bounds'];

/**
 * What pages read, through the same services, repository filter and read-model loader as the
 * JSON API (55 §14): the visitor's statuses, the REST search rule, the list's date window fields
 * and term resolution; events come out as read models (src/web renders them).
 */
export class PageData {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly events: EventsService,
    private readonly siteZone: string,
  ) {}

  /** Now as a site-zone wall clock. */
  siteNow(now: Date): string {
    return utcToWall(formatWall(now), this.siteZone);
  }

  private filter(filters: ViewFilters, bounds: Bounds, descending = false): EventListFilter {
    return {
      statuses: ['publish'],
      // Pages compare local wall clocks (55 §14).
      windowOnUtc: false,
      bounds,
      search: filters.search === undefined ? undefined : eventSearchTerms(filters.search),
      categoryIds: filters.categoryIds,
      tagIds: filters.tagIds,
      venueIds: filters.venueIds,
      organizerIds: filters.organizerIds,
      featured: filters.featured ? true : undefined,
      orderDesc: descending,
    };
  }

  async rows(ctx: RestContext, filters: ViewFilters, bounds: Bounds, page: number, perPage: number, descending = false): Promise<{ rows: EventRow[]; total: number }> {
    return this.events.list(this.filter(filters, bounds, descending), page, perPage, ctx.now);
  }

  /** The read models of these events for a visitor, locked unless `unlockedPassword` opens them (10 §9). */
  models(ctx: RestContext, rows: readonly EventRow[], unlockedPassword?: string): Promise<EventModel[]> {
    const locked = (event: EventRow) => !isUnlocked(eventOwnership(event), null, { password: unlockedPassword, contextEdit: false });
    // Embedded venues and organizers carry their json_ld: the event's JSON-LD embeds it (55 §7.2).
    return loadEventModels(this.db, rows, ctx, { jsonLd: true, locked });
  }

  async list(ctx: RestContext, filters: ViewFilters, bounds: Bounds, page: number, perPage: number, descending = false): Promise<{ events: EventModel[]; total: number }> {
    const { rows, total } = await this.rows(ctx, filters, bounds, page, perPage, descending);
    return { events: await this.models(ctx, rows), total };
  }

  /**
   * A month grid's events, or, when more than `limit` match, only their local spans: the grid
   * then shows per-day counts (55 §4) without reading and rendering thousands of events.
   */
  async windowOrSpans(ctx: RestContext, filters: ViewFilters, bounds: Bounds, limit: number): Promise<{ events: EventModel[]; spans?: Array<{ start_date: string; end_date: string }> }> {
    const filter = this.filter(filters, bounds);
    const { rows, total } = await this.events.list(filter, 1, limit, ctx.now, { rowsUpTo: limit });
    if (total <= limit) return { events: await this.models(ctx, rows) };
    const spans = await this.events.spans(filter, ctx.now);
    return { events: [], spans: spans.map((span) => ({ start_date: span.start_local, end_date: span.end_local })) };
  }

  /** One visible occurrence of a series, hidden-from-listings ones included (their pages work). */
  private async occurrence(ctx: RestContext, masterId: number, bounds: Bounds, descending = false): Promise<EventRow | undefined> {
    const filter = { ...this.filter({ featured: false }, bounds, descending), postParent: masterId, withHidden: true };
    return (await this.events.list(filter, 1, 1, ctx.now)).rows[0];
  }

  /** The series occurrence starting on local `date`, the first by start when several (55 §2). */
  occurrenceOn(ctx: RestContext, masterId: number, date: string): Promise<EventRow | undefined> {
    return this.occurrence(ctx, masterId, { start_date: `${date} 00:00:00`, starts_before: `${addDays(date, 1)} 00:00:00` });
  }

  /** Where a series master's page leads (55 §2): its next occurrence that ends after now, else its last. */
  async currentOccurrence(ctx: RestContext, masterId: number): Promise<EventRow | undefined> {
    return (await this.occurrence(ctx, masterId, { ends_after: this.siteNow(ctx.now) })) ?? this.occurrence(ctx, masterId, {}, true);
  }

  /** Start of the first and of the last visible event (navigation bounds of §4 and §6). */
  async extremes(ctx: RestContext, filters: ViewFilters): Promise<{ first?: string; last?: string }> {
    const [first, last] = await Promise.all([this.rows(ctx, filters, {}, 1, 1), this.rows(ctx, filters, {}, 1, 1, true)]);
    return { first: first.rows[0]?.start_local, last: last.rows[0]?.start_local };
  }

  /** The first visible event starting after `wall`. */
  async nextStart(ctx: RestContext, filters: ViewFilters, wall: string): Promise<string | undefined> {
    return (await this.rows(ctx, filters, { starts_after: wall }, 1, 1)).rows[0]?.start_local;
  }

  /** "Latest Past Events": the three that ended before today 00:00, newest first (§5). */
  async latestPast(ctx: RestContext, filters: ViewFilters, today: string): Promise<EventModel[]> {
    return (await this.list(ctx, filters, { ends_before: `${today} 00:00:00` }, 1, 3, true)).events;
  }

  async hasUpcoming(ctx: RestContext, filters: ViewFilters, now: string): Promise<boolean> {
    return (await this.rows(ctx, filters, { ends_after: now }, 1, 1)).total > 0;
  }

  /** Month grid window: overlap with [first cell 00:00, last cell + 1 day 00:00). */
  windowBounds(first: string, last: string): Bounds {
    return { ends_after: `${first} 00:00:00`, starts_before: `${addDays(last, 1)} 00:00:00` };
  }

  /** A category or tag named by slug or id (an embed's `categories`/`tags` entry, 130 §10.1). */
  async termEntry(taxonomy: ArchiveRef['taxonomy'], entry: string, now: Date): Promise<(ResolvedTerm & { ids: number[] }) | undefined> {
    const bySlug = await this.term({ taxonomy, path: entry });
    if (bySlug || !/^[1-9]\d{0,9}$/.test(entry)) return bySlug;
    const row = await new TermsRepository(this.db).findById(taxonomy === 'category' ? 'tribe_events_cat' : 'post_tag', Number(entry), formatWall(now));
    return row ? this.term({ taxonomy, path: row.slug }) : undefined;
  }

  /** A category by archive path or slug (descendants included) or a tag by slug; undefined = unknown. */
  async term(archive: ArchiveRef): Promise<(ResolvedTerm & { ids: number[] }) | undefined> {
    const taxonomy = archive.taxonomy === 'category' ? 'tribe_events_cat' : 'post_tag';
    const slug = archive.path.split('/').pop()!;
    const repo = new TermsRepository(this.db);
    const term = await repo.findBySlug(taxonomy, slug);
    if (!term) return undefined;
    const ancestors = taxonomy === 'tribe_events_cat' ? (await repo.ancestorSlugs([term])).get(term.id) ?? [] : [];
    const ids = (await resolveTermFilter(this.db, taxonomy, [term.id])) ?? [term.id];
    return { id: term.id, name: term.name, description: term.description, path: [...ancestors, term.slug].join('/'), ids };
  }
}
