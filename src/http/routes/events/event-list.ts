import type { Kysely } from 'kysely';
import { can, type Principal } from '../../../domain/auth/capabilities.ts';
import { computeDateWindow, DATE_WINDOW_PARAMS, type DateWindow, type DateWindowInput } from '../../../domain/dates/date-window.ts';
import { InvalidParamsError, RestError } from '../../../domain/errors.ts';
import { listLinks, type EffectiveListQuery } from '../../../domain/events/list-links.ts';
import { isUnlocked } from '../../../domain/posts/password.ts';
import { defaultListStatuses, parseStatusFilter, type Status } from '../../../domain/status.ts';
import { eventSearchTerms } from '../../../domain/text/search.ts';
import { eventOwnership, type EventsService } from '../../../services/events-service.ts';
import type { EventLookups } from '../../../services/event-lookups.ts';
import { listUnaffectedBy, type EventListFilter } from '../../../storage/repositories/events-repository.ts';
import type { Database, Taxonomy } from '../../../storage/schema.ts';
import type { Endpoint, RestResponse } from '../../rest/endpoint.ts';
import type { RestContext } from '../../rest/context.ts';
import type { Params } from '../../../args/validate-args.ts';
import type { EventParts } from '../../../render/json/event-serializer.ts';
import { serializeEvents } from '../../../read/event-models.ts';
import { JsonText } from '../../rest/send.ts';
import { ReadCache } from '../../../read/read-cache.ts';
import type { Storage } from '../../../storage/database.ts';
import type { DescribedWrite } from '../../../storage/write-journal.ts';
import { listArgs, MAX_EVENTS_PER_PAGE } from '../../../services/event-args.ts';
import { REASONS } from '../../../domain/reasons.ts';
import type { GeoDefaults } from '../../../domain/geo/geo-input.ts';
import { geoLinkPairs, geoSearchArgs, geoSearchOf, withDistances } from '../geo-args.ts';
import { modifiedArgs, modifiedBoundsOf, rawLinkPairs, SYNC_LINK_PARAMS } from '../list-args.ts';
import { hasModifiedBound } from '../../../domain/sync/modified-bounds.ts';

export interface EventListDeps {
  db: Kysely<Database>;
  events: EventsService;
  lookups: EventLookups;
  siteZone: string;
  /** Rendered list pages, valid while the cache epoch stands. */
  pages: ReadCache<CachedPage | null>;
  /** The parts of events (terms, venue, organizers) a page re-rendered after a write need not read again. */
  parts: ReadCache<EventParts>;
  /** Site defaults of the location search (70-geo §5). */
  geoDefaults: GeoDefaults;
}

export interface CachedPage {
  body: JsonText;
  total: number;
  totalPages: number;
  /** Whether the page stays true after a described write. */
  survives(write: DescribedWrite): boolean;
}

/**
 * Rendered list pages, kept while nothing is written — or only writes that cannot change a page:
 * an update of an event that is not on it, of columns its filter and order do not read.
 */
export function listPages(storage: Pick<Storage, 'db' | 'epochs'>): ReadCache<CachedPage | null> {
  return new ReadCache<CachedPage | null>(storage, 500, (page, write) => page !== null && page.survives(write));
}


/** The bounds of §4.2; the validators already accepted every value. */
function dateWindow(params: Params, siteZone: string, now: Date, withoutDefaults: boolean): DateWindow {
  const input: DateWindowInput = { hasInclude: params.has('include'), withoutDefaults };
  for (const name of DATE_WINDOW_PARAMS) if (params.has(name)) input[name] = params.get(name);
  if (params.has('strict_dates')) input.strict_dates = params.get('strict_dates');
  const window = computeDateWindow(input, siteZone, now);
  if ('error' in window) throw new InvalidParamsError(Object.fromEntries(window.params.map((name) => [name, { reason: name === 'strict_dates' ? REASONS.strictDates : REASONS.date }])));
  return window;
}

/** `status` as the links repeat it (§4.6): what the caller may see, or what they asked for. */
function statusLink(params: Params, principal: Principal | null): string {
  if (!can(principal, 'edit_posts')) return 'publish';
  if (!params.has('status')) return 'any';
  const given = params.get('status');
  const items = (Array.isArray(given) ? given : String(given).split(',')).map((item) => String(item).trim()).filter((item) => item !== '');
  return items.length > 0 ? items.join(',') : 'any';
}

function optional<T>(params: Params, name: string): T | undefined {
  return params.has(name) ? params.get<T>(name) : undefined;
}

async function termIds(deps: Pick<EventListDeps, 'lookups'>, ctx: RestContext, taxonomy: Taxonomy, entries: string[] | undefined): Promise<number[] | undefined> {
  if (entries === undefined) return undefined;
  return (await deps.lookups.termFilter(ctx, taxonomy, entries)) ?? [];
}

/** A validated list request as the storage query, the links and the cache keys need it. */
export interface ListRequest {
  filter: EventListFilter;
  query: EffectiveListQuery;
  unlock: { password: unknown; contextEdit: boolean };
  editor: boolean;
  geo: ReturnType<typeof geoSearchOf>;
  /** Everything a rendering depends on besides paging (relative dates already resolved). */
  cacheKey: unknown[];
}

