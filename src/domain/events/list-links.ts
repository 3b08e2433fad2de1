import type { DateWindowParam } from '../dates/date-window.ts';

/** What an event list request asked for, after validation and the date window (10-events §4.6). */
export interface EffectiveListQuery {
  perPage: number;
  /** The computed bounds of §4.2 (only those that apply). */
  bounds: Partial<Record<DateWindowParam, string>>;
  search?: string;
  geoloc?: boolean;
  geolocLat?: string;
  geolocLng?: string;
  /** `publish`, `any` or the given list, comma-joined. */
  status: string;
  postParent?: number;
  include?: readonly number[];
  venue?: readonly number[];
  organizer?: readonly number[];
  featured?: boolean;
  /** As given (ids, slugs or names). */
  categories?: readonly string[];
  tags?: readonly string[];
  strictDates?: string;
  /** 60 §5 extension: one occurrence per series. */
  hideSubsequentRecurrences?: boolean;
  /** Parameters of extensions, appended after the reference's own in this order (70-geo §3.3). */
  extra?: ReadonlyArray<readonly [string, string]>;
}

type Pair = [string, string];

/**
 * The query the list links repeat, without `page`, in the reference's order. ⚠ Service rule:
 * `categories`, `tags`, `featured=0` and `strict_dates` are kept too, so that following a link
 * gives the next page of the same result set.
 */
function linkQuery(query: EffectiveListQuery): Pair[] {
  const pairs: Pair[] = [['per_page', String(query.perPage)]];
  const add = (name: string, value: string | undefined) => {
    if (value !== undefined) pairs.push([name, value]);
  };
  add('start_date', query.bounds.start_date);
  add('end_date', query.bounds.end_date);
  add('search', query.search);
  if (query.geoloc) add('geoloc', '1');
  add('geoloc_lat', query.geolocLat);
  add('geoloc_lng', query.geolocLng);
  add('status', query.status);
  add('post_parent', query.postParent?.toString());
  add('include', query.include?.join(','));
  for (const param of ['starts_before', 'starts_after', 'ends_before', 'ends_after'] as const) add(param, query.bounds[param]);
  add('venue', query.venue?.join(','));
  add('organizer', query.organizer?.join(','));
  if (query.featured !== undefined) add('featured', query.featured ? '1' : '0');
  add('categories', query.categories?.join(','));
  add('tags', query.tags?.join(','));
  add('strict_dates', query.strictDates);
  if (query.hideSubsequentRecurrences !== undefined) add('hide_subsequent_recurrences', query.hideSubsequentRecurrences ? '1' : '0');
  for (const [name, value] of query.extra ?? []) add(name, value);
  return pairs;
}

export interface ListLinks {
  rest_url: string;
  next_rest_url?: string;
  previous_rest_url?: string;
}

/**
 * `rest_url` names the page first; the next/previous links drop `page` and append it last, and
 * the link to page 1 carries no `page` at all (10-events §4.6).
 */
export function listLinks(
  url: (query: Pair[]) => string,
  query: EffectiveListQuery,
  page: number,
  totalPages: number,
): ListLinks {
  const pairs = linkQuery(query);
  const links: ListLinks = { rest_url: url([['page', String(page)], ...pairs]) };
  if (page < totalPages) links.next_rest_url = url([...pairs, ['page', String(page + 1)]]);
  if (page > 1) links.previous_rest_url = url(page - 1 === 1 ? pairs : [...pairs, ['page', String(page - 1)]]);
  return links;
}
