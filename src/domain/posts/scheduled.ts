import { ZERO_DATETIME } from '../dates/datetime-format.ts';

/**
 * The status a stored record has at `nowUtc`: a scheduled record is published once its date has
 * passed (40 §6.1). Evaluated when reading instead of by a background job, so every instance
 * sees the change at the same instant.
 */
export function asOfNow<T extends { status: string; date_utc: string }>(row: T, nowUtc: string): T {
  if (row.status === 'future' && row.date_utc !== ZERO_DATETIME && row.date_utc <= nowUtc) return { ...row, status: 'publish' };
  return row;
}
