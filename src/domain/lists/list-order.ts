/**
 * The sort parameters of the event, venue and organizer lists (70-geo §3.2, 80 §2). Unknown
 * values are ignored, not refused: `undefined` means "not sent" to the list that reads them.
 */
export const SORT_KEYS = ['start', 'date', 'modified', 'distance'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export interface ListOrder {
  orderby?: SortKey;
  /** `order=desc` reverses the whole order, ties included; `undefined` when no known order was sent. */
  desc?: boolean;
}

export function readListOrder(orderby: unknown, order: unknown): ListOrder {
  const key = typeof orderby === 'string' ? orderby.toLowerCase() : undefined;
  const direction = typeof order === 'string' ? order.toLowerCase() : undefined;
  return {
    orderby: SORT_KEYS.find((known) => known === key),
    desc: direction === 'desc' ? true : direction === 'asc' ? false : undefined,
  };
}
