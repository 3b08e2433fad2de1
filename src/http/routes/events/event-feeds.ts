import type { Kysely } from 'kysely';
import { canReadRecord } from '../../../domain/auth/record-permissions.ts';
import { RestError } from '../../../domain/errors.ts';
import { isUnlocked } from '../../../domain/posts/password.ts';
import { slugify } from '../../../domain/text/slug.ts';
import { eventOwnership, type EventsService } from '../../../services/events-service.ts';
import type { ReadCache } from '../../../read/read-cache.ts';
import type { Database, EventRow } from '../../../storage/schema.ts';
import type { ArgSpecs } from '../../../args/arg-spec.ts';
import type { RestContext } from '../../rest/context.ts';
import type { Endpoint, RestResponse, RouteDef } from '../../rest/endpoint.ts';
import { FileBody } from '../../rest/send.ts';
import { queryString } from '../../../render/urls.ts';
import type { Params } from '../../../args/validate-args.ts';
import { isPositiveInteger, rule } from '../../../args/validators.ts';
import { pageSize } from '../../../domain/reasons.ts';
import { loadEventModels } from '../../../read/event-models.ts';
import { renderCalendar, type CalendarHead } from '../../../render/ical/calendar-renderer.ts';
import { isException, type CalendarEntry } from '../../../render/ical/series-vevents.ts';
import type { Status } from '../../../domain/status.ts';
import packageJson from '../../../../package.json' with { type: 'json' };
import { contextArg, existingSlugArg, idArg, listArgs, slugLookup } from '../../../services/event-args.ts';
import { resolveListRequest, type ListRequest } from './event-list.ts';
import { modifiedArgs } from '../list-args.ts';
import type { GeoDefaults } from '../../../domain/geo/geo-input.ts';
import { geoSearchArgs } from '../geo-args.ts';
import type { EventLookups } from '../../../services/event-lookups.ts';
import { termNameOf } from '../../../services/terms-service.ts';
import { findLinkedPostById } from '../../../services/linked-posts-service.ts';
import { ORGANIZER, VENUE } from '../../../domain/linked-posts/linked-post-type.ts';
import { htmlToPlainText } from '../../../domain/text/html-filter.ts';
import { entityTag } from '../../../domain/sync/preconditions.ts';

export interface FeedDeps {
  db: Kysely<Database>;
  events: EventsService;
  lookups: EventLookups;
  siteZone: string;
  /** CALENDAR_SITE_NAME; null = the host of the public origin. */
  siteName: string | null;
  /** Rendered files, valid while the cache epoch stands (like the JSON list pages). */
  files: ReadCache<CachedFile>;
  /** Site defaults of the location search (70-geo §5), as the list has them. */
  geoDefaults: GeoDefaults;
}

export interface CachedFile {
  body: FileBody;
  total: number;
  truncated: boolean;
}

const CALENDAR_TYPE = 'text/calendar; charset=utf-8';
const LIMIT_DEFAULT = 200;
const LIMIT_MAX = 1000;
const packageVersion = packageJson.version;

function siteNameOf(deps: FeedDeps, ctx: RestContext): string {
  return deps.siteName ?? new URL(ctx.urls.origin).hostname;
}

/** ASCII-only `{site-slug}-{rest}.ics` (B.5). */
function fileName(site: string, rest: string): string {
  return `${`${slugify(site)}-${rest}`.replace(/[^a-z0-9-]/g, '')}.ics`;
}

/**
 * The headers of B.5 besides the tag: public caching for visitors without a password (an
 * authenticated answer keeps the service's private Cache-Control, set for every such response).
 */
function fileHeaders(ctx: RestContext, params: Params, name: string): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Disposition': `attachment; filename="${name}"`,
    'X-Robots-Tag': 'noindex, nofollow',
    Vary: 'Authorization',
  };
  if (ctx.user === null) headers['Cache-Control'] = params.raw.password === undefined ? 'public, max-age=300' : 'private, no-store';
  return headers;
}

/** The `webcal://` address of this feed with the same filters (what calendar apps subscribe to). */
export function subscribeUrl(ctx: RestContext, params: Params): string {
  const pairs = Object.entries(params.raw)
    .filter(([name, value]) => typeof value === 'string' && !['page', 'per_page', 'password', 'context'].includes(name) && !name.startsWith('_'))
    .map(([name, value]): [string, string] => [name, value as string]);
  return ctx.urls.nsUrl('/events.ics', pairs).replace(/^https?:/, 'webcal:');
}

