import type { Kysely } from 'kysely';
import { can, canModerate, type Principal } from '../../domain/auth/capabilities.ts';
import { canDeleteRecord, canEditRecord } from '../../domain/auth/record-permissions.ts';
import { formatWall } from '../../domain/dates/datetime-format.ts';
import { utcToWall } from '../../domain/dates/time-zone.ts';
import { defaultListStatuses, isStatus, parseStatusFilter, type Status } from '../../domain/status.ts';
import { eventSearchTerms } from '../../domain/text/search.ts';
import { loadEventModels } from '../../read/event-models.ts';
import type { RenderContext } from '../../render/context.ts';
import type { EventModel } from '../../render/json/event-serializer.ts';
import { eventStatusCounts, loginsOf, type StatusCount } from '../../storage/repositories/back-office-repository.ts';
import { EventsRepository, type EventListFilter } from '../../storage/repositories/events-repository.ts';
import { SeriesRepository } from '../../storage/repositories/series-repository.ts';
import type { Database } from '../../storage/schema.ts';
import { eventOwnership } from '../events-service.ts';
import { resolveTermFilter } from '../terms-service.ts';
import { categoryChoices, type CategoryChoice } from './category-choices.ts';
import { loadSubmissionReviews, type SubmissionReview } from './submission-review.ts';

/** 20 rows a page, as the reference's list table (100 §1). */
export const ADMIN_PER_PAGE = 20;

export type When = 'upcoming' | 'past' | 'any';

/** The list's query string (100 §7.3), read leniently: unknown values fall back to the default. */
export interface EventListQuery {
  status?: Status;
  when: When;
  search?: string;
  category?: number;
  /** Start order; absent: ascending, descending on the Past tab. */
  order?: 'asc' | 'desc';
  paged: number;
  series?: number;
  allOccurrences: boolean;
  /** `submissions=1`: only submitted events (120 §8.1). */
  submissions: boolean;
}

type Query = Record<string, string | string[] | undefined>;

export function one(query: Query, name: string): string | undefined {
  const value = query[name];
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text.trim() === '' ? undefined : text.trim();
}

export function positiveInt(text: string | undefined): number | undefined {
  return text !== undefined && /^\d{1,9}$/.test(text) && Number(text) > 0 ? Number(text) : undefined;
}

export function parseEventListQuery(query: Query): EventListQuery {
  const statusText = one(query, 'status');
  const status = isStatus(statusText) ? statusText : undefined;
  const whenText = one(query, 'when');
  const when: When = whenText === 'upcoming' || whenText === 'past' || whenText === 'any' ? whenText : status === undefined ? 'upcoming' : 'any';
  const orderText = one(query, 'order');
  return {
    status,
    when,
    search: one(query, 's'),
    category: positiveInt(one(query, 'category')),
    order: orderText === 'asc' || orderText === 'desc' ? orderText : undefined,
    paged: positiveInt(one(query, 'paged')) ?? 1,
    series: positiveInt(one(query, 'series')),
    allOccurrences: one(query, 'all_occurrences') === '1',
    submissions: one(query, 'submissions') === '1',
  };
}

/** The effective start order of a query. */
export function startOrder(query: EventListQuery): 'asc' | 'desc' {
  return query.order ?? (query.when === 'past' && query.status === undefined ? 'desc' : 'asc');
}

/** One row of the list with what the renderer needs besides the event's read model. */
export interface EventListRow {
  model: EventModel;
  author: string;
  /** Occurrences of its series the tab lists (collapsed rows only). */
  seriesCount?: number;
  /** Whether the user may change it (the checkbox, 100 §7.3): edit or delete right on it. */
  changeable: boolean;
  /** A submitted event as moderators see it (others: never). */
  submission?: SubmissionReview;
}

export interface EventListPage {
  query: EventListQuery;
  rows: EventListRow[];
  total: number;
  totalPages: number;
  counts: StatusCount[];
  categories: CategoryChoice[];
  /** The query's page lies beyond the last (→ 404). */
  beyondLast: boolean;
  /** Editors and administrators: the submissions filter, review columns and decisions (120 §8.1). */
  mayModerate: boolean;
}

