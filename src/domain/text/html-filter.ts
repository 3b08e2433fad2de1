import sanitizeHtml from 'sanitize-html';
import { decodeEntities, escapeSpecialChars } from './entities.ts';
import { phpTrim, stripAllTagsAndScripts } from './strip-tags.ts';

// The exact set the reference allows is unverified (40 §9); this is a
// conservative subset of WordPress's post allow-list.
const RICH_HTML: sanitizeHtml.IOptions = {
  allowedTags: [
    'a', 'b', 'strong', 'i', 'em', 'u', 'p', 'br', 'ul', 'ol', 'li',
    'blockquote', 'code', 'pre', 'h2', 'h3', 'h4', 'h5', 'h6', 'span',
  ],
  allowedAttributes: { a: ['href', 'title'] },
  // WordPress's wp_allowed_protocols(); relative links stay allowed.
  allowedSchemes: [
    'http', 'https', 'ftp', 'ftps', 'mailto', 'news', 'irc', 'irc6', 'ircs', 'gopher', 'nntp',
    'feed', 'telnet', 'mms', 'rtsp', 'sms', 'svn', 'tel', 'fax', 'xmpp', 'webcal', 'urn',
  ],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: true,
  // Tags outside the list lose only their markup, except these, whose text is
  // code or form data rather than prose.
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'template'],
};

/** Name/description/excerpt HTML from authors and contributors (no unfiltered_html). */
export function filterRichHtml(html: string): string {
  return sanitizeHtml(html, RICH_HTML);
}

/**
 * WordPress sanitize_text_field(), applied to venue/organizer meta fields
 * (address, phone, e-mail, website, …) for every role.
 */
export function stripAllTags(text: string): string {
  let filtered = text;
  if (filtered.includes('<')) {
    filtered = stripAllTagsAndScripts(escapeLoneLessThan(filtered))
      // Stops the newline collapsing below from joining "<" and a word into a tag.
      .replaceAll('<\n', '&lt;\n');
  }
  filtered = phpTrim(filtered.replace(/[\r\n\t ]+/g, ' '));
  let removedEscape = false;
  // Removing one escape can join its neighbours into a new one (`%%4141`).
  for (let match = /%[a-f0-9]{2}/i.exec(filtered); match; match = /%[a-f0-9]{2}/i.exec(filtered)) {
    filtered = filtered.replaceAll(match[0], '');
    removedEscape = true;
  }
  return removedEscape ? phpTrim(filtered.replace(/ +/g, ' ')) : filtered;
}

// wp_pre_kses_less_than(): a "<" that never closes is text, not a tag opening
// that would swallow the rest of the field.
function escapeLoneLessThan(text: string): string {
  return text.replace(/<[^>]*?(?:(?=<)|>|$)/g, (piece) => (piece.includes('>') ? piece : escapeSpecialChars(piece, true)));
}

/** Category/tag name as WordPress stores it (30 §1.6 step 2). */
export function sanitizeTermName(name: string): string {
  return escapeSpecialChars(stripAllTags(name), false);
}

/** The stored event website as the reference outputs it (10 §3.8). */
export function escapeHtmlAttr(url: string): string {
  return escapeSpecialChars(url, true);
}

// Block boundaries separate words in plain text; inline tags do not.
const BLOCK_BOUNDARY = /<br\b[^>]*>|<\/?(?:p|div|li|ul|ol|h[1-6]|blockquote|pre|table|tr|td|th|section|article|header|footer)\b[^>]*>/gi;

/** The description text of json_ld: plain, at most `words` words, "…" when cut. */
export function plainTextExcerpt(html: string, words = 55): string {
  const text = decodeEntities(stripAllTagsAndScripts(html.replace(BLOCK_BOUNDARY, ' ')));
  const all = text.split(/\s+/).filter((word) => word !== '');
  return all.length > words ? `${all.slice(0, words).join(' ')}…` : all.join(' ');
}

/**
 * Stored HTML as plain text (iCalendar DESCRIPTION, 50 B.9): block ends and breaks become line
 * ends, tags go, entities are decoded, runs of blanks collapse, and the ends are trimmed.
 */
export function htmlToPlainText(html: string): string {
  const text = decodeEntities(stripAllTagsAndScripts(html.replace(BLOCK_BOUNDARY, '\n')));
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