/**
 * `{site} – {name}` when the feed has exactly one `categories`, `tags`, `venue` or `organizer`
 * filter naming one record (B.7), so that a subscription shows what it follows.
 */
async function calendarName(deps: FeedDeps, ctx: RestContext, query: ListRequest['query'], site: string): Promise<string> {
  const filters = [
    ['categories', query.categories], ['tags', query.tags], ['venue', query.venue], ['organizer', query.organizer],
  ].filter(([, value]) => value !== undefined) as Array<[string, readonly (string | number)[]]>;
  if (filters.length !== 1 || filters[0][1].length !== 1) return site;
  const [kind, [entry]] = filters[0];
  const name = kind === 'categories' || kind === 'tags'
    ? await termNameOf(deps.db, kind === 'categories' ? 'tribe_events_cat' : 'post_tag', entry)
    : (await findLinkedPostById(deps.db, kind === 'venue' ? VENUE : ORGANIZER, Number(entry), ctx.now))?.name;
  const plain = name === undefined ? '' : htmlToPlainText(name);
  return plain === '' ? site : `${site} – ${plain}`;
}

interface EntryOptions {
  /** Occurrences stand for their whole series (the feed without `expand`), else for themselves. */
  asSeries: boolean;
  /** Whether the request shows an occurrence; the others are excluded from their series' rule. */
  shows: (event: EventRow) => boolean;
  locked: (event: EventRow) => boolean;
}

/**
 * The entries of a file in list order (60 §7): plain events; a series master with its
 * occurrences; without `expand`, each series once where its first listed occurrence stands.
 * Masters, occurrences and their links are loaded in batches: a fixed number of queries.
 */
async function calendarEntries(deps: FeedDeps, ctx: RestContext, rows: readonly EventRow[], options: EntryOptions): Promise<CalendarEntry[]> {
  const masterOf = (event: EventRow) => (event.is_series_master === 1 ? event.id : options.asSeries ? event.post_parent : 0);
  const masterIds = [...new Set(rows.map(masterOf).filter((id) => id !== 0))];
  const { masters, occurrences } = await deps.events.seriesOf(masterIds, ctx.now);
  const masterRows = new Map(masters.map((event) => [event.id, event]));
  const members = (masterId: number) => occurrences.filter((event) => event.post_parent === masterId);
  const exceptions = masters.flatMap((master) => members(master.id).filter((event) => options.shows(event) && isException(event, master)));
  // Read models only for what is written: the rows, the masters and the exception VEVENTs.
  const unique = new Map([...rows, ...masters, ...exceptions].map((event) => [event.id, event]));
  const models = new Map((await loadEventModels(deps.db, [...unique.values()], ctx, { locked: options.locked })).map((model) => [model.event.id, model]));
  const entries: CalendarEntry[] = [];
  const written = new Set<number>();
  for (const row of rows) {
    const masterId = masterOf(row);
    const master = masterRows.get(masterId);
    if (masterId === 0 || master === undefined) {
      entries.push(models.get(row.id)!);
      continue;
    }
    if (written.has(masterId)) continue;
    written.add(masterId);
    const all = members(masterId);
    entries.push({
      master: models.get(masterId)!,
      exceptions: exceptions.filter((event) => event.post_parent === masterId).map((event) => models.get(event.id)!),
      hidden: all.filter((event) => !options.shows(event)).map((event) => event.recurrence_id ?? event.start_local),
      lastEnd: all.reduce((last, event) => (event.end_local > last ? event.end_local : last), master.end_local),
    });
  }
  return entries;
}

async function feed(deps: FeedDeps, ctx: RestContext, params: Params): Promise<RestResponse> {
  const request = await resolveListRequest(deps, ctx, params);
  const limit = Math.min(params.get<number>('limit'), LIMIT_MAX);
  const expand = params.get<boolean>('expand') === true;
  const site = siteNameOf(deps, ctx);
  const cache = await deps.files.open(ctx);
  const file = await cache.get(JSON.stringify(['feed', ...request.cacheKey, limit, site, expand]), async () => {
    const { rows, total } = await deps.events.list(request.filter, 1, limit, ctx.now);
    const { statuses, withHidden } = request.filter;
    const entries = await calendarEntries(deps, ctx, rows, {
      asSeries: !expand,
      shows: (event) => statuses.includes(event.status as Status) && (withHidden === true || event.hide_from_listings === 0),
      locked: (event) => !isUnlocked(eventOwnership(event), ctx.user, request.unlock),
    });
    const head: CalendarHead = { siteName: site, name: await calendarName(deps, ctx, request.query, site), packageVersion, siteZone: deps.siteZone };
    const rendered = renderCalendar(entries, ctx, head);
    return { body: new FileBody(rendered.text, CALENDAR_TYPE, entityTag(rendered.text)), total, truncated: rendered.emitted < entries.length || rows.length < total };
  });
  const headers = fileHeaders(ctx, params, fileName(site, 'events'));
  headers['X-TEC-Total'] = String(file.total);
  headers.Link = `<${subscribeUrl(ctx, params)}>; rel="alternate"; type="text/calendar"`;
  if (file.truncated) headers['X-Calendar-Truncated'] = '1';
  return { body: file.body, headers };
}

