import { parseInstant } from '../dates/date-input.ts';

/** The modification-time filter of the lists (80 §2). */
export const MODIFIED_PARAMS = ['modified_after', 'modified_before'] as const;
export type ModifiedParam = (typeof MODIFIED_PARAMS)[number];

/** UTC `YYYY-MM-DD HH:MM:SS` instants: `modified_utc ≥ after`, `modified_utc < before`; absent = no condition. */
export interface ModifiedBounds {
  after?: string;
  before?: string;
}

/**
 * Reads both bounds as instants like `date_utc` (10 §2.1: UTC unless an offset is written,
 * timestamps honoured), or names the parameters that are not date-time inputs.
 */
export function readModifiedBounds(raw: Readonly<Record<string, unknown>>, now: Date): ModifiedBounds | { invalid: ModifiedParam[] } {
  const bounds: ModifiedBounds = {};
  const invalid: ModifiedParam[] = [];
  for (const param of MODIFIED_PARAMS) {
    if (raw[param] === undefined) continue;
    const instant = parseInstant(raw[param], 'UTC', now);
    if (instant === null) invalid.push(param);
    else bounds[param === 'modified_after' ? 'after' : 'before'] = instant;
  }
  return invalid.length > 0 ? { invalid } : bounds;
}

/** Whether a list request filters by modification time, which drops the default date window of events (80 §2). */
export function hasModifiedBound(bounds: ModifiedBounds): boolean {
  return bounds.after !== undefined || bounds.before !== undefined;
}
