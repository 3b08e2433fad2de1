import { escapeHtmlAttr } from '../text/html-filter.ts';

/**
 * The event's public page (10-events §3.8): a pretty link for statuses that have a settled slug,
 * the query form otherwise (drafts, pending and scheduled events may have no slug yet).
 */
export function eventPageUrl(edition: string, event: { id: number; status: string; slug: string }): string {
  if (event.status === 'publish' || event.status === 'private' || event.status === 'trash') {
    return `${edition}/event/${event.slug}/`;
  }
  return eventQueryUrl(edition, event.id);
}

/** The query form of an event's page (55 §2), which every status answers (§7.5: with `&preview=1`, the preview). */
export function eventQueryUrl(edition: string, id: number): string {
  return `${edition}/?post_type=tribe_events&p=${id}`;
}

/** The page of an event as its `url` reads: Pro's date-suffixed form for an occurrence (60 §2). */
export function occurrencePageUrl(edition: string, event: { id: number; status: string; slug: string; post_parent: number; start_local: string }): string {
  const url = eventPageUrl(edition, event);
  return event.post_parent !== 0 && url.endsWith(`/event/${event.slug}/`) ? `${url}${event.start_local.slice(0, 10)}/` : url;
}

/** `website` as read (10-events §3.8): never stored → the page url; stored → HTML-escaped. */
export function eventWebsite(stored: string | null, pageUrl: string): string {
  return stored === null ? pageUrl : escapeHtmlAttr(stored);
}

// WordPress's wp_allowed_protocols(): a website with another scheme (javascript:, data:) could
// run code in the clients that render it as a link.
export const WEBSITE_SCHEMES = new Set([
  'http', 'https', 'ftp', 'ftps', 'mailto', 'news', 'irc', 'irc6', 'ircs', 'gopher', 'nntp', 'feed',
  'telnet', 'mms', 'rtsp', 'sms', 'svn', 'tel', 'fax', 'xmpp', 'webcal', 'urn',
]);
const NEEDS_HOST = new Set(['http', 'https', 'ftp', 'ftps']);

/** The `website` input check (10-events §6.1): an absolute URL with a scheme (PHP FILTER_VALIDATE_URL). */
export function isValidWebsite(value: string): boolean {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined || !WEBSITE_SCHEMES.has(scheme) || /\s/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return !NEEDS_HOST.has(scheme) || (value.slice(scheme.length + 1).startsWith('//') && url.hostname !== '');
}

/** esc_url_raw(): characters that cannot appear in a URL are dropped before storage. */
export function cleanWebsite(value: string): string {
  return value.trim().replace(/[^a-z0-9\-~+_.?#=!&;,/:%@$|*'()[\]\u0080-\uffff]/gi, '');
}

/** An image given by address (10-events §6.5): an absolute http(s) URL. */
export function isAbsoluteHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