/** The checks of B.3 (as the JSON single read, but a protected event is served blanked). */
async function single(deps: FeedDeps, ctx: RestContext, id: number, params: Params): Promise<RestResponse> {
  const cache = await deps.files.open(ctx);
  const event = await deps.lookups.event(ctx, id);
  if (event.status === 'trash') throw new RestError(403, 'event-no-longer-available');
  const record = eventOwnership(event);
  if (!canReadRecord(ctx.user, record)) throw new RestError(403, 'event-not-accessible');
  const unlock = { password: params.raw.password, contextEdit: params.raw.context === 'edit' };
  const locked = !isUnlocked(record, ctx.user, unlock);
  const site = siteNameOf(deps, ctx);
  const file = await cache.get(JSON.stringify(['event', id, ctx.lang, ctx.urls.origin, locked, site, ctx.user?.id ?? null]), async () => {
    // A master's file is its series (60 §7): the occurrences its reader may see, each unlocked as the master is.
    const entries = await calendarEntries(deps, ctx, [event], {
      asSeries: false,
      shows: (member) => canReadRecord(ctx.user, eventOwnership(member)),
      locked: (member) => (member.id === event.id ? locked : !isUnlocked(eventOwnership(member), ctx.user, unlock)),
    });
    const head: CalendarHead = { siteName: site, name: event.title.trim() || site, packageVersion, siteZone: deps.siteZone };
    const rendered = renderCalendar(entries, ctx, head);
    return { body: new FileBody(rendered.text, CALENDAR_TYPE, entityTag(rendered.text)), total: 1, truncated: false };
  });
  return { body: file.body, headers: fileHeaders(ctx, params, fileName(site, event.slug || `event-${event.id}`)) };
}

/** The iCalendar routes of 50 B.1: the feed beside `/events`, one event by id and by slug. */
export function feedRoutes(deps: FeedDeps): RouteDef[] {
  const argDeps = { db: deps.db, events: deps.events, lookups: deps.lookups };
  const password: ArgSpecs = { password: { type: 'string', description: 'The password of a protected event.' } };
  const feedEndpoint: Endpoint = {
    methods: ['GET'],
    summary: 'The events the list would return, as one iCalendar file (text/calendar).',
    produces: 'text/calendar',
    args: {
      // The list's own filter (80 §2 included): the file holds what the list would return.
      ...listArgs(argDeps, { ...geoSearchArgs(deps.geoDefaults, 'events'), ...modifiedArgs('events') }),
      limit: { type: 'integer', default: LIMIT_DEFAULT, extension: true, description: 'The most events in the file (at most 1000).', validate: rule(isPositiveInteger, pageSize(LIMIT_MAX)) },
      expand: { type: 'boolean', extension: true, description: 'One VEVENT per occurrence of a series instead of one per series (its rule and exceptions).' },
    },
    handler: (ctx, params) => feed(deps, ctx, params),
  };
  const singleEndpoint = (args: ArgSpecs, id: (ctx: RestContext, params: Params) => Promise<number> | number): Endpoint => ({
    methods: ['GET'],
    summary: 'One event as an iCalendar file (text/calendar).',
    produces: 'text/calendar',
    args: { ...args, ...password, context: contextArg },
    handler: async (ctx, params) => single(deps, ctx, await id(ctx, params), params),
  });
  return [
    { pattern: '/events.ics', endpoints: [feedEndpoint] },
    { pattern: '/events/(?P<id>\\d+)\\.ics', endpoints: [singleEndpoint({ id: idArg }, (_ctx, params) => params.get('id'))] },
    {
      pattern: '/events/by-slug/(?P<slug>[^/]+)\\.ics',
      endpoints: [singleEndpoint({ slug: existingSlugArg(argDeps) }, async (ctx, params) => (await deps.lookups.idBySlug(ctx, slugLookup(params)))!)],
    },
  ];
}
