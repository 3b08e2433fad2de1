import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { VNode } from 'preact';
import type { Config } from '../../config.ts';
import type { Clock } from '../../domain/dates/clock.ts';
import { formatWall } from '../../domain/dates/datetime-format.ts';
import { canReadRecord } from '../../domain/auth/record-permissions.ts';
import { ORGANIZER, ownership, VENUE } from '../../domain/linked-posts/linked-post-type.ts';
import { isUnlocked } from '../../domain/posts/password.ts';
import { normalizeSlugLookup } from '../../domain/text/slug.ts';
import type { Status } from '../../domain/status.ts';
import { EDITION_PREFIXES, LANGUAGES, type Language } from '../../i18n/catalog.ts';
import { eventOwnership, EventsService } from '../../services/events-service.ts';
import { findLinkedPostById, findLinkedPostBySlug } from '../../services/linked-posts-service.ts';
import { imagesOf } from '../../read/linked-post-models.ts';
import { ReadCache } from '../../read/read-cache.ts';
import { ObjectsRepository } from '../../storage/repositories/objects-repository.ts';
import type { LinkedRecord } from '../../storage/repositories/linked-posts-repository.ts';
import type { Storage } from '../../storage/database.ts';
import type { EventRow } from '../../storage/schema.ts';
import type { User } from '../../domain/users/user.ts';
import { datePart } from '../../web/dates.ts';
import { editionPath, query } from '../../web/links.ts';
import type { EmbedFrame, LinkedView, PageEnv } from '../../web/model.ts';
import { LinkedPostPage } from '../../web/pages/linked.tsx';
import { MessagePage } from '../../web/pages/message.tsx';
import { SingleEventPage } from '../../web/pages/single.tsx';
import { CalendarView } from '../../web/pages/views.tsx';
import { renderDocument } from '../../web/render.ts';
import { pageAssets, type PageAssets } from '../../web/page-assets.ts';
import { createContext, type RestContext } from '../rest/context.ts';
import { NAMESPACE } from '../../render/urls.ts';
import { serializeOrganizer } from '../../render/json/organizer-serializer.ts';
import { serializeVenue } from '../../render/json/venue-serializer.ts';
import { PageData } from './page-data.ts';
import { markPageAnswer } from '../plugins/request-state.ts';
import { markReplayable } from '../replay/answer-replay.ts';
import { parsePagePath, readViewParams } from './page-path.ts';
import { loadView } from './view-loader.ts';
import { loadFeed } from './feed-loader.ts';
import { Sitemaps } from './sitemap-loader.ts';
import { embedQuery, loadEmbed, readEmbedParams, type EmbedParams } from './embed-loader.ts';
import { embedContentSecurityPolicy, mapContentSecurityPolicy } from '../plugins/security.ts';
import { EMBED_FRAME_SCRIPT, EMBED_FRAME_SCRIPT_PATH } from '../../web/embed/frame-script.ts';
import { renderEmbed } from '../../web/embed/render-embed.ts';
import { EMBED_ELEMENT_PATH, embedElementScript } from '../../web/embed/element-script.ts';
import { Frame } from '../../web/frame.tsx';
import { entityTag, noneMatchHits } from '../../domain/sync/preconditions.ts';

/**
 * A page answer before headers: a body (HTML unless `type` says otherwise) with its status, or a
 * redirect. `robots` replaces the `X-Robots-Tag` that `noindex` sets.
 */
type Answer =
  | { status: number; html: string; noindex: boolean; private?: boolean; headers?: Record<string, string>; type?: string; robots?: string; maxAge?: number }
  | { status: 301 | 302; location: string };

/** The user of a live back office session the request carries (100 §4), else null. */
export type SessionUserOf = (request: FastifyRequest) => Promise<User | null>;

