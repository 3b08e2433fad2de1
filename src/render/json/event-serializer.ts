import { dateDetails } from '../../domain/dates/datetime-format.ts';
import { eventWebsite, occurrencePageUrl } from '../../domain/events/event-web.ts';
import { eventJsonLd } from '../../domain/events/json-ld.ts';
import { redactLockedEvent } from '../../domain/events/redaction.ts';
import { autop } from '../../domain/text/autop.ts';
import { costDetails, formatCost, type CurrencyPosition } from '../../domain/text/cost.ts';
import type { EventRow, MediaRow } from '../../storage/schema.ts';
import type { RenderContext } from '../context.ts';
import type { SeriesSummary } from '../../storage/repositories/series-repository.ts';
import { recurrenceLines, seriesRecurrence } from '../../domain/recurrence/series.ts';
import { imageUrl, serializeImage } from './image-serializer.ts';

/**
 * What other records make of an event's read model: its terms with their counts, its venue and
 * its organizers, in their embedded shape for the request.
 */
export interface EventParts {
  categories: Record<string, unknown>[];
  tags: Record<string, unknown>[];
  venue: Record<string, unknown> | [];
  organizer: Record<string, unknown>[];
}

interface Embedded extends EventParts {
  image: MediaRow | undefined;
  series: SeriesSummary | undefined;
}

/** The extension keys of series members (60 §5); standalone events get none. */
function seriesKeys(event: EventRow, summary: SeriesSummary | undefined, ctx: RenderContext): Record<string, unknown> {
  if (event.post_parent !== 0) {
    return { post_parent: event.post_parent, recurrence_id: event.recurrence_id, recurrence_exception: event.overridden !== null || event.recurrence_id !== event.start_local };
  }
  if (event.is_series_master !== 1) return {};
  const series = seriesRecurrence(event);
  return {
    recurrence: { rrule: series.rrule, rdate: series.rdate, exdate: series.exdate, ical: recurrenceLines(series) },
    occurrences: {
      count: summary?.count ?? 0,
      first: summary?.first ?? null,
      last: summary?.last ?? null,
      open_ended: series.rrule !== '' && !/;(COUNT|UNTIL)=/.test(`;${series.rrule}`),
      truncated: event.recurrence_truncated === 1,
      horizon: event.recurrence_horizon,
      rest_url: ctx.urls.nsUrl('/events/', [['post_parent', String(event.id)]]),
    },
  };
}

function costValues(event: EventRow): string[] {
  const parsed: unknown = JSON.parse(event.cost);
  return Array.isArray(parsed) ? parsed.map(String) : [];
}

function flag(value: number | null): boolean {
  // show_map / show_map_link read as true while never stored (§3.1).
  return value === null ? true : value === 1;
}

function serializeOne(event: EventRow, embedded: Embedded, ctx: RenderContext, jsonLd: boolean): Record<string, unknown> {
  const globalId = `${ctx.urls.globalIdPrefix}?id=${event.id}`;
  const url = occurrencePageUrl(ctx.urls.edition, event);
  const values = costValues(event);
  const position = event.currency_position as CurrencyPosition;
  const cost = formatCost(values, event.currency_symbol, position, ctx.t('cost_free'));
  const image = serializeImage(embedded.image, ctx.urls.site);
  const body: Record<string, unknown> = {
    id: event.id,
    global_id: globalId,
    global_id_lineage: [globalId],
    author: String(event.author),
    status: event.status,
    date: event.date_local,
    date_utc: event.date_utc,
    modified: event.modified_local,
    modified_utc: event.modified_utc,
    url,
    rest_url: ctx.urls.nsUrl(`/events/${event.id}`),
    title: event.title.trim(),
    description: autop(event.description),
    excerpt: autop(event.excerpt),
    slug: event.slug,
    image,
    all_day: event.all_day === 1,
    start_date: event.start_local,
    start_date_details: dateDetails(event.start_local),
    end_date: event.end_local,
    end_date_details: dateDetails(event.end_local),
    utc_start_date: event.start_utc,
    utc_start_date_details: dateDetails(event.start_utc),
    utc_end_date: event.end_utc,
    utc_end_date_details: dateDetails(event.end_utc),
    timezone: event.timezone,
    timezone_abbr: event.timezone_abbr,
    cost,
    cost_details: costDetails(values, event.currency_symbol, position),
    website: eventWebsite(event.website, url),
    show_map: flag(event.show_map),
    show_map_link: flag(event.show_map_link),
    hide_from_listings: event.hide_from_listings === 1,
    sticky: event.sticky === 1,
    featured: event.featured === 1,
    categories: embedded.categories,
    tags: embedded.tags,
    venue: embedded.venue,
    organizer: embedded.organizer,
    custom_fields: [],
    ...seriesKeys(event, embedded.series, ctx),
  };
  if (jsonLd) {
    const venue = embedded.venue;
    body.json_ld = eventJsonLd({
      ...event,
      title: body.title as string,
      imageUrl: embedded.image ? imageUrl(embedded.image, ctx.urls.site) : undefined,
      url,
      cost,
      currencySymbol: event.currency_symbol === '' ? '$' : event.currency_symbol,
      freeWord: ctx.t('cost_free'),
      location: Array.isArray(venue) ? undefined : venue.json_ld,
      organizer: embedded.organizer[0]?.json_ld,
    });
  }
  return body;
}

/**
 * What every renderer of events (JSON objects, iCalendar) is a pure function of: the stored event
 * with its image, terms, venue and organizers (already in their embedded, access-blanked shape),
 * and whether the request left it locked behind its password.
 */
export interface EventModel extends Embedded {
  event: EventRow;
  locked: boolean;
}

/**
 * Event objects (10-events §3) of loaded read models, in the reference's key order: a pure
 * function of the models (pages render from these too). A locked model is blanked and never
 * carries `json_ld`, as the API's single read gives it only to who may see the event.
 */
export function renderEventObjects(models: readonly EventModel[], ctx: RenderContext, options: { jsonLd?: boolean } = {}): Record<string, unknown>[] {
  return models.map((model) => {
    const body = serializeOne(model.event, model, ctx, options.jsonLd === true && !model.locked);
    return model.locked ? redactLockedEvent(body) : body;
  });
}
