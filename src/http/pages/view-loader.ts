import type { CalendarSettings } from '../../config.ts';
import { addDays, addMonths, coveredDates, datePart, isDate, isMonth, longDate, monthPart, monthTitle, weekday } from '../../web/dates.ts';
import { editionPath, isListLike, query, type ArchiveRef, type ViewState } from '../../web/links.ts';
import { feedTitle } from '../../web/feeds/rss.ts';
import type { PageEnv } from '../../web/model.ts';
import type { EventModel } from '../../render/json/event-serializer.ts';
import type { DayModel, ListModel, MonthModel, ViewFrame, ViewModel } from '../../web/pages/views.tsx';
import type { WeekModel } from '../../web/pages/week.tsx';
import type { RestContext } from '../rest/context.ts';
import type { PageData, ResolvedTerm, ViewFilters } from './page-data.ts';
import type { PageTarget, ViewParams } from './page-path.ts';

const MONTH_LIMIT = 2000;
const DAY_LIMIT = 500;

export type ViewOutcome =
  | { kind: 'model'; model: ViewModel<EventModel> }
  | { kind: 'redirect'; location: string }
  | { kind: 'not-found'; listPage?: string };

type ViewTarget = Extract<PageTarget, { kind: 'view' }>;

/** The feed query of these filters (50 B.2 takes the list's parameters). */
function feedPairs(filters: ViewFilters, term?: { taxonomy: 'category' | 'tag'; id: number }): Array<[string, string | undefined]> {
  return [
    ['search', filters.search],
    ['categories', term?.taxonomy === 'category' ? String(term.id) : undefined],
    ['tags', term?.taxonomy === 'tag' ? String(term.id) : undefined],
    ['featured', filters.featured ? '1' : undefined],
  ];
}

/** What an embed (130 §10.1) adds to a view: its own filters and list size. */
export interface EmbedSelection {
  filters?: Pick<ViewFilters, 'categoryIds' | 'tagIds' | 'venueIds' | 'organizerIds'>;
  perPage?: number;
}

export type ArchiveOutcome =
  | { kind: 'archive'; archive?: ArchiveRef; term?: ResolvedTerm & { ids: number[] } }
  | { kind: 'redirect'; location: string }
  | { kind: 'not-found' };

/** The archive (§9) a view or feed path names, by path or R's plain-permalink parameters. */
export async function resolveArchive(data: PageData, env: PageEnv, target: ViewTarget, params: ViewParams): Promise<ArchiveOutcome> {
  let archive: ArchiveRef | undefined = target.archive;
  if (!archive && params.category !== undefined) archive = { taxonomy: 'category', path: params.category };
  else if (!archive && params.tag !== undefined) archive = { taxonomy: 'tag', path: params.tag };
  if (!archive) return { kind: 'archive' };
  const term = await data.term(archive);
  if (!term) return { kind: 'not-found' };
  if (target.archive && term.path !== archive.path) {
    const prefix = `/events/category/${archive.path}/`;
    const current = env.path.split('?');
    return { kind: 'redirect', location: `/events/category/${term.path}/${current[0].slice(prefix.length)}${current[1] ? `?${current[1]}` : ''}` };
  }
  return { kind: 'archive', archive: { taxonomy: archive.taxonomy, path: term.path }, term };
}

/** The RSS feed following a view's filters (130 §8), root-relative, and its title. */
export function rssLink(env: PageEnv, archive: ArchiveRef | undefined, termName: string | undefined, featured: boolean): { href: string; title: string } {
  const path = `/events/${archive ? `${archive.taxonomy}/${archive.path}/` : ''}${featured ? 'featured/' : ''}feed/`;
  return { href: editionPath(env, path), title: feedTitle(env, termName, featured) };
}

/** What a grid (month, week) shows of [first, last]: its events, or the count per date past MONTH_LIMIT. */
interface GridEvents {
  events: EventModel[];
  dayCounts?: Record<string, number>;
  /** Nothing shown and no keyword: the next start after `end`, else (none upcoming) the latest past events. */
  nextStart?: string;
  latestPast?: EventModel[];
}

