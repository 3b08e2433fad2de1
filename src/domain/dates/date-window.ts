import { parseInstant } from './date-input.ts';
import { utcToWall } from './time-zone.ts';
import { normalizeWall, wallAt, writeWall } from './wall-clock.ts';

// The date window of the event list (10-events §4.2). Every bound is a wall-clock
// datetime string in the site zone S.

export const DATE_WINDOW_PARAMS = [
  'start_date', 'end_date', 'starts_before', 'starts_after', 'ends_before', 'ends_after',
] as const;
export type DateWindowParam = (typeof DATE_WINDOW_PARAMS)[number];

// Only the parameters present in the query string are set (`undefined` = absent).
export type DateWindowInput = Partial<Record<DateWindowParam, unknown>> & {
  strict_dates?: unknown;
  hasInclude: boolean;
  /** Only explicit start/end bounds, no default window (a list filtered by modification time, 80 §2). */
  withoutDefaults?: boolean;
};

export interface DateWindow {
  strict: boolean;
  // start_date: start ≥, end_date: end ≤, starts_before: start <, starts_after:
  // start >, ends_before: end <, ends_after: end >. Absent = no condition.
  bounds: Partial<Record<DateWindowParam, string>>;
}

export type InvalidDateWindowParam = DateWindowParam | 'strict_dates';

// `params` lists every invalid parameter, since the API reports them all at once.
export interface DateWindowError {
  error: InvalidDateWindowParam;
  params: InvalidDateWindowParam[];
}

const TRUTHY_STRICT = /^(?:1|true|on|yes)$/i;

export function isTruthyStrict(value: unknown): boolean {
  return typeof value === 'string' && TRUTHY_STRICT.test(value);
}

// strict_dates is not a typed boolean: any non-empty string passes except "0".
function isValidStrictDates(value: unknown): boolean {
  return typeof value === 'string' && value !== '' && value !== '0';
}

const RANGE_PARAMS = ['starts_before', 'starts_after', 'ends_before', 'ends_after'] as const;

export function computeDateWindow(input: DateWindowInput, siteZone: string, now: Date): DateWindow | DateWindowError {
  // Every value is read with UTC as its default zone, whatever S is.
  const instants: Partial<Record<DateWindowParam, string>> = {};
  const invalid: InvalidDateWindowParam[] = [];
  for (const param of DATE_WINDOW_PARAMS) {
    if (input[param] === undefined) continue;
    const instant = parseInstant(input[param], 'UTC', now);
    if (instant === null) invalid.push(param);
    else instants[param] = instant;
  }
  if (input.strict_dates !== undefined && !isValidStrictDates(input.strict_dates)) invalid.push('strict_dates');
  if (invalid.length > 0) return { error: invalid[0], params: invalid };

  const strict = isTruthyStrict(input.strict_dates);
  // Inclusive mode keeps only the calendar date of the value; strict mode keeps
  // the instant and reads it in S.
  const bound = (param: DateWindowParam, value: string): string => {
    if (strict) return utcToWall(value, siteZone);
    return `${value.slice(0, 10)} ${param === 'start_date' ? '00:00:00' : '23:59:59'}`;
  };

  const bounds: Partial<Record<DateWindowParam, string>> = {};
  for (const param of RANGE_PARAMS) {
    const instant = instants[param];
    if (instant !== undefined) bounds[param] = bound(param, instant);
  }

  const utcNow = wallAt(now.getTime());
  // Already converted to S, then fed to bound() as if it were UTC again: in strict
  // mode that converts it a second time (reference quirk, kept).
  const defaultStart = utcToWall(
    writeWall(normalizeWall({ ...utcNow, day: utcNow.day - 1, hour: 23, minute: 59, second: 0 })),
    siteZone,
  );
  // Month overflow rolls over like PHP's strtotime('+24 months'): 29 Feb → 1 Mar.
  const defaultEnd = writeWall(normalizeWall({ ...utcNow, month: utcNow.month + 24 }));
  const defaults = { start_date: defaultStart, end_date: defaultEnd };

  const hasRangeFilter = RANGE_PARAMS.some((param) => input[param] !== undefined);
  for (const param of ['start_date', 'end_date'] as const) {
    const given = instants[param];
    if (given === undefined && (hasRangeFilter || input.withoutDefaults)) continue;
    if (input.withoutDefaults) {
      bounds[param] = bound(param, given!);
      continue;
    }
    // With include the reference swaps given start/end values for the raw
    // defaults, neither rounded nor converted again.
    if (input.hasInclude) bounds[param] = defaults[param];
    else bounds[param] = bound(param, given ?? defaults[param]);
  }
  return { strict, bounds };
}