/** Now as a wall clock of the list's date bounds (the site zone's, or UTC when the site is UTC). */
export function nowBound(now: Date, siteZone: string): string {
  const utc = formatWall(now);
  return siteZone === 'UTC' ? utc : utcToWall(utc, siteZone);
}

/**
 * The filter `GET {ns}/events` applies for this user with the list's parameters (40 §7): the
 * statuses they may list, ends after/before now, search, category with its descendants,
 * series collapsed unless expanded or one series is asked for. Null when the category is unknown.
 */
export async function eventListFilter(db: Kysely<Database>, principal: Principal, query: EventListQuery, siteZone: string, now: Date): Promise<EventListFilter | null> {
  const statuses = query.status === undefined ? defaultListStatuses(principal) : parseStatusFilter(query.status, principal) ?? [];
  const bound = nowBound(now, siteZone);
  const categoryIds = query.category === undefined ? undefined : await resolveTermFilter(db, 'tribe_events_cat', [query.category]);
  if (categoryIds === null) return null;
  return {
    statuses,
    windowOnUtc: siteZone === 'UTC',
    bounds: query.when === 'upcoming' ? { ends_after: bound } : query.when === 'past' ? { ends_before: bound } : {},
    search: query.search === undefined ? undefined : eventSearchTerms(query.search),
    categoryIds,
    postParent: query.series,
    firstOfSeries: query.series === undefined && !query.allOccurrences,
    orderBy: 'start',
    orderDesc: startOrder(query) === 'desc',
  };
}

/**
 * One page of the back office's event list: the API list's query (page and count), the API's batch
 * read models, the series sizes, authors, tab counts and the category choices — a fixed number of
 * statements whatever the number of rows.
 */
export async function loadEventListPage(db: Kysely<Database>, ctx: RenderContext & { user: Principal }, query: EventListQuery, siteZone: string): Promise<EventListPage> {
  const now = ctx.now;
  const nowUtc = formatWall(now);
  const listFilter = await eventListFilter(db, ctx.user, query, siteZone, now);
  // `submissions=1` (120 §8.1): the API's list query narrowed to submitted events.
  const filter = listFilter !== null && query.submissions ? { ...listFilter, submitted: true as const } : listFilter;
  const [listed, counts, categories] = await Promise.all([
    filter === null ? { rows: [], total: 0 } : new EventsRepository(db, nowUtc).list(filter, query.paged, ADMIN_PER_PAGE),
    eventStatusCounts(db, nowUtc, nowBound(now, siteZone), siteZone === 'UTC'),
    categoryChoices(db, now),
  ]);
  const totalPages = Math.ceil(listed.total / ADMIN_PER_PAGE);
  const collapsed = filter?.firstOfSeries === true;
  const parents = collapsed ? [...new Set(listed.rows.filter((row) => row.post_parent !== 0).map((row) => row.post_parent))] : [];
  const [models, series, logins, reviews] = await Promise.all([
    loadEventModels(db, listed.rows, ctx),
    new SeriesRepository(db).summaries(parents, filter?.statuses ?? [], nowUtc),
    loginsOf(db, listed.rows.map((row) => row.author)),
    loadSubmissionReviews(db, ctx.user, listed.rows),
  ]);
  const rows = models.map((model) => {
    const record = eventOwnership(model.event);
    return {
      model,
      author: logins.get(model.event.author) ?? '',
      seriesCount: collapsed && model.event.post_parent !== 0 ? series.get(model.event.post_parent)?.count : undefined,
      changeable: canEditRecord(ctx.user, record) || canDeleteRecord(ctx.user, record),
      submission: reviews.get(model.event.id),
    };
  });
  return {
    query,
    rows,
    total: listed.total,
    totalPages,
    counts: counts.filter((count) => count.status !== 'trash' || can(ctx.user, 'delete_posts')),
    categories,
    beyondLast: query.paged > Math.max(totalPages, 1),
    mayModerate: canModerate(ctx.user),
  };
}
