import type { DateTime } from 'luxon';
import { wallAt, writeWall } from './wall-clock.ts';

// What the reference emits for a publication date that was never set (drafts' date_utc).
export const ZERO_DATETIME = '0000-00-00 00:00:00';

export interface DateDetails {
  year: string;
  month: string;
  day: string;
  hour: string;
  minutes: string;
  seconds: string;
}

// A DateTime is written in its own zone; a Date carries no zone, so it is written in UTC.
export function formatWall(value: DateTime | Date): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new RangeError('invalid Date');
    return writeWall(wallAt(value.getTime()));
  }
  if (!value.isValid) throw new RangeError(`invalid DateTime: ${value.invalidExplanation ?? ''}`);
  return writeWall(value);
}

const DETAILS_PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

// A plain split (no calendar check) so that ZERO_DATETIME yields details too.
export function dateDetails(wall: string): DateDetails {
  const m = DETAILS_PATTERN.exec(wall);
  if (!m) throw new RangeError(`not a datetime string: ${JSON.stringify(wall)}`);
  return { year: m[1], month: m[2], day: m[3], hour: m[4], minutes: m[5], seconds: m[6] };
}
