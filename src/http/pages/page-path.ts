import type { CalendarView } from '../../config.ts';
import { isDate, isMonth } from '../../web/dates.ts';
import { isListLike, type ArchiveRef } from '../../web/links.ts';

/** The page a path names (55 §2), before anything is read. */
export type PageTarget =
  | { kind: 'view'; view?: CalendarView; archive?: ArchiveRef; featured: boolean; page?: number; anchor?: string; today?: boolean; ical?: boolean; feed?: boolean }
  | { kind: 'event'; slug: string; date?: string; ical?: boolean }
  | { kind: 'linked'; type: 'venue' | 'organizer'; slug: string }
  | { kind: 'redirect'; location: string; status: 301 | 302 }
  | { kind: 'plain' }
  | { kind: 'not-found' };

const VIEW_KEYWORDS = new Set(['month', 'list', 'today', 'day', 'page', 'featured', 'ical', 'feed', 'photo', 'summary', 'week', 'map']);
const NOT_FOUND: PageTarget = { kind: 'not-found' };
/** WordPress's other feed names after `feed/`: one RSS 2.0 format answers for them (130 §3). */
const FEED_ALIASES = new Set(['feed', 'rss', 'rss2', 'rdf', 'atom']);

function positive(text: string | undefined): number | undefined {
  return text !== undefined && /^[1-9]\d{0,5}$/.test(text) ? Number(text) : undefined;
}

/** The view suffix after `/events/` and an optional term path. */
function viewSuffix(segments: string[], archive: ArchiveRef | undefined): PageTarget {
  const target: Extract<PageTarget, { kind: 'view' }> = { kind: 'view', archive, featured: false };
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (segment === 'featured' && !target.featured) target.featured = true;
    else if (segment === 'ical' && i === segments.length - 1) target.ical = true;
    else if (segment === 'feed' && i === segments.length - 1 && target.view === undefined) target.feed = true;
    else if (target.view !== undefined && segment !== 'page') return NOT_FOUND;
    else if (segment === 'month') target.view = 'month';
    else if (segment === 'list' || segment === 'photo' || segment === 'summary' || segment === 'map') target.view = segment;
    else if (segment === 'week') {
      target.view = 'week';
      if (isDate(segments[i + 1] ?? '')) target.anchor = segments[++i];
    } else if (segment === 'today') {
      target.view = 'day';
      target.today = true;
    } else if (segment === 'day' && isDate(segments[i + 1] ?? '')) {
      target.view = 'day';
      target.anchor = segments[++i];
    } else if (segment === 'page' && (target.view === undefined || isListLike(target.view)) && target.page === undefined) {
      const page = positive(segments[++i]);
      if (page === undefined) return NOT_FOUND;
      target.view ??= 'list';
      target.page = page;
    } else if (isMonth(segment)) {
      target.view = 'month';
      target.anchor = segment;
    } else if (isDate(segment)) {
      target.view = 'day';
      target.anchor = segment;
    } else return NOT_FOUND;
  }
  return target;
}

/**
 * `path` is what follows `{base}{edition}`, without query, with its trailing slash checked
 * already. Unknown shapes under the page prefixes are `not-found` (an HTML 404).
 */
export function parsePagePath(path: string): PageTarget {
  const raw = path.split('/').filter((segment) => segment !== '');
  const segments = raw.map((segment) => {
    try {
      return decodeURIComponent(segment).toLowerCase();
    } catch {
      return '\u0000';
    }
  });
  const [head, ...rest] = segments;
  if (head === undefined) return { kind: 'plain' };
  if (head === 'events') {
    if (rest.length >= 2 && rest[rest.length - 2] === 'feed' && FEED_ALIASES.has(rest[rest.length - 1])) {
      return { kind: 'redirect', location: `/${raw.slice(0, -1).join('/')}/`, status: 301 };
    }
    if (rest[0] === 'category') {
      const end = rest.findIndex((segment, index) => index > 0 && (VIEW_KEYWORDS.has(segment) || isMonth(segment) || isDate(segment)));
      const termPath = rest.slice(1, end === -1 ? undefined : end);
      if (termPath.length === 0) return NOT_FOUND;
      return viewSuffix(end === -1 ? [] : rest.slice(end), { taxonomy: 'category', path: termPath.join('/') });
    }
    if (rest[0] === 'tag') {
      if (rest[1] === undefined) return NOT_FOUND;
      return viewSuffix(rest.slice(2), { taxonomy: 'tag', path: rest[1] });
    }
    return viewSuffix(rest, undefined);
  }
  // Slugs stay raw: the lookup normalises them as the API does (10 §5).
  if (head === 'event' && rest.length > 0) {
    // `/event/{slug}/`, a series occurrence's `/event/{slug}/{YYYY-MM-DD}/` (60 §2), each with `ical/`.
    const [, second, third] = rest;
    const date = second !== undefined && isDate(second) ? second : undefined;
    const ical = (date === undefined ? second : third) === 'ical';
    if (rest.length === 1 + (date === undefined ? 0 : 1) + (ical ? 1 : 0)) return { kind: 'event', slug: raw[1], date, ical };
  }
  if ((head === 'venue' || head === 'organizer') && rest.length === 1) return { kind: 'linked', type: head, slug: raw[1] };
  if (head === 'tag' && rest.length === 1) return { kind: 'redirect', location: `/events/tag/${encodeURIComponent(rest[0])}/`, status: 301 };
  return NOT_FOUND;
}

/** The §3.2 parameters, by their first accepted name. */
export interface ViewParams {
  search?: string;
  date?: string;
  display?: string;
  paged?: string;
  featured: boolean;
  category?: string;
  tag?: string;
}

function first(params: URLSearchParams, names: string[]): string | undefined {
  for (const name of names) {
    const value = params.get(name);
    if (value !== null) return value;
  }
  return undefined;
}

export function readViewParams(params: URLSearchParams): ViewParams {
  const search = first(params, ['tribe-bar-search', 's', 'search', 'tribe-events-views[tribe-bar-search]'])?.trim();
  const date = first(params, ['tribe-bar-date', 'eventDate', 'tribe-events-views[tribe-bar-date]'])?.trim();
  const featured = params.get('featured');
  return {
    search: search === '' ? undefined : search,
    date: date === '' ? undefined : date,
    display: first(params, ['eventDisplay', 'tribe_event_display', 'view']),
    paged: first(params, ['paged', 'page']),
    featured: featured === '1' || featured === 'true',
    category: params.get('tribe_events_cat') ?? undefined,
    tag: params.get('post_tag') ?? undefined,
  };
}
