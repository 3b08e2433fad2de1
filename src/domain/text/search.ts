import { phpTrim } from './strip-tags.ts';

// Search-string parsing for event lists (WordPress WP_Query::parse_search,
// 10 §4.3) and for venue/organizer lists (20 §5.4).

export interface SearchTerms {
  /** Each must match at least one searched field. */
  include: string[];
  /** None may match any searched field. */
  exclude: string[];
}

const STOP_WORDS = new Set([
  'about', 'an', 'are', 'as', 'at', 'be', 'by', 'com', 'for', 'from', 'how', 'in', 'is', 'it',
  'of', 'on', 'or', 'that', 'the', 'this', 'to', 'was', 'what', 'when', 'where', 'who', 'will',
  'with', 'www',
]);

// A double-quoted phrase (to the closing quote or the end), or a run of
// characters other than tab, space, `"`, `,` and `+`.
const TERM = /".*?(?:"|$)|(?:(?<=[\t ",+])|^)[^\t ",+]+/g;

const MAX_TERMS = 9;

export function eventSearchTerms(search: string): SearchTerms {
  const text = search.replace(/[\r\n]/g, '');
  const terms: SearchTerms = { include: [], exclude: [] };
  if (text === '') return terms;
  const words = keptWords(text.match(TERM) ?? []);
  // Only stop words, or so many words that the query is probably a sentence:
  // WordPress then looks for the whole string.
  const chosen = words.length === 0 || words.length > MAX_TERMS ? [text] : words;
  for (const term of chosen) {
    // The exclusion check runs after quote trimming, so `"-foo bar"` excludes too.
    if (term.startsWith('-')) terms.exclude.push(term.slice(1));
    else terms.include.push(term);
  }
  return terms;
}

function keptWords(matches: readonly string[]): string[] {
  const kept: string[] = [];
  for (const match of matches) {
    // A phrase keeps its inner spaces; a bare word loses stray quotes.
    const term = /^".+"$/.test(match) ? phpTrim(match, `"'`) : phpTrim(match, `"' `);
    if (term === '' || /^[a-z-]$/i.test(term)) continue;
    if (STOP_WORDS.has(term.toLowerCase())) continue;
    kept.push(term);
  }
  return kept;
}

/**
 * More distinct pieces than any real search has; every piece is one SQL
 * condition per field, and a statement that large is refused by the database.
 */
const MAX_VENUE_PIECES = 100;

/**
 * Pieces that must all occur in one venue/organizer field. An empty list
 * means the search can match nothing (so does an absurdly long one).
 */
export function venueSearchPieces(search: string): string[] {
  const pieces = [...new Set(search.split(/[^A-Za-z0-9-]+/).filter((piece) => piece !== ''))];
  return pieces.length > MAX_VENUE_PIECES ? [] : pieces;
}

/** Escapes `\`, `%` and `_` for `LIKE … ESCAPE '\'`. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}
