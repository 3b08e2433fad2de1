/**
 * What a list shows of a password-protected event the caller has not unlocked (10-events §9):
 * content members are blanked in place (key order kept); title, dates, zone, slug, status,
 * links, ids and author stay visible.
 */
const BLANKED: Record<string, () => unknown> = {
  description: () => '',
  excerpt: () => '',
  image: () => false,
  all_day: () => null,
  cost: () => '',
  // The reference builds this object anew, in this key order.
  cost_details: () => ({ currency_symbol: '', currency_position: '', currency_code: '', values: [] }),
  website: () => '',
  show_map: () => null,
  show_map_link: () => null,
  hide_from_listings: () => null,
  sticky: () => null,
  featured: () => null,
  categories: () => [],
  tags: () => [],
  venue: () => [],
  organizer: () => [],
  custom_fields: () => [],
};

export function redactLockedEvent(event: Record<string, unknown>): Record<string, unknown> {
  const redacted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(event)) redacted[key] = key in BLANKED ? BLANKED[key]() : value;
  return redacted;
}