/** `/?post_type=…&p={id}&preview=1`: the one page that looks at who asks (55 §7.5). */
function isPreview(target: ReturnType<typeof parsePagePath>, params: URLSearchParams): boolean {
  return target.kind === 'plain' && params.has('post_type') && params.has('p') && params.get('preview') === '1';
}

export const PAGE_PREFIXES = ['/events', '/event', '/venue', '/organizer', '/tag'];
export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** robots.txt (130 §9): the API and search results stay out of indexes; the sitemap is named. */
function robotsTxt(base: string, apiPath: string, site: string): string {
  const api = Object.values(EDITION_PREFIXES).map((prefix) => `Disallow: ${apiPath}${prefix}/calendar/`);
  return ['User-agent: *', ...api, `Disallow: ${base}/*tribe-bar-search=`, `Sitemap: ${site}/sitemap.xml`, ''].join('\n');
}

function isLoopback(origin: string): boolean {
  const host = new URL(origin).hostname;
  return host === 'localhost' || host.startsWith('127.') || host === '[::1]' || host.endsWith('.localhost');
}

export interface PageRequest {
  lang: Language;
  /** After `{base}{edition}`, no query. */
  path: string;
  search: string;
  params: URLSearchParams;
  ctx: RestContext;
  env: PageEnv;
}

/**
 * The request's page environment: edition, origin, assets and a visitor's context (pages show
 * what a visitor may read, 55 §3.3; credentials only matter for previews).
 */
export function pageRequests(config: Config, data: PageData, links: PageAssets, clock: Clock) {
  const base = config.basePath;
  return (request: FastifyRequest, lang: Language, path: string, search: string): PageRequest => {
    const ctx = createContext(request, { publicUrl: config.publicUrl, basePath: base, namespace: NAMESPACE, now: clock() });
    const visitor: RestContext = { ...ctx, user: null };
    const origin = ctx.urls.origin;
    const env: PageEnv = {
      lang,
      t: ctx.t,
      site: ctx.urls.site,
      basePath: base,
      ns: ctx.urls.ns,
      path: path + search,
      siteName: config.siteName ?? new URL(origin).hostname,
      siteZone: config.timezone,
      today: datePart(data.siteNow(ctx.now)),
      publicSite: isLoopback(origin) ? null : ctx.urls.site,
      context: visitor,
      assets: links,
      partial: new URLSearchParams(search).get('partial') === '1',
      views: config.calendar.views,
      submissions: config.submissions.mode !== 'off',
    };
    return { lang, path, search, params: new URLSearchParams(search), ctx: visitor, env };
  };
}

/**
 * The public calendar (55): month, list and day views, archives, single event, venue and
 * organizer pages under `{base}` and each edition prefix. Requests go down: services load the
 * read models (the JSON and iCalendar renderers' own), src/web renders them as pure functions;
 * pages are cached per cache epoch like the API lists. When the REST index shares the page root
 * (`{api}` = `{base}`, 140 §1.3), that root is not routed here: its handler is returned for the index to hand on.
 */
