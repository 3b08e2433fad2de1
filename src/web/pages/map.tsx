import { datePart, isoWithOffset, scheduleText } from '../dates.ts';
import { addressParts, FeaturedLabel, linkedName, localHref, venueOf } from '../event-parts.tsx';
import { scriptJson } from '../frame.tsx';
import { query } from '../links.ts';
import type { EventView, LinkedView, PageEnv } from '../model.ts';

/** A venue the map can place, with the shown events held there, in first-appearance order. */
export interface LocatedVenue {
  venue: LinkedView;
  lat: number;
  lng: number;
  events: EventView[];
}

/** The map view's two sections (130 §7.1). */
export interface MapGroups {
  located: LocatedVenue[];
  /** Events without venue, at venues without coordinates or locked ones, and protected events. */
  unlocated: EventView[];
}

/**
 * Where a visitor may see a venue on the map: published, not password-protected (a locked copy
 * carries `null` flags and reads 0/0, 70 §2.2), with both coordinates. A protected event's venue
 * is already blanked to `[]` (10 §9), so its events never reach here.
 */
function placeOf(venue: LinkedView): { lat: number; lng: number } | undefined {
  const locked = venue.show_map_link === null;
  if (venue.status !== 'publish' || locked || typeof venue.geo_lat !== 'number' || typeof venue.geo_lng !== 'number') return undefined;
  return { lat: venue.geo_lat, lng: venue.geo_lng };
}

export function mapGroups(events: readonly EventView[]): MapGroups {
  const byVenue = new Map<number, LocatedVenue>();
  const unlocated: EventView[] = [];
  for (const event of events) {
    const venue = venueOf(event);
    const place = venue && placeOf(venue);
    if (!venue || !place) {
      unlocated.push(event);
      continue;
    }
    const group = byVenue.get(venue.id);
    if (group) group.events.push(event);
    else byVenue.set(venue.id, { venue, ...place, events: [event] });
  }
  return { located: [...byVenue.values()], unlocated };
}

function startValue(event: EventView): string {
  return event.all_day ? datePart(event.start_date) : isoWithOffset(event.start_date, event.utc_start_date);
}

function EventItem({ env, event }: { env: PageEnv; event: EventView }) {
  return (
    <li data-event-id={event.id}>
      <time datetime={startValue(event)}>{scheduleText(env.lang, event, env.today, env.siteZone)}</time>{' '}
      <a href={localHref(env, event.url)}>{event.title}</a>
      <FeaturedLabel env={env} event={event} />
    </li>
  );
}

/** The script's data (130 §7.1): the located section only, escaped as JSON-LD is. */
function mapData(env: PageEnv, located: readonly LocatedVenue[]) {
  return located.map(({ venue, lat, lng, events }) => ({
    venue_id: venue.id,
    name: linkedName(venue),
    url: localHref(env, venue.url),
    lat,
    lng,
    events: events.map((event) => ({ id: event.id, title: event.title, url: localHref(env, event.url), start: startValue(event) })),
  }));
}

/** The map's own files, linked in the head of a map page that has a venue to place (130 §7.2). */
export function MapHead({ env }: { env: PageEnv }) {
  const map = env.assets.map;
  if (!map) return null;
  return (
    <>
      <link rel="stylesheet" href={map.stylesheet} />
      {map.scripts.map((src) => <script src={src} defer />)}
    </>
  );
}

/**
 * Map view (130 §7): complete without JavaScript — the located venues with their address, a
 * plain "Show on map" link and their events, then the events the map cannot place. The script
 * un-hides `#calendar-map` and draws the same venues from `#calendar-map-data`.
 */
export function MapSections({ env, groups }: { env: PageEnv; groups: MapGroups }) {
  const { t } = env;
  const tiles = env.assets.map?.tiles;
  return (
    <>
      {groups.located.length > 0 ? (
        <section data-section="located" aria-labelledby="located-heading">
          <h2 id="located-heading">{t('page_by_location')}</h2>
          {tiles ? (
            <div
              id="calendar-map"
              hidden
              role="region"
              aria-label={t('page_map_region')}
              data-tiles={tiles.url}
              data-attribution={tiles.attribution}
              data-attribution-url={tiles.attributionUrl ?? undefined}
            />
          ) : null}
          {groups.located.map(({ venue, lat, lng, events }) => {
            const address = addressParts(venue);
            return (
              <article class="card map-venue" data-venue-id={venue.id}>
                <h3><a href={localHref(env, venue.url)}>{linkedName(venue)}</a></h3>
                {address.length > 0 ? <address>{address.join(', ')}</address> : null}
                <p><a href={`https://www.google.com/maps/search/${query([['api', '1'], ['query', `${lat},${lng}`]])}`}>{t('page_show_on_map')}</a></p>
                <ul class="map-events">
                  {events.map((event) => <EventItem env={env} event={event} />)}
                </ul>
              </article>
            );
          })}
          <script type="application/json" id="calendar-map-data" dangerouslySetInnerHTML={{ __html: scriptJson(mapData(env, groups.located)) }} />
        </section>
      ) : null}
      {groups.unlocated.length > 0 ? (
        <section data-section="no-location" aria-labelledby="no-location-heading">
          <h2 id="no-location-heading">{t('page_no_location')}</h2>
          <ul class="map-events">
            {groups.unlocated.map((event) => <EventItem env={env} event={event} />)}
          </ul>
        </section>
      ) : null}
    </>
  );
}
