import type { Status } from '../status.ts';

/** What decides whether a post is in a caller's lists, read from its current row (scheduled posts already as of now). */
export interface ListedFacts {
  status: Status | string;
  hidden: boolean;
  isSeriesMaster: boolean;
}

/**
 * Whether a post as it stands now is visible in the sense of 80 §3.4 — in the caller's list of
 * its type: every status but trash for callers with `edit_posts`, published only for the others,
 * never a `hide_from_listings` event or a series master (unless `unlisted`: the feed's
 * `include=hidden`, for callers who may edit events). The change log evaluates the same rule
 * in SQL on the before and after columns of its entries (changes-repository `visibleAs`).
 */
export function listedFor(facts: ListedFacts, seesUnpublished: boolean, unlisted = false): boolean {
  if (!unlisted && (facts.hidden || facts.isSeriesMaster)) return false;
  return seesUnpublished ? facts.status !== 'trash' : facts.status === 'publish';
}
