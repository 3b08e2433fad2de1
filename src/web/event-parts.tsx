import { plainTextExcerpt } from '../domain/text/html-filter.ts';
import { isoWithOffset, scheduleText } from './dates.ts';
import { ResponsiveImage } from './image.tsx';
import { archiveHref } from './links.ts';
import type { EventView, LinkedView, PageEnv, TermView } from './model.ts';

export type Heading = 'h2' | 'h3' | 'h4';

/** Page-relative form of an API `url` (same origin): the edition prefix is already in it. */
export function localHref(env: PageEnv, url: string): string {
  return url.startsWith(env.site) ? env.basePath + url.slice(env.site.length) : url;
}

export function Schedule({ env, event }: { env: PageEnv; event: EventView }) {
  return (
    <p class="schedule">
      <time datetime={isoWithOffset(event.start_date, event.utc_start_date)}>{scheduleText(env.lang, event, env.today, env.siteZone)}</time>
    </p>
  );
}

export function FeaturedLabel({ env, event }: { env: PageEnv; event: EventView }) {
  return event.featured ? <span class="featured-label">{env.t('page_featured')}</span> : null;
}

/** The venue's region by the `addressRegion` rule of 20 §4.5. */
function region(venue: LinkedView): string {
  return venue.stateprovince || (venue.country === 'United States' ? venue.state : venue.province) || '';
}

export function addressParts(venue: LinkedView): string[] {
  return [venue.address, venue.city, region(venue), venue.zip, venue.country].filter((part): part is string => typeof part === 'string' && part !== '');
}

export function linkedName(record: LinkedView): string {
  const name = record.venue ?? record.organizer;
  return typeof name === 'string' ? name : '';
}

export function venueOf(event: EventView): LinkedView | undefined {
  return Array.isArray(event.venue) ? undefined : event.venue;
}

/** Category archive links by path: `/events/category/{slug}/` answers 301 to the ancestor path. */
export function TermLinks({ env, terms, taxonomy }: { env: PageEnv; terms: TermView[]; taxonomy: 'category' | 'tag' }) {
  if (terms.length === 0) return null;
  return (
    <ul class="terms">
      {terms.map((term) => (
        <li><a href={archiveHref(env, { taxonomy, path: term.slug })}>{term.name}</a></li>
      ))}
    </ul>
  );
}

/** One event in a list (55 §3.4); protected events arrive blanked, so only title and date show. */
export function EventSummary({ env, event, heading: H }: { env: PageEnv; event: EventView; heading: Heading }) {
  const venue = venueOf(event);
  const excerpt = event.excerpt !== '' ? plainTextExcerpt(event.excerpt) : plainTextExcerpt(event.description);
  return (
    <article class="event">
      <H>
        <a href={localHref(env, event.url)}>{event.title}</a>
        <FeaturedLabel env={env} event={event} />
      </H>
      <Schedule env={env} event={event} />
      {venue ? (
        <address>
          {[linkedName(venue), ...addressParts(venue)].filter((part) => part !== '').join(', ')}
        </address>
      ) : null}
      {event.image ? <ResponsiveImage image={event.image} alt="" summary /> : null}
      {excerpt !== '' ? <p>{excerpt}</p> : null}
      {event.cost !== '' ? <p class="cost">{event.cost}</p> : null}
      <TermLinks env={env} terms={event.categories} taxonomy="category" />
    </article>
  );
}