export function registerPages(app: FastifyInstance, config: Config, storage: Storage, clock: Clock, sessionUserOf: SessionUserOf): RouteHandlerMethod | undefined {
  const db = storage.db;
  const events = new EventsService(db, config.timezone);
  const data = new PageData(db, events, config.timezone);
  const cache = new ReadCache<Answer>(storage, 1000, undefined, 'page');
  // A cached page is the same answer object on every hit: its tag is hashed once, not per request.
  const tags = new WeakMap<Answer, string>();
  const tagOf = (result: Answer & { html: string }): string => {
    let tag = tags.get(result);
    if (tag === undefined) tags.set(result, (tag = entityTag(result.html)));
    return tag;
  };
  const base = config.basePath;
  const mapCsp = mapContentSecurityPolicy(config.map.tileOrigin);
  const assets = pageAssets(base, config.brand, config.calendar.views.includes('map') ? config.map : null);

  const pageRequest = pageRequests(config, data, assets.links, clock);

  const html = (page: VNode) => renderDocument(page);
  const message = (req: PageRequest, status: number, title: string, text: string, link?: { href: string; label: string }): Answer => ({
    status,
    html: html(MessagePage({ env: req.env, title, text, link })),
    noindex: true,
  });
  const notFound = (req: PageRequest) => message(req, 404, req.env.t('page_not_found'), req.env.t('page_not_found_text'));

  const eventPage = async (req: PageRequest, event: EventRow, options: { password?: string; posted: boolean; preview: boolean }): Promise<Answer> => {
    const record = eventOwnership(event);
    const unlocked = isUnlocked(record, null, { password: options.password, contextEdit: false });
    const [model] = await data.models(req.ctx, [event], options.password);
    const filters = { featured: false };
    const [previous, next] = await Promise.all([
      data.list(req.ctx, filters, { starts_before: event.start_local }, 1, 1, true),
      data.list(req.ctx, filters, { starts_after: event.start_local }, 1, 1),
    ]);
    const wrong = options.posted && !unlocked;
    const answer = html(SingleEventPage({
      env: req.env,
      page: { event: model, locked: !unlocked, wrongPassword: wrong, preview: options.preview, previous: previous.events[0], next: next.events[0] },
    }));
    return { status: wrong ? 403 : 200, html: answer, noindex: options.preview, private: options.posted || options.preview };
  };

  const linkedPage = async (req: PageRequest, type: 'venue' | 'organizer', record: LinkedRecord, options: { password?: string; posted: boolean; preview: boolean }): Promise<Answer> => {
    const unlocked = isUnlocked({ ...ownership(record), password: record.password }, null, { password: options.password, contextEdit: false });
    const images = await imagesOf(db, [record]);
    const image = record.image_id === null ? undefined : images.get(record.image_id);
    const serialize = type === 'venue' ? serializeVenue : serializeOrganizer;
    // A locked record keeps its name as embedded copies do (55 §8: name only).
    const view = serialize(record, image, req.ctx, { jsonLd: true, locked: !unlocked, embedded: !unlocked }) as unknown as LinkedView;
    const past = req.params.get('eventDisplay') === 'past';
    const paged = req.params.get('paged') ?? '1';
    if (!/^[1-9]\d{0,5}$/.test(paged)) return notFound(req);
    const page = Number(paged);
    const perPage = config.calendar.listPerPage;
    const now = data.siteNow(req.ctx.now);
    const filters = { featured: false, [type === 'venue' ? 'venueIds' : 'organizerIds']: [record.id] };
    const result = unlocked
      ? await data.list(req.ctx, filters, past ? { ends_before: now } : { ends_after: now }, page, perPage, past)
      : { events: [], total: 0 };
    if (page > 1 && result.events.length === 0) return notFound(req);
    const wrong = options.posted && !unlocked;
    const answer = html(LinkedPostPage({
      env: req.env,
      page: {
        kind: type,
        record: view,
        imageAlt: image?.alt_text ?? '',
        locked: !unlocked,
        wrongPassword: wrong,
        past,
        page,
        events: past ? [...result.events].reverse() : result.events,
        hasNext: result.total > page * perPage,
        from: datePart(now),
      },
    }));
    return { status: wrong ? 403 : 200, html: answer, noindex: options.preview, private: options.posted || options.preview };
  };

  /** `/?post_type=…&p={id}` (55 §7.5); `reader`: who the preview is for (credentials or session), null = a visitor. */
  const plainLink = async (req: PageRequest, reader: User | null): Promise<Answer> => {
    const postType = req.params.get('post_type');
    const id = Number(req.params.get('p'));
    const kind = Number.isInteger(id) && id > 0 ? await new ObjectsRepository(db).kindOf(id) : undefined;
    const expected = postType === 'tribe_events' ? 'event' : postType === 'tribe_venue' ? 'venue' : postType === 'tribe_organizer' ? 'organizer' : undefined;
    if (kind === undefined || kind !== expected) return notFound(req);
    const record = kind === 'event' ? await events.find(id, req.ctx.now) : await findLinkedPostById(db, kind === 'venue' ? VENUE : ORGANIZER, id, req.ctx.now);
    if (!record) return notFound(req);
    if (record.status === 'publish') {
      return { status: 301, location: `/${kind}/${record.slug}/` };
    }
    if (req.params.get('preview') !== '1') return notFound(req);
    if (reader === null) {
      const answer = message(req, 401, req.env.t('page_preview'), req.env.t('page_not_found_text'));
      return { ...answer, private: true, headers: { 'WWW-Authenticate': 'Basic realm="calendar"' } } as Answer;
    }
    if (!canReadRecord(reader, { author: record.author, status: record.status as Status, preTrashStatus: record.pre_trash_status as Status | null })) return notFound(req);
    const options = { posted: false, preview: true };
    return kind === 'event' ? eventPage(req, record as EventRow, options) : linkedPage(req, kind, record as LinkedRecord, options);
  };

  const answer = async (req: PageRequest, request: FastifyRequest, reader: User | null): Promise<Answer> => {
    const target = parsePagePath(req.path);
    const password = request.method === 'POST' ? (request.body as Record<string, unknown> | undefined)?.password : undefined;
    const options = { password: typeof password === 'string' ? password : undefined, posted: request.method === 'POST', preview: false };
    // `?ical=1`, `?outlook-ical=1` and `…/ical/` ask for the file of 50 B.1: the feed routes write it.
    const ical = req.params.get('ical') === '1' || req.params.get('outlook-ical') === '1';
    switch (target.kind) {
      case 'not-found':
        return notFound(req);
      case 'redirect':
        return target;
      case 'plain':
        if (req.params.has('post_type') && req.params.has('p')) return plainLink(req, reader);
        return { status: 302, location: '/events/' };
      case 'event': {
        const slug = normalizeSlugLookup(target.slug);
        const id = slug.endsWith('__trashed') ? undefined : await events.findIdBySlug(slug, req.ctx.now);
        const event = id === undefined ? undefined : await events.find(id, req.ctx.now);
        if (slug.endsWith('__trashed') || event?.status === 'trash') {
          return message(req, 410, req.env.t('page_no_longer_available'), req.env.t('page_no_longer_available'));
        }
        if (!event || event.status !== 'publish') return notFound(req);
        // A series is reached through its occurrences (55 §2): the dated URL names one of them.
        const series = event.is_series_master === 1;
        if (target.date !== undefined && !series) return notFound(req);
        const occurrence = target.date !== undefined ? await data.occurrenceOn(req.ctx, event.id, target.date) : undefined;
        if (target.date !== undefined && !occurrence) return notFound(req);
        const shown = occurrence ?? event;
        if (ical || target.ical) return { status: 302, location: `${req.env.ns}/events/${shown.id}.ics` };
        if (series && !occurrence) {
          const current = await data.currentOccurrence(req.ctx, event.id);
          if (!current) return notFound(req);
          return { status: 302, location: `/event/${event.slug}/${datePart(current.start_local)}/` };
        }
        return eventPage(req, shown, options);
      }
      case 'linked': {
        const record = await findLinkedPostBySlug(db, target.type === 'venue' ? VENUE : ORGANIZER, normalizeSlugLookup(target.slug), req.ctx.now);
        if (record?.status === 'trash') return message(req, 410, req.env.t('page_not_found'), req.env.t('page_not_found_text'));
        if (!record || record.status !== 'publish') return notFound(req);
        return linkedPage(req, target.type, record, options);
      }
      case 'view': {
        if (target.feed) {
          const feed = await loadFeed(data, config.calendar, req.ctx, req.env, target, readViewParams(req.params));
          if (feed.kind === 'redirect') return { status: 301, location: feed.location };
          if (feed.kind === 'not-found') return notFound(req);
          return { status: 200, html: feed.xml, noindex: true, robots: 'noindex, follow', type: 'application/rss+xml; charset=UTF-8' };
        }
        const outcome = await loadView(data, config.calendar, req.ctx, req.env, target, readViewParams(req.params));
        if (outcome.kind === 'redirect') return { status: 301, location: outcome.location };
        if (outcome.kind === 'not-found') {
          if (outcome.listPage) {
            const first = editionPath(req.env, '/events/list/') + query([['eventDisplay', req.params.get('eventDisplay') ?? undefined]]);
            return message(req, 404, req.env.t('page_not_found'), req.env.t('page_list_page_missing'), { href: first, label: req.env.t('page_first_page') });
          }
          return notFound(req);
        }
        if (ical || target.ical) return { status: 302, location: outcome.model.exportFeed };
        // A partial answer is a fragment for the script, never a page to index.
        const page: Answer = { status: 200, html: html(CalendarView({ env: req.env, model: outcome.model })), noindex: outcome.model.noindex || req.env.partial };
        // The map page's tiles come from the tile server: its policy names that origin (130 §7.3).
        return outcome.model.kind === 'map' ? { ...page, headers: { 'Content-Security-Policy': mapCsp } } : page;
      }
    }
  };

  const send = (request: FastifyRequest, reply: FastifyReply, req: PageRequest, result: Answer, reader: User | null): FastifyReply => {
    markPageAnswer(request);
    // WordPress names its REST index on every front-end page; clients find the API through it (90 §2.1).
    reply.header('Link', `<${req.ctx.urls.origin}${config.apiPath}/>; rel="https://api.w.org/"`);
    if ('location' in result) {
      // Page paths stay in the edition; feed addresses come absolute.
      const location = result.location.startsWith('/') ? `${base}${EDITION_PREFIXES[req.lang]}${result.location}` : result.location;
      return reply.code(result.status).header('Location', location).header('Cache-Control', 'public, max-age=60').send();
    }
    reply.code(result.status).type(result.type ?? 'text/html; charset=utf-8');
    for (const [name, value] of Object.entries(result.headers ?? {})) reply.header(name, value);
    if (result.noindex) reply.header('X-Robots-Tag', result.robots ?? 'noindex');
    if (result.private) return reply.header('Cache-Control', 'private, no-store').send(request.method === 'HEAD' ? '' : result.html);
    const tag = tagOf(result);
    reply.header('Cache-Control', `public, max-age=${result.maxAge ?? 60}`).header('ETag', tag);
    if (result.status === 200 && noneMatchHits(request.headers['if-none-match'], tag)) return reply.code(304).send();
    // A visitor's page is a function of the data, the address and the minute: its repeats are
    // replayed in front of the framework, as the API's reads are (bytes encoded once, no hooks).
    if (result.status === 200 && request.method === 'GET' && reader === null) markReplayable(request.raw, req.ctx.now);
    return reply.send(request.method === 'HEAD' ? '' : result.html);
  };

  const handler = (lang: Language) => async (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url;
    const mark = url.indexOf('?');
    const fullPath = mark === -1 ? url : url.slice(0, mark);
    const search = mark === -1 ? '' : url.slice(mark);
    const prefix = base + EDITION_PREFIXES[lang];
    const path = fullPath.slice(prefix.length) || '/';
    const req = pageRequest(request, lang, path, search);
    const target = parsePagePath(path);
    // Public pages ignore the session cookie except the preview, where it stands in for the Basic prompt (100 §2).
    const reader = request.user ?? (isPreview(target, req.params) ? await sessionUserOf(request) : null);
    const postable = target.kind === 'event' || target.kind === 'linked';
    if (request.method !== 'GET' && request.method !== 'HEAD' && !(postable && request.method === 'POST')) {
      return reply.code(405).header('Allow', postable ? 'GET, HEAD, POST' : 'GET, HEAD').type('text/html; charset=utf-8').send(notFoundHtml(req));
    }
    // The router ignores trailing slashes; pages have exactly one canonical form (55 §2).
    if (!path.endsWith('/')) return reply.code(301).header('Location', `${fullPath}/${search}`).send();
    return respond(request, reply, req, () => answer(req, request, reader), reader);
  };

  /**
   * Visitors' answers come from the cache of the current epoch (a repeat runs no query); a
   * `reader`'s (a user's, by credentials or session) are neither taken from it nor put in it.
   */
  const respond = async (request: FastifyRequest, reply: FastifyReply, req: PageRequest, produce: () => Promise<Answer>, reader: User | null = request.user): Promise<FastifyReply> => {
    const cacheable = request.method !== 'POST' && reader === null;
    if (!cacheable) return send(request, reply, req, await produce(), reader);
    // The epoch is read first: anything computed after it is at least that new.
    const view = await cache.open(req.ctx);
    const minute = formatWall(req.ctx.now).slice(0, 16);
    const key = JSON.stringify([req.lang, req.env.site, req.path, req.search, minute]);
    return send(request, reply, req, await view.get(key, produce), reader);
  };
  const notFoundHtml = (req: PageRequest) => html(MessagePage({ env: req.env, title: req.env.t('page_not_found'), text: req.env.t('page_not_found_text') }));

  const sharedRoot = config.apiPath === base;
  for (const lang of LANGUAGES) {
    const prefix = base + EDITION_PREFIXES[lang];
    const root = sharedRoot && lang === 'en' ? [] : [prefix === '' ? '/' : prefix];
    const routes = [...root, ...PAGE_PREFIXES.flatMap((page) => [`${prefix}${page}`, `${prefix}${page}/*`])];
    for (const url of routes) app.route({ method: [...METHODS], url, config: { page: true }, handler: handler(lang) });
  }
  // Embed pages (130 §10.1): framed by the sites CALENDAR_EMBED_ORIGINS names, cached by their
  // recognised parameters only.
  const embedAnswer = async (req: PageRequest, params: EmbedParams | { invalid: string }): Promise<Answer> => {
    const embedFrame = (frame: Omit<EmbedFrame, 'script'>): PageEnv => ({ ...req.env, embed: { ...frame, script: base + EMBED_FRAME_SCRIPT_PATH } });
    const fallback = { views: [], prefix: editionPath(req.env, '/embed/'), fullCalendar: editionPath(req.env, '/events/'), href: () => '' };
    if (req.path !== '/embed/events/') return notFound({ ...req, env: embedFrame(fallback) });
    const invalid = (parameter: string): Answer => {
      const env = embedFrame(fallback);
      const text = env.t('rest_invalid_param', { params: parameter });
      return { status: 400, html: renderEmbed(Frame({ env, title: text, noindex: true, alert: text, children: null }), fallback.prefix), noindex: true };
    };
    if ('invalid' in params) return invalid(params.invalid);
    const outcome = await loadEmbed(data, config.calendar, req.ctx, req.env, params);
    if (outcome.kind === 'invalid') return invalid(outcome.parameter);
    if (outcome.kind === 'not-found') return notFound({ ...req, env: embedFrame(fallback) });
    const env = embedFrame(outcome.frame);
    return { status: 200, html: renderEmbed(CalendarView({ env, model: outcome.model }), outcome.frame.prefix), noindex: true };
  };
  const embedOptions = { config: { page: true, contentSecurityPolicy: embedContentSecurityPolicy(config.embedOrigins) } };
  for (const lang of LANGUAGES) {
    const prefix = base + EDITION_PREFIXES[lang];
    const embedHandler = async (request: FastifyRequest, reply: FastifyReply) => {
      const mark = request.url.indexOf('?');
      const fullPath = mark === -1 ? request.url : request.url.slice(0, mark);
      const path = fullPath.slice(prefix.length);
      if (!path.endsWith('/')) return reply.code(301).header('Location', `${fullPath}/${mark === -1 ? '' : request.url.slice(mark)}`).send();
      const params = readEmbedParams(new URLSearchParams(mark === -1 ? '' : request.url.slice(mark)));
      // The key holds the recognised parameters only: other ones cannot multiply the entries.
      const search = 'invalid' in params ? `?invalid=${params.invalid}` : embedQuery(params);
      const req = pageRequest(request, lang, path, search);
      return respond(request, reply, req, () => embedAnswer(req, params));
    };
    app.get(`${prefix}/embed`, embedOptions, embedHandler);
    app.get(`${prefix}/embed/*`, embedOptions, embedHandler);
  }
  app.get(`${base}${EMBED_FRAME_SCRIPT_PATH}`, { config: { page: true } }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(EMBED_FRAME_SCRIPT),
  );

  // `<calendar-events>` (130 §10.2): loaded by other sites, so readable by them; unversioned, so revalidated.
  const element = embedElementScript(base);
  const elementTag = entityTag(element);
  app.get(`${base}${EMBED_ELEMENT_PATH}`, { config: { page: true } }, async (request, reply) => {
    reply
      .type('text/javascript; charset=utf-8')
      .header('Cache-Control', 'public, max-age=3600')
      .header('ETag', elementTag)
      .header('Access-Control-Allow-Origin', '*')
      .header('Cross-Origin-Resource-Policy', 'cross-origin');
    reply.removeHeader('Access-Control-Allow-Credentials');
    if (noneMatchHits(request.headers['if-none-match'], elementTag)) return reply.code(304).send();
    return reply.send(element);
  });

  // Sitemaps and robots.txt (130 §9): one per site, not per edition; cached and tagged as pages.
  const sitemaps = new Sitemaps(db, config.calendar.sitemapMaxUrls, config.calendar.views);
  const xmlAnswer = (xml: string | undefined, req: PageRequest): Answer =>
    xml === undefined ? notFound(req) : { status: 200, html: xml, noindex: true, robots: 'noindex, follow', type: 'application/xml; charset=UTF-8' };
  const siteFile = (produce: (req: PageRequest) => Promise<Answer>) => async (request: FastifyRequest, reply: FastifyReply) => {
    const mark = request.url.indexOf('?');
    const path = (mark === -1 ? request.url : request.url.slice(0, mark)).slice(base.length);
    const req = pageRequest(request, 'en', path, '');
    return respond(request, reply, req, () => produce(req));
  };
  const routeOptions = { config: { page: true } };
  app.get(`${base}/sitemap.xml`, routeOptions, siteFile(async (req) => xmlAnswer(await sitemaps.index(req.env.site), req)));
  app.get(`${base}/sitemaps/:name`, routeOptions, siteFile(async (req) => xmlAnswer(await sitemaps.file(req.env.site, req.path.slice('/sitemaps/'.length)), req)));
  app.get(`${base}/wp-sitemap.xml`, routeOptions, async (_request, reply) => reply.code(301).header('Location', `${base}/sitemap.xml`).header('Cache-Control', 'public, max-age=60').send());
  app.get(`${base}/robots.txt`, routeOptions, siteFile(async (req) => ({
    status: 200,
    html: robotsTxt(base, config.apiPath, req.env.site),
    noindex: false,
    type: 'text/plain; charset=utf-8',
    maxAge: 3600,
  })));

  for (const { path, type, body } of assets.files) {
    app.get(`${base}${path.split('?')[0]}`, { config: { page: true } }, async (_request, reply) =>
      reply.type(type).header('Cache-Control', 'public, max-age=31536000, immutable').send(body),
    );
  }
  return sharedRoot ? handler('en') : undefined;
}