async function gridEvents(data: PageData, ctx: RestContext, filters: ViewFilters, first: string, last: string, end: string, keyword: boolean, nowWall: string): Promise<GridEvents> {
  const { events, spans } = await data.windowOrSpans(ctx, filters, data.windowBounds(first, last), MONTH_LIMIT);
  if (spans) {
    const dayCounts: Record<string, number> = {};
    for (const span of spans) {
      const covered = coveredDates(span);
      for (let day = covered.first < first ? first : covered.first; day <= covered.last && day <= last; day = addDays(day, 1)) dayCounts[day] = (dayCounts[day] ?? 0) + 1;
    }
    return { events, dayCounts };
  }
  if (events.length > 0 || keyword) return { events };
  const nextStart = await data.nextStart(ctx, filters, `${end} 23:59:59`);
  if (nextStart || (await data.hasUpcoming(ctx, filters, nowWall))) return { events, nextStart };
  return { events, latestPast: await data.latestPast(ctx, filters, datePart(nowWall)) };
}

/**
 * Builds the model of a month, list or day view (55 §4–§6, §9) from the parsed path and
 * parameters; every read goes through PageData.
 */
export async function loadView(
  data: PageData,
  settings: CalendarSettings,
  ctx: RestContext,
  env: PageEnv,
  target: ViewTarget,
  params: ViewParams,
  embed: EmbedSelection = {},
): Promise<ViewOutcome> {
  const notices: string[] = [];
  let noindex = params.search !== undefined;

  const resolved = await resolveArchive(data, env, target, params);
  if (resolved.kind !== 'archive') return resolved;
  const { archive, term } = resolved;

  const display = params.display;
  // A disabled view's path is not found; naming one in `eventDisplay` falls back on the default (130 §3).
  if (target.view !== undefined && !settings.views.includes(target.view)) return { kind: 'not-found' };
  const named = settings.views.find((enabled) => enabled === display);
  const view = target.view ?? named ?? (display === 'past' ? 'list' : settings.defaultView);
  let page = target.page ?? 1;
  if (params.paged !== undefined) {
    if (!/^[1-9]\d{0,5}$/.test(params.paged)) return { kind: 'not-found' };
    page = target.page ?? Number(params.paged);
  }

  let date: string | undefined;
  if (params.date !== undefined) {
    const valid = view === 'month' ? isMonth(params.date) || isDate(params.date) : isDate(params.date);
    if (valid) date = params.date;
    else {
      notices.push(env.t('page_invalid_date'));
      noindex = true;
    }
  }

  const featured = target.featured || params.featured;
  const filters: ViewFilters = {
    search: params.search,
    featured,
    categoryIds: term && archive?.taxonomy === 'category' ? term.ids : undefined,
    tagIds: term && archive?.taxonomy === 'tag' ? term.ids : undefined,
    ...embed.filters,
  };
  const termRef = term && archive ? { taxonomy: archive.taxonomy, id: term.id } : undefined;
  const feed = `${env.ns}/events.ics${query(feedPairs(filters, termRef))}`;
  const exportFeed = (from: string, to: string) =>
    `${env.ns}/events.ics${query([...feedPairs(filters, termRef), ['strict_dates', '1'], ['ends_after', `${from} 00:00:00`], ['starts_before', `${addDays(to, 1)} 00:00:00`]])}`;
  const frame = (state: ViewState, h1: string, from: string, to: string): ViewFrame => ({
    state,
    h1: term ? term.name : h1,
    term: term ? { name: term.name, description: term.description } : undefined,
    noindex,
    notices,
    feed,
    exportFeed: exportFeed(from, to),
    rss: rssLink(env, archive, term?.name, featured),
  });
  const base = { archive, featured, search: params.search, past: false, page: 1 };
  const nowWall = data.siteNow(ctx.now);

  if (isListLike(view)) {
    const past = display === 'past';
    const state: ViewState = { ...base, view, date, past, page };
    const from = date ?? datePart(nowWall);
    const reference = date ? `${date} 00:00:00` : nowWall;
    const perPage = embed.perPage ?? settings.listPerPage;
    const result = past
      ? await data.list(ctx, filters, { ends_before: reference }, page, perPage, true)
      : await data.list(ctx, filters, { ends_after: reference }, page, perPage);
    if (page > 1 && result.events.length === 0) return { kind: 'not-found', listPage: 'list' };
    const more = result.total > page * perPage;
    const hasPrevious = past ? more : page === 1 && (await data.rows(ctx, filters, { ends_before: reference }, 1, 1)).total > 0;
    const events = past ? [...result.events].reverse() : result.events;
    const latestPast = !past && events.length === 0 && params.search === undefined ? await data.latestPast(ctx, filters, datePart(nowWall)) : undefined;
    if (events.length === 0) noindex = true;
    const h1 = past ? env.t('page_past') : date ? env.t('page_events_from', { date: longDate(env.lang, date) }) : env.t('page_upcoming');
    const last = events.length > 0 ? datePart(events[events.length - 1].event.end_local) : from;
    const model: ListModel<EventModel> = {
      ...frame(state, h1, events.length > 0 ? datePart(events[0].event.start_local) : from, last < from ? from : last),
      noindex,
      kind: view,
      events,
      from: past ? undefined : from,
      hasPrevious,
      hasNext: past ? true : more,
      latestPast,
    };
    return { kind: 'model', model };
  }

  const extremes = await data.extremes(ctx, filters);

  if (view === 'month') {
    const month = target.anchor ?? (date ? monthPart(date) : monthPart(env.today));
    const firstOfMonth = `${month}-01`;
    const lastOfMonth = addDays(`${addMonths(month, 1)}-01`, -1);
    const firstCell = addDays(firstOfMonth, -((weekday(firstOfMonth) - settings.weekStart + 7) % 7));
    const lastCell = addDays(lastOfMonth, (settings.weekStart + 6 - weekday(lastOfMonth) + 7) % 7);
    const { events, dayCounts, nextStart, latestPast } = await gridEvents(data, ctx, filters, firstCell, lastCell, lastOfMonth, params.search !== undefined, nowWall);
    if (dayCounts) notices.push(env.t('page_month_counts', { count: MONTH_LIMIT }));
    if (events.length === 0 && !dayCounts) noindex = true;
    const model: MonthModel<EventModel> = {
      ...frame({ ...base, view: 'month', anchor: target.anchor ?? (date ? month : undefined) }, monthTitle(env.lang, month), firstCell, lastCell),
      noindex,
      kind: 'month',
      month,
      firstCell,
      lastCell,
      events,
      dayCounts,
      perDay: settings.monthEventsPerDay,
      previousMonth: extremes.first && month > monthPart(extremes.first) ? addMonths(month, -1) : undefined,
      nextMonth: extremes.last && month < monthPart(extremes.last) ? addMonths(month, 1) : undefined,
      nextEventMonth: nextStart && monthPart(nextStart),
      latestPast,
    };
    return { kind: 'model', model };
  }

  if (view === 'week') {
    const named = target.anchor ?? date;
    const day = named ?? env.today;
    const firstDay = addDays(day, -((weekday(day) - settings.weekStart + 7) % 7));
    const lastDay = addDays(firstDay, 6);
    const { events, dayCounts, nextStart, latestPast } = await gridEvents(data, ctx, filters, firstDay, lastDay, lastDay, params.search !== undefined, nowWall);
    if (dayCounts) notices.push(env.t('page_too_many', { count: MONTH_LIMIT }));
    if (events.length === 0 && !dayCounts) noindex = true;
    const model: WeekModel<EventModel> = {
      ...frame({ ...base, view: 'week', anchor: named === undefined ? undefined : firstDay }, env.t('page_week_of', { date: longDate(env.lang, firstDay) }), firstDay, lastDay),
      noindex,
      kind: 'week',
      firstDay,
      events,
      dayCounts,
      hasPrevious: extremes.first !== undefined && extremes.first < `${firstDay} 00:00:00`,
      hasNext: extremes.last !== undefined && extremes.last >= `${addDays(firstDay, 7)} 00:00:00`,
      nextEventWeek: nextStart && datePart(nextStart),
      latestPast,
    };
    return { kind: 'model', model };
  }

  const day = target.anchor ?? date ?? env.today;
  const { events, total } = await data.list(ctx, filters, data.windowBounds(day, day), 1, DAY_LIMIT);
  if (total > DAY_LIMIT) notices.push(env.t('page_too_many', { count: DAY_LIMIT }));
  let nextEventDay: string | undefined;
  if (events.length === 0) {
    noindex = true;
    const next = await data.nextStart(ctx, filters, `${day} 23:59:59`);
    if (next) nextEventDay = datePart(next);
  }
  const anchored = target.anchor !== undefined || date !== undefined;
  const model: DayModel<EventModel> = {
    ...frame({ ...base, view: 'day', anchor: anchored ? day : undefined }, env.t('page_events_for', { date: longDate(env.lang, day) }), day, day),
    noindex,
    kind: 'day',
    day,
    events,
    previousDay: extremes.first && day > datePart(extremes.first) ? addDays(day, -1) : undefined,
    nextDay: extremes.last && day < datePart(extremes.last) ? addDays(day, 1) : undefined,
    nextEventDay,
  };
  return { kind: 'model', model };
}