/** The filter of §4.1–§4.4 for this caller: shared by the JSON list and the iCalendar feed. */
export async function resolveListRequest(deps: Pick<EventListDeps, 'lookups' | 'siteZone' | 'geoDefaults'>, ctx: RestContext, params: Params): Promise<ListRequest> {
  const principal = ctx.user;
  const statuses: Status[] = params.has('status') ? parseStatusFilter(params.get('status'), principal)! : defaultListStatuses(principal);
  const modified = modifiedBoundsOf(params, ctx.now);
  const window = dateWindow(params, deps.siteZone, ctx.now, hasModifiedBound(modified));
  const perPage = Math.min(params.get<number>('per_page'), MAX_EVENTS_PER_PAGE);
  const categories = optional<string[]>(params, 'categories');
  const tags = optional<string[]>(params, 'tags');
  const search = optional<string>(params, 'search');
  const geo = geoSearchOf(params, deps.geoDefaults);
  const query: EffectiveListQuery = {
    perPage,
    bounds: window.bounds,
    search,
    geoloc: optional<boolean>(params, 'geoloc'),
    geolocLat: params.has('geoloc_lat') ? String(params.get('geoloc_lat')) : undefined,
    geolocLng: params.has('geoloc_lng') ? String(params.get('geoloc_lng')) : undefined,
    status: statusLink(params, principal),
    postParent: optional<number>(params, 'post_parent'),
    include: optional<number[]>(params, 'include'),
    venue: optional<number[]>(params, 'venue'),
    organizer: optional<number[]>(params, 'organizer'),
    featured: optional<boolean>(params, 'featured'),
    categories,
    tags,
    strictDates: optional<string>(params, 'strict_dates'),
    hideSubsequentRecurrences: optional<boolean>(params, 'hide_subsequent_recurrences'),
    extra: [...geoLinkPairs(params), ...rawLinkPairs(params, SYNC_LINK_PARAMS)],
  };
  const filter: EventListFilter = {
    statuses,
    // The bounds are site-zone wall clocks: with S = UTC they compare with the UTC instants,
    // otherwise (reference behaviour) with each event's own wall clock.
    windowOnUtc: deps.siteZone === 'UTC',
    bounds: window.bounds,
    search: search === undefined ? undefined : eventSearchTerms(search),
    categoryIds: await termIds(deps, ctx, 'tribe_events_cat', categories),
    tagIds: await termIds(deps, ctx, 'post_tag', tags),
    venueIds: query.venue,
    organizerIds: query.organizer,
    featured: query.featured,
    include: query.include,
    postParent: query.postParent,
    firstOfSeries: query.hideSubsequentRecurrences === true,
    geo: geo.filter,
    modified,
    orderBy: geo.orderby,
    orderDesc: geo.orderDesc,
  };

  // The list reads `password` and `context` like the single routes, undeclared (§9).
  const unlock = { password: params.raw.password, contextEdit: params.raw.context === 'edit' };
  const editor = can(principal, 'edit_posts');
  // Everything the answer depends on: the computed filter (not the raw query, whose relative
  // dates move with the clock), the addresses, and what unlocks protected events for this caller.
  const cacheKey = [filter, query, ctx.lang, ctx.urls.ns, editor, unlock.password ?? null, unlock.contextEdit ? principal?.id : null];
  return { filter, query, unlock, editor, geo, cacheKey };
}

async function listEvents(deps: EventListDeps, ctx: RestContext, params: Params): Promise<RestResponse> {
  const principal = ctx.user;
  const { filter, query, unlock, editor, geo, cacheKey } = await resolveListRequest(deps, ctx, params);
  const page = params.get<number>('page');
  const perPage = query.perPage;
  const key = JSON.stringify([...cacheKey, page]);
  const cache = await deps.pages.open(ctx);
  const rendered = await cache.get(key, async () => {
    const parts = await deps.parts.open(ctx);
    const { rows, total, distances } = await deps.events.list(filter, page, perPage, ctx.now);
    if (page > 1 && rows.length === 0) return null;
    const totalPages = Math.ceil(total / perPage);
    const locked = (event: (typeof rows)[number]) => !isUnlocked(eventOwnership(event), principal, unlock);
    const serialized = await serializeEvents(deps.db, rows, ctx, { locked, parts });
    const events = withDistances(serialized, rows.map((row) => row.id), distances, geo, (index) => !locked(rows[index]));
    const links = listLinks((pairs) => ctx.urls.nsUrl('/events/', pairs), query, page, totalPages);
    const body = { events, ...links, total, total_pages: totalPages };
    const shown = new Set(rows.map((row) => row.id));
    const survives = (write: DescribedWrite) => write.kind === 'event' && !shown.has(write.id) && listUnaffectedBy(filter, write.columns);
    return { body: new JsonText(JSON.stringify(body), body), total, totalPages, survives };
  });
  if (rendered === null) throw new RestError(404, 'event-archive-page-not-found');
  return {
    body: rendered.body,
    headers: {
      'X-TEC-Total': String(rendered.total),
      'X-TEC-TotalPages': String(rendered.totalPages),
      Allow: editor ? 'GET, POST' : 'GET',
    },
    survives: rendered.survives,
  };
}


/** `GET {ns}/events` (10-events §4). */
export function listEndpoint(deps: EventListDeps): Endpoint {
  return {
    methods: ['GET'],
    summary: 'Lists events in a date window, with filters and pagination.',
    args: listArgs(deps, { ...geoSearchArgs(deps.geoDefaults, 'events'), ...modifiedArgs('events') }),
    handler: (ctx, params) => listEvents(deps, ctx, params),
  };
}
