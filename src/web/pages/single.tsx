import { plainTextExcerpt } from '../../domain/text/html-filter.ts';
import { addDays, datePart, isoWithOffset, timeText } from '../dates.ts';
import { addressParts, FeaturedLabel, linkedName, localHref, Schedule, TermLinks, venueOf } from '../event-parts.tsx';
import { Frame } from '../frame.tsx';
import { ResponsiveImage } from '../image.tsx';
import { editionPath, query } from '../links.ts';
import type { EventModel } from '../../render/json/event-serializer.ts';
import { eventViews } from '../event-view.ts';
import type { EventView, LinkedView, PageEnv } from '../model.ts';

export interface SinglePage {
  event: EventModel;
  /** Password-protected and not unlocked: title and schedule only, plus the form (§7.4). */
  locked: boolean;
  wrongPassword: boolean;
  preview: boolean;
  previous?: EventModel;
  next?: EventModel;
}

const compact = (wall: string) => wall.replace(/[-: ]/g, '').replace(/^(\d{8})(\d{6})$/, '$1T$2');

/** `dates` (and `ctz`) of the Google Calendar link (55 §7.3). */
function googleDates(event: EventView): { dates: string; ctz?: string } {
  if (event.all_day) {
    return { dates: `${compact(datePart(event.start_date))}/${compact(addDays(datePart(event.end_date), 1))}` };
  }
  if (event.timezone.includes('/')) return { dates: `${compact(event.start_date)}/${compact(event.end_date)}`, ctz: event.timezone };
  return { dates: `${compact(event.utc_start_date)}Z/${compact(event.utc_end_date)}Z` };
}

function locationText(venue: LinkedView | undefined): string | undefined {
  if (!venue) return undefined;
  const text = [linkedName(venue), ...addressParts(venue)].filter((part) => part !== '').join(', ');
  return text === '' ? undefined : text;
}

/** The description as plain text (50 B.9), cut at 1,000 characters with a pointer to the page. */
function detailsText(env: PageEnv, event: EventView): string {
  const details = plainTextExcerpt(event.description, Number.MAX_SAFE_INTEGER);
  return details.length > 1000 ? `${details.slice(0, 1000)} ${env.t('page_full_description', { url: event.url })}` : details;
}

function googleCalendarLink(env: PageEnv, event: EventView): string {
  const { dates, ctz } = googleDates(event);
  return `https://calendar.google.com/calendar/render${query([
    ['action', 'TEMPLATE'],
    ['text', event.title],
    ['dates', dates],
    ['details', detailsText(env, event)],
    ['location', locationText(venueOf(event))],
    ['ctz', ctz],
  ])}`;
}

/**
 * R's Outlook "add event" shape (55 §7.3) on Outlook 365 (`office`) or Outlook.com (`live`):
 * ISO instants with the event's offset; all-day events as dates, the end exclusive like Google's.
 */
function outlookLink(env: PageEnv, event: EventView, host: 'office' | 'live'): string {
  const allDay = event.all_day === true;
  return `https://outlook.${host}.com/owa/${query([
    ['path', '/calendar/action/compose'],
    ['rrv', 'addevent'],
    ['startdt', allDay ? datePart(event.start_date) : isoWithOffset(event.start_date, event.utc_start_date)],
    ['enddt', allDay ? addDays(datePart(event.end_date), 1) : isoWithOffset(event.end_date, event.utc_end_date)],
    ['allday', allDay ? 'true' : undefined],
    ['subject', event.title],
    ['body', detailsText(env, event)],
    ['location', locationText(venueOf(event))],
  ])}`;
}

function mapLink(venue: LinkedView): string | undefined {
  const parts = addressParts(venue);
  if (!venue.show_map_link || parts.length === 0) return undefined;
  return `https://www.google.com/maps/search/${query([['api', '1'], ['query', parts.join(', ')]])}`;
}

