import { datePart, isoWithOffset, longDate, scheduleText, timeText } from '../dates.ts';
import { FeaturedLabel, linkedName, localHref, Schedule, venueOf } from '../event-parts.tsx';
import { srcset } from '../image.tsx';
import type { EventView, PageEnv } from '../model.ts';

/** Narrowest source a 300 px card needs on a 1.3× screen (130 §5). */
const CARD_WIDTH = 400;

/**
 * The card image (130 §5): the smallest size at least 400 px wide (else the image itself), every
 * size of the image's aspect ratio in `srcset`; without known dimensions a 400 × 300 box the
 * stylesheet crops to.
 */
function CardImage({ event }: { event: EventView }) {
  const image = event.image;
  // No image, or a protected event (blanked): a placeholder of the same box, no request.
  if (!image) return <div class="photo-placeholder" aria-hidden="true" />;
  const sizes = Object.values(image.sizes ?? {}).sort((a, b) => a.width - b.width);
  const chosen = sizes.find((size) => size.width >= CARD_WIDTH) ?? (image.width && image.height ? { url: image.url, width: image.width, height: image.height } : undefined);
  const full = image.width && image.height ? { url: image.url, width: image.width, height: image.height } : undefined;
  return (
    <img
      src={chosen?.url ?? image.url}
      srcset={full ? srcset(full, sizes) : undefined}
      sizes="(max-width: 600px) 100vw, 300px"
      width={chosen?.width ?? 400}
      height={chosen?.height ?? 300}
      loading="lazy"
      decoding="async"
      alt=""
    />
  );
}

/** Photo view (130 §5): the list's events as cards with their featured image. */
export function PhotoCards({ env, events }: { env: PageEnv; events: EventView[] }) {
  return (
    <ul class="photos">
      {events.map((event) => {
        const venue = venueOf(event);
        const place = venue ? [linkedName(venue), venue.city ?? ''].filter((part) => part !== '').join(', ') : '';
        return (
          <li>
            <article class="card photo" data-event-id={event.id}>
              <CardImage event={event} />
              <h2><a href={localHref(env, event.url)}>{event.title}</a><FeaturedLabel env={env} event={event} /></h2>
              <Schedule env={env} event={event} />
              {place !== '' ? <p class="place">{place}</p> : null}
            </article>
          </li>
        );
      })}
    </ul>
  );
}

/** "7:30 pm – 10:00 pm", "All day", or the whole schedule of an event over several days. */
function timeRange(env: PageEnv, event: EventView): string {
  if (event.all_day) return env.t('page_all_day');
  if (datePart(event.start_date) !== datePart(event.end_date)) return scheduleText(env.lang, event, env.today, env.siteZone);
  return `${timeText(env.lang, event.start_date)} – ${timeText(env.lang, event.end_date)}`;
}

/**
 * Summary view (130 §6): the list's events grouped by day — max(start date, P's date) — one
 * line each; events that began before P are marked "Ongoing".
 */
export function SummaryDays({ env, events, from }: { env: PageEnv; events: EventView[]; from?: string }) {
  const days: Array<{ date: string; events: EventView[] }> = [];
  for (const event of events) {
    const start = datePart(event.start_date);
    const date = from !== undefined && from > start ? from : start;
    const last = days[days.length - 1];
    if (last && last.date === date) last.events.push(event);
    else days.push({ date, events: [event] });
  }
  return (
    <>
      {days.map((day) => (
        <section class="summary-day" data-date={day.date} aria-labelledby={`day-${day.date}`}>
          <h2 id={`day-${day.date}`}><time datetime={day.date}>{longDate(env.lang, day.date)}</time></h2>
          <ul class="summary">
            {day.events.map((event) => (
              <li data-event-id={event.id}>
                <time datetime={event.all_day ? datePart(event.start_date) : isoWithOffset(event.start_date, event.utc_start_date)}>{timeRange(env, event)}</time>{' '}
                {from !== undefined && datePart(event.start_date) < from ? <span class="ongoing">{env.t('page_ongoing')}</span> : null}{' '}
                <a href={localHref(env, event.url)}>{event.title}</a>
                <FeaturedLabel env={env} event={event} />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}
