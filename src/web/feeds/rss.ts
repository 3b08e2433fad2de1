import { plainTextExcerpt } from '../../domain/text/html-filter.ts';
import { EDITION_PREFIXES, type Language } from '../../i18n/catalog.ts';
import { isoWithOffset, scheduleText } from '../dates.ts';
import { addressParts, linkedName, venueOf } from '../event-parts.tsx';
import type { EventView, ImageView, PageEnv } from '../model.ts';
import { utcInstant, XML_DECLARATION, xmlElement } from './xml.ts';

/** The channel of one feed (130 §8.2): which page it follows and where it lives, both absolute. */
export interface FeedChannel {
  title: string;
  link: string;
  self: string;
}

/** An event of the feed: its API object for a visitor and whether its password left it locked. */
export interface FeedItem {
  event: EventView;
  locked: boolean;
}

const CHANNEL_LANGUAGE: Record<Language, string> = { en: 'en-us', da: 'da-dk', it: 'it-it', es: 'es-es' };
const MIME_BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', avif: 'image/avif', svg: 'image/svg+xml',
};

/** "{Events|term name|Featured} – {site name}": the channel title, also the pages' `alternate` link title. */
export function feedTitle(env: PageEnv, termName: string | undefined, featured: boolean): string {
  return `${termName ?? env.t(featured ? 'page_featured' : 'page_events')} – ${env.siteName}`;
}

/** RFC 822 with a four-digit year and `+0000`. */
function rfc822(utc: string): string {
  return utcInstant(utc).toUTCString().replace(/GMT$/, '+0000');
}

/** ISO 8601 with offset; a date alone for all-day events. */
function eventDate(event: EventView, wall: string, utc: string): string {
  return event.all_day ? wall.slice(0, 10) : isoWithOffset(wall, utc);
}

function media(image: ImageView): string {
  const large = image.sizes?.large;
  const chosen = large ?? image;
  // A GIF's sizes are PNG (110 §4.3): the size's own type wins over the original's extension.
  const type = large?.['mime-type'] ?? (image.extension ? MIME_BY_EXTENSION[image.extension.toLowerCase()] : undefined);
  return xmlElement('media:content', { url: chosen.url, medium: 'image', type, width: chosen.width, height: chosen.height });
}

function archiveUrl(env: PageEnv, taxonomy: 'category' | 'tag', slug: string): string {
  return `${env.site}${EDITION_PREFIXES[env.lang]}/events/${taxonomy}/${slug}/`;
}

function item(env: PageEnv, { event, locked }: FeedItem): string {
  const schedule = scheduleText(env.lang, event, env.today, env.siteZone);
  const venue = locked ? undefined : venueOf(event);
  const location = venue ? [linkedName(venue), ...addressParts(venue)].filter((part) => part !== '').join(', ') : '';
  const parts = [
    xmlElement('title', {}, event.title),
    xmlElement('link', {}, event.url),
    xmlElement('guid', { isPermaLink: 'false' }, event.global_id),
    xmlElement('pubDate', {}, rfc822(event.date_utc)),
  ];
  if (locked) {
    parts.push(xmlElement('description', {}, schedule));
  } else {
    const excerpt = plainTextExcerpt(event.excerpt !== '' ? event.excerpt : event.description);
    const heading = location === '' ? schedule : `${schedule} · ${location}`;
    parts.push(xmlElement('description', {}, excerpt === '' ? heading : `${heading}\n\n${excerpt}`));
    for (const term of event.categories) parts.push(xmlElement('category', { domain: archiveUrl(env, 'category', term.slug) }, term.name));
    for (const term of event.tags) parts.push(xmlElement('category', { domain: archiveUrl(env, 'tag', term.slug) }, term.name));
    if (event.image) parts.push(media(event.image));
  }
  parts.push(xmlElement('ev:startdate', {}, eventDate(event, event.start_date, event.utc_start_date)));
  parts.push(xmlElement('ev:enddate', {}, eventDate(event, event.end_date, event.utc_end_date)));
  if (location !== '') parts.push(xmlElement('ev:location', {}, location));
  return `<item>${parts.join('')}</item>`;
}

/**
 * An RSS 2.0 document (130 §8.2), a pure function of the events: `lastBuildDate` comes from the
 * items' last change, so the bytes (and the ETag) change only with the data.
 */
export function renderRss(env: PageEnv, channel: FeedChannel, items: readonly FeedItem[]): string {
  const newest = items.reduce<string | undefined>((latest, { event }) => (latest === undefined || event.modified_utc > latest ? event.modified_utc : latest), undefined);
  const head = [
    xmlElement('title', {}, channel.title),
    xmlElement('link', {}, channel.link),
    xmlElement('description', {}, env.t('feed_description', { site: env.siteName })),
    xmlElement('language', {}, CHANNEL_LANGUAGE[env.lang]),
    newest === undefined ? '' : xmlElement('lastBuildDate', {}, rfc822(newest)),
    xmlElement('atom:link', { rel: 'self', type: 'application/rss+xml', href: channel.self }),
  ];
  return (
    XML_DECLARATION +
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/" xmlns:ev="http://purl.org/rss/1.0/modules/event/">' +
    `<channel>${head.join('')}${items.map((entry) => item(env, entry)).join('')}</channel></rss>\n`
  );
}
