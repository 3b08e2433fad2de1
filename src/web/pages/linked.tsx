import { addressParts, linkedName } from '../event-parts.tsx';
import { Frame } from '../frame.tsx';
import { ResponsiveImage } from '../image.tsx';
import { editionPath, query } from '../links.ts';
import type { EventModel } from '../../render/json/event-serializer.ts';
import { eventViews } from '../event-view.ts';
import type { LinkedView, PageEnv } from '../model.ts';
import { ListNavigation, MonthGroupedEvents } from './list.tsx';
import { PasswordForm } from './single.tsx';

export interface LinkedPage {
  kind: 'venue' | 'organizer';
  record: LinkedView;
  /** The image item's own alt text (110-media §9), `""` when it has none. */
  imageAlt: string;
  locked: boolean;
  wrongPassword: boolean;
  past: boolean;
  page: number;
  /** In display order. */
  events: EventModel[];
  hasNext: boolean;
  from: string;
}

function host(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The venue and organizer pages of 55 §8. */
export function LinkedPostPage({ env, page }: { env: PageEnv; page: LinkedPage }) {
  const { t } = env;
  const { record } = page;
  const name = linkedName(record);
  const path = `/${page.kind}/${record.slug}/`;
  const href = (past: boolean, n: number) => editionPath(env, path) + query([['eventDisplay', past ? 'past' : undefined], ['paged', n > 1 ? String(n) : undefined]]);
  const feed = `${env.ns}/events.ics${query([[page.kind, String(record.id)]])}`;
  const parts = page.kind === 'venue' ? addressParts(record) : [];
  const map = page.kind === 'venue' && record.show_map_link && parts.length > 0
    ? `https://www.google.com/maps/search/${query([['api', '1'], ['query', parts.join(', ')]])}`
    : undefined;
  return (
    <Frame
      env={env}
      title={name}
      canonical={path + query([['eventDisplay', page.past ? 'past' : undefined]])}
      jsonLd={!page.locked && record.json_ld ? [record.json_ld] : undefined}
      feed={page.locked ? undefined : feed}
      exportFeed={page.locked ? undefined : feed}
    >
      <h1>{name}</h1>
      {page.locked ? (
        <PasswordForm env={env} action={editionPath(env, path)} wrong={page.wrongPassword} />
      ) : (
        <>
          {parts.length > 0 ? <address>{parts.join(', ')}</address> : null}
          {record.phone ? <p>{t('page_phone')}: <a href={`tel:${record.phone.replace(/[^\d+]/g, '')}`}>{record.phone}</a></p> : null}
          {record.email ? <p>{t('page_email')}: <a href={`mailto:${record.email}`}>{record.email}</a></p> : null}
          {record.website ? <p>{t('page_website')}: <a href={record.website}>{host(record.website)}</a></p> : null}
          {map ? <p><a href={map}>{t('page_google_map')}</a></p> : null}
          {record.image ? <ResponsiveImage image={record.image} alt={page.imageAlt || name} summary={false} /> : null}
          {record.description ? <div class="description" dangerouslySetInnerHTML={{ __html: record.description }} /> : null}
          <section aria-labelledby="events-heading">
            <h2 id="events-heading">{t(page.past ? 'page_past' : 'page_upcoming')}</h2>
            {page.events.length > 0 ? (
              <MonthGroupedEvents env={env} events={eventViews(env, page.events)} from={page.past ? undefined : page.from} />
            ) : (
              <p>{t(page.past ? 'page_no_results_view' : 'page_no_upcoming')}</p>
            )}
            <ListNavigation
              env={env}
              nav={{
                previous: page.past ? (page.hasNext ? href(true, page.page + 1) : undefined) : page.page > 1 ? href(false, page.page - 1) : href(true, 1),
                next: page.past ? (page.page > 1 ? href(true, page.page - 1) : href(false, 1)) : page.hasNext ? href(false, page.page + 1) : undefined,
                today: href(false, 1),
              }}
            />
            <p><a href={href(true, 1)}>{t('page_past_events_link')}</a></p>
          </section>
        </>
      )}
    </Frame>
  );
}

