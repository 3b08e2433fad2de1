import type { CalendarSettings } from '../../config.ts';
import { isDate, isMonth } from '../../web/dates.ts';
import { editionPath, query, viewPath, type ArchiveRef, type ViewKind, type ViewState } from '../../web/links.ts';
import type { EmbedFrame, PageEnv } from '../../web/model.ts';
import type { ViewModel } from '../../web/pages/views.tsx';
import type { EventModel } from '../../render/json/event-serializer.ts';
import type { RestContext } from '../rest/context.ts';
import type { PageData } from './page-data.ts';
import { loadView, type EmbedSelection } from './view-loader.ts';

/** The views an embed shows (130 §10.1) that this service has. */
export const EMBED_VIEWS: readonly ViewKind[] = ['list', 'month', 'week'];
const DEFAULT_PER_PAGE = 5;

export type EmbedOutcome =
  | { kind: 'model'; model: ViewModel<EventModel>; frame: Omit<EmbedFrame, 'script'> }
  | { kind: 'invalid'; parameter: string }
  | { kind: 'not-found' };

/** The recognised parameters of an embed address, in their order: the cache key and its links. */
export interface EmbedParams {
  view: 'list' | 'month' | 'week';
  categories?: string;
  tags?: string;
  venue?: string;
  organizer?: string;
  featured: boolean;
  perPage: number;
  date?: string;
  page: number;
  past: boolean;
}

const POSITIVE = /^[1-9]\d{0,8}$/;

/** The embed parameters of a query, or the first one with a bad value. */
export function readEmbedParams(params: URLSearchParams): EmbedParams | { invalid: string } {
  const view = params.get('view') ?? 'list';
  if (view !== 'list' && view !== 'month' && view !== 'week') return { invalid: 'view' };
  const list = (name: string) => {
    const value = params.get(name)?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  for (const name of ['venue', 'organizer']) if (list(name) !== undefined && !POSITIVE.test(list(name)!)) return { invalid: name };
  const featured = params.get('featured');
  if (featured !== null && !['1', 'true', '0', 'false', ''].includes(featured)) return { invalid: 'featured' };
  const perPage = params.get('per_page');
  if (perPage !== null && (!POSITIVE.test(perPage) || Number(perPage) > 50)) return { invalid: 'per_page' };
  const date = list('tribe-bar-date');
  if (date !== undefined && !(isDate(date) || (view === 'month' && isMonth(date)))) return { invalid: 'tribe-bar-date' };
  const page = params.get('page');
  if (page !== null && !POSITIVE.test(page)) return { invalid: 'page' };
  return {
    view,
    categories: list('categories'),
    tags: list('tags'),
    venue: list('venue'),
    organizer: list('organizer'),
    featured: featured === '1' || featured === 'true',
    perPage: perPage === null ? DEFAULT_PER_PAGE : Number(perPage),
    date,
    page: page === null ? 1 : Number(page),
    past: view === 'list' && params.get('eventDisplay') === 'past',
  };
}

/** `?view=…&categories=…`: the embed address of these parameters (defaults left out). */
export function embedQuery(params: EmbedParams): string {
  return query([
    ['view', params.view],
    ['categories', params.categories],
    ['tags', params.tags],
    ['venue', params.venue],
    ['organizer', params.organizer],
    ['featured', params.featured ? '1' : undefined],
    ['per_page', params.view === 'list' && params.perPage !== DEFAULT_PER_PAGE ? String(params.perPage) : undefined],
    ['tribe-bar-date', params.date],
    ['page', params.page > 1 ? String(params.page) : undefined],
    ['eventDisplay', params.past ? 'past' : undefined],
  ]);
}

/**
 * An embed's view (130 §10.1): the list, month or week view exactly as its page, narrowed by the
 * embed's filters, with links that keep the embed's parameters.
 */
export async function loadEmbed(data: PageData, settings: CalendarSettings, ctx: RestContext, env: PageEnv, params: EmbedParams): Promise<EmbedOutcome> {
  const terms = async (taxonomy: ArchiveRef['taxonomy'], entries: string | undefined) => {
    if (entries === undefined) return { ids: undefined, single: undefined };
    const found = await Promise.all(entries.split(',').map((entry) => data.termEntry(taxonomy, entry.trim().toLowerCase(), ctx.now)));
    if (found.some((term) => term === undefined)) return undefined;
    return { ids: [...new Set(found.flatMap((term) => term!.ids))], single: found.length === 1 ? found[0] : undefined };
  };
  const [categories, tags] = await Promise.all([terms('category', params.categories), terms('tag', params.tags)]);
  if (!categories) return { kind: 'invalid', parameter: 'categories' };
  if (!tags) return { kind: 'invalid', parameter: 'tags' };
  const selection: EmbedSelection = {
    perPage: params.perPage,
    filters: {
      categoryIds: categories.ids,
      tagIds: tags.ids,
      venueIds: params.venue === undefined ? undefined : [Number(params.venue)],
      organizerIds: params.organizer === undefined ? undefined : [Number(params.organizer)],
    },
  };
  // The month and week embeds name their month or any day of their week as the page path does.
  const anchor = params.view === 'month' ? params.date?.slice(0, 7) : params.view === 'week' ? params.date : undefined;
  const outcome = await loadView(
    data,
    settings,
    ctx,
    env,
    { kind: 'view', view: params.view, featured: params.featured, page: params.page, anchor },
    { featured: params.featured, date: params.view === 'list' ? params.date : undefined, display: params.past ? 'past' : undefined },
    selection,
  );
  if (outcome.kind !== 'model') return { kind: 'not-found' };
  // A single category or tag: the full calendar is its archive.
  const single = categories.single ?? (categories.ids === undefined ? tags.single : undefined);
  const archive: ArchiveRef | undefined = single && { taxonomy: categories.single ? 'category' : 'tag', path: single.path };
  const prefix = editionPath(env, '/embed/events/');
  const frame = {
    views: EMBED_VIEWS,
    prefix,
    fullCalendar: editionPath(env, viewPath({ view: params.view, archive, featured: params.featured, page: 1 })),
    href: (state: ViewState) =>
      prefix +
      embedQuery({
        ...params,
        view: state.view === 'month' || state.view === 'week' ? state.view : 'list',
        date: state.view === 'month' || state.view === 'week' ? state.anchor : state.date,
        page: state.page,
        past: state.view === 'list' && state.past,
      }),
  };
  return { kind: 'model', model: outcome.model, frame };
}
