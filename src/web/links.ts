import type { CalendarView } from '../config.ts';
import { EDITION_PREFIXES, type Language } from '../i18n/catalog.ts';
import type { PageEnv } from './model.ts';

export type ViewKind = CalendarView;

/** A category (`path` = ancestor slugs and its own, `/`-joined) or tag archive. */
export interface ArchiveRef {
  taxonomy: 'category' | 'tag';
  path: string;
}

/** A calendar view as its URL states it (55 §2, §3.2), with the anchor already resolved. */
export interface ViewState {
  view: ViewKind;
  archive?: ArchiveRef;
  featured: boolean;
  search?: string;
  /** `tribe-bar-date` when given and valid (list: its P; month/day: their anchor, also in the path). */
  date?: string;
  past: boolean;
  page: number;
  /** Month shown (`YYYY-MM`), day shown or week's first day (`YYYY-MM-DD`); undefined = the current one. */
  anchor?: string;
}

/** Views that select, order and page events as the list does (130 §5, §6, §7). */
export function isListLike(view: ViewKind): view is 'list' | 'photo' | 'summary' | 'map' {
  return view === 'list' || view === 'photo' || view === 'summary' || view === 'map';
}

/** `{base}{edition}` + path: root-relative, so links work behind any origin. */
export function editionPath(env: Pick<PageEnv, 'basePath' | 'lang'>, path: string, lang: Language = env.lang): string {
  return `${env.basePath}${EDITION_PREFIXES[lang]}${path}`;
}

export function query(pairs: ReadonlyArray<[string, string | undefined]>): string {
  const kept = pairs.filter((pair): pair is [string, string] => pair[1] !== undefined && pair[1] !== '');
  return kept.length === 0 ? '' : `?${kept.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`;
}

/** `/events/` with the archive, view suffix and featured segment of a state (no edition, no query). */
export function viewPath(state: Omit<ViewState, 'search' | 'date' | 'past'>): string {
  let path = '/events/';
  if (state.archive) path += `${state.archive.taxonomy}/${state.archive.path}/`;
  if (state.view === 'month') path += state.anchor ? `${state.anchor}/` : 'month/';
  else if (state.view === 'day') path += state.anchor ? `${state.anchor}/` : 'today/';
  else if (state.view === 'week') path += state.anchor ? `week/${state.anchor}/` : 'week/';
  else path += state.page > 1 ? `${state.view}/page/${state.page}/` : `${state.view}/`;
  if (state.featured) path += 'featured/';
  return path;
}

/** A view link: path plus the §3.2 parameters in effect, in their order (search, date, display). */
export function viewHref(env: PageEnv, state: ViewState): string {
  if (env.embed?.views.includes(state.view)) return env.embed.href(state);
  const listLike = isListLike(state.view);
  const display = listLike && state.past ? 'past' : undefined;
  const date = listLike ? state.date : undefined;
  return editionPath(env, viewPath(state)) + query([['tribe-bar-search', state.search], ['tribe-bar-date', date], ['eventDisplay', display]]);
}

/** The same page in another edition. */
export function inEdition(env: PageEnv, lang: Language): string {
  return editionPath(env, env.path, lang);
}

/** Term archive links are built from the term, never copied from its edition-less `url` (55 §11). */
export function archiveHref(env: PageEnv, archive: ArchiveRef): string {
  return editionPath(env, `/events/${archive.taxonomy}/${archive.path}/`);
}
