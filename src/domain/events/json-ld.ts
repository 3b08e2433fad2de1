import { offsetString } from '../dates/time-zone.ts';
import { plainTextExcerpt } from '../text/html-filter.ts';

export interface EventJsonLdInput {
  title: string;
  /** Stored HTML. */
  excerpt: string;
  description: string;
  imageUrl?: string;
  url: string;
  start_local: string;
  end_local: string;
  start_utc: string;
  end_utc: string;
  timezone: string;
  /** The formatted `cost` of the event object. */
  cost: string;
  /** The symbol the formatted cost shows ('$' when none is stored). */
  currencySymbol: string;
  /** The edition's word for a zero price, as it appears in `cost`. */
  freeWord: string;
  /** Publication date in the site zone. */
  date_local: string;
  /** The venue's own `json_ld` (a Place) and the first organizer's (a Person), when linked. */
  location?: unknown;
  organizer?: unknown;
}

function isoWithOffset(wall: string, zone: string, utc: string): string {
  return `${wall.replace(' ', 'T')}${offsetString(zone, utc)}`;
}

/**
 * The schema.org Event of a single event read (10-events §3.10), as plain text: the reference
 * escapes the name and description for JavaScript, the service does not (⚠ §12 #7).
 */
export function eventJsonLd(input: EventJsonLdInput): Record<string, unknown> {
  const summary = input.excerpt.trim() !== ''
    ? plainTextExcerpt(input.excerpt, Number.MAX_SAFE_INTEGER)
    : plainTextExcerpt(input.description);
  const ld: Record<string, unknown> = {
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: input.title,
    description: summary,
  };
  if (input.imageUrl !== undefined) ld.image = input.imageUrl;
  ld.url = input.url;
  ld.eventAttendanceMode = 'https://schema.org/OfflineEventAttendanceMode';
  ld.eventStatus = 'https://schema.org/EventScheduled';
  ld.startDate = isoWithOffset(input.start_local, input.timezone, input.start_utc);
  ld.endDate = isoWithOffset(input.end_local, input.timezone, input.end_utc);
  if (input.location !== undefined) ld.location = input.location;
  if (input.organizer !== undefined) ld.organizer = input.organizer;
  if (input.cost !== '') {
    ld.offers = {
      '@type': 'Offer',
      price: input.cost.replaceAll(input.currencySymbol, '').replaceAll(input.freeWord, '0').trim(),
      priceCurrency: 'USD',
      url: input.url,
      category: 'primary',
      availability: 'inStock',
      validFrom: `${input.date_local.slice(0, 10)}T00:00:00+00:00`,
    };
  }
  ld.performer = 'Organization';
  return ld;
}