function host(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export function PasswordForm({ env, action, wrong }: { env: PageEnv; action: string; wrong: boolean }) {
  const { t } = env;
  return (
    <form method="post" action={action} class="password">
      {wrong ? <p role="alert" class="alert">{t('page_password_wrong')}</p> : null}
      <p>{t('page_password_intro')}</p>
      <p>
        <label for="post-password">{t('page_password_label')}</label>{' '}
        <input id="post-password" type="password" name="password" autocomplete="current-password" required />{' '}
        <button type="submit">{t('page_password_submit')}</button>
      </p>
    </form>
  );
}

function VenueBlock({ env, venue }: { env: PageEnv; venue: LinkedView }) {
  const { t } = env;
  const map = mapLink(venue);
  const parts = addressParts(venue);
  return (
    <section class="venue card" aria-labelledby="venue-heading">
      <h2 id="venue-heading">{t('page_venue')}</h2>
      <p><a href={localHref(env, venue.url)}>{linkedName(venue)}</a></p>
      {parts.length > 0 ? <address>{parts.join(', ')}</address> : null}
      {venue.phone ? <p>{t('page_phone')}: <a href={`tel:${venue.phone.replace(/[^\d+]/g, '')}`}>{venue.phone}</a></p> : null}
      {venue.website ? <p>{t('page_website')}: <a href={venue.website}>{host(venue.website)}</a></p> : null}
      {map ? <p><a href={map}>{t('page_google_map')}</a></p> : null}
    </section>
  );
}

function OrganizerBlock({ env, organizers }: { env: PageEnv; organizers: LinkedView[] }) {
  const { t } = env;
  return (
    <section class="organizers card" aria-labelledby="organizer-heading">
      <h2 id="organizer-heading">{t(organizers.length > 1 ? 'page_organizers' : 'page_organizer')}</h2>
      {organizers.map((organizer) => (
        <div class="organizer">
          <p><a href={localHref(env, organizer.url)}>{linkedName(organizer)}</a></p>
          {organizer.phone ? <p>{t('page_phone')}: <a href={`tel:${organizer.phone.replace(/[^\d+]/g, '')}`}>{organizer.phone}</a></p> : null}
          {organizer.email ? <p>{t('page_email')}: <a href={`mailto:${organizer.email}`}>{organizer.email}</a></p> : null}
          {organizer.website ? <p>{t('page_website')}: <a href={organizer.website}>{host(organizer.website)}</a></p> : null}
        </div>
      ))}
    </section>
  );
}

function Details({ env, event }: { env: PageEnv; event: EventView }) {
  const { t } = env;
  const oneDay = datePart(event.start_date) === datePart(event.end_date);
  const when = (wall: string, utc: string, text: string) => <time datetime={isoWithOffset(wall, utc)}>{text}</time>;
  const website = event.website !== '' && event.website !== event.url ? event.website : '';
  return (
    <section class="card" aria-labelledby="details-heading">
      <h2 id="details-heading">{t('page_details')}</h2>
      <dl class="details">
        {oneDay ? (
          <>
            <dt>{t('page_date_label')}</dt>
            <dd>{when(event.start_date, event.utc_start_date, datePart(event.start_date))}</dd>
            {event.all_day ? null : (
              <>
                <dt>{t('page_time')}</dt>
                <dd>
                  {when(event.start_date, event.utc_start_date, timeText(env.lang, event.start_date))} –{' '}
                  {when(event.end_date, event.utc_end_date, timeText(env.lang, event.end_date))}
                </dd>
              </>
            )}
          </>
        ) : (
          <>
            <dt>{t('page_start')}</dt>
            <dd>{when(event.start_date, event.utc_start_date, event.all_day ? datePart(event.start_date) : event.start_date.slice(0, 16))}</dd>
            <dt>{t('page_end')}</dt>
            <dd>{when(event.end_date, event.utc_end_date, event.all_day ? datePart(event.end_date) : event.end_date.slice(0, 16))}</dd>
          </>
        )}
        {event.cost !== '' ? <><dt>{t('page_cost')}</dt><dd>{event.cost}</dd></> : null}
        {event.categories.length > 0 ? <><dt>{t('page_categories')}</dt><dd><TermLinks env={env} terms={event.categories} taxonomy="category" /></dd></> : null}
        {event.tags.length > 0 ? <><dt>{t('page_tags')}</dt><dd><TermLinks env={env} terms={event.tags} taxonomy="tag" /></dd></> : null}
        {website !== '' ? <><dt>{t('page_website')}</dt><dd><a href={website}>{host(website)}</a></dd></> : null}
      </dl>
    </section>
  );
}

/** The single event page of 55 §7. */
export function SingleEventPage({ env, page }: { env: PageEnv; page: SinglePage }) {
  const { t } = env;
  const view = (model: EventModel | undefined) => (model === undefined ? undefined : eventViews(env, [model])[0]);
  const event = view(page.event)!;
  const previous = view(page.previous);
  const next = view(page.next);
  const venue = venueOf(event);
  const ics = `${env.ns}/events/${event.id}.ics`;
  const full = !page.locked;
  return (
    <Frame
      env={env}
      title={event.title}
      noindex={page.preview}
      jsonLd={full && event.json_ld ? [event.json_ld] : undefined}
      feed={full ? ics : undefined}
    >
      {page.preview ? <p class="preview">{t('page_preview')}</p> : null}
      <p><a href={editionPath(env, '/events/')}>{t('page_all_events')}</a></p>
      <h1>{event.title}<FeaturedLabel env={env} event={event} /></h1>
      <Schedule env={env} event={event} />
      {page.locked ? (
        <PasswordForm env={env} action={localHref(env, event.url)} wrong={page.wrongPassword} />
      ) : (
        <>
          {event.cost !== '' ? <p class="cost">{event.cost}</p> : null}
          {event.image ? <ResponsiveImage image={event.image} alt={page.event.image?.alt_text || event.title} summary={false} /> : null}
          <div class="description" dangerouslySetInnerHTML={{ __html: event.description }} />
          <Details env={env} event={event} />
          {venue ? <VenueBlock env={env} venue={venue} /> : null}
          {event.organizer.length > 0 ? <OrganizerBlock env={env} organizers={event.organizer} /> : null}
          <details class="menu add-to-calendar">
            <summary>{t('page_add_to_calendar')}</summary>
            <ul>
              <li><a href={googleCalendarLink(env, event)}>Google Calendar</a></li>
              <li><a href={ics} rel="nofollow">iCalendar (.ics)</a></li>
              <li><a href={outlookLink(env, event, 'office')}>Outlook 365</a></li>
              <li><a href={outlookLink(env, event, 'live')}>Outlook.com</a></li>
            </ul>
          </details>
        </>
      )}
      {previous || next ? (
        <nav aria-label={t('page_event_nav')} class="paging">
          <ul>
            {previous ? <li><a href={localHref(env, previous.url)}>« {previous.title}</a></li> : null}
            {next ? <li><a href={localHref(env, next.url)}>{next.title} »</a></li> : null}
          </ul>
        </nav>
      ) : null}
    </Frame>
  );
}
