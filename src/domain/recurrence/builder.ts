import { dayNumberOf, WEEKDAYS, weekdayOf } from './date-filter.ts';
import { formatRule, parseRule, part, untilInZone, type Rule } from './rule.ts';

/**
 * The back office's recurrence builder (100 §8.3): a handful of form fields that compose the
 * canonical `recurrence` object of 60 §3, and the way back from a stored rule to those fields.
 * Pure: no checks of its own — whatever is composed goes to the API, which judges it.
 */
export type RecurrencePattern = 'none' | 'daily' | 'weekly' | 'monthly' | 'yearly' | 'rrule';
export type MonthlyMode = 'day' | 'weekday';
export type RecurrenceEnd = 'never' | 'count' | 'until';

export interface BuilderFields {
  pattern: RecurrencePattern;
  /** As typed (`recurrence_interval`); empty or `1` composes no INTERVAL part. */
  interval: string;
  /** `MO` … `SU` checked (weekly). */
  weekdays: string[];
  monthly: MonthlyMode;
  end: RecurrenceEnd;
  count: string;
  /** `YYYY-MM-DD`, a local day of the event zone. */
  until: string;
  /** The text of the `rrule` pattern. */
  rrule: string;
  /** One `YYYY-MM-DD` or `YYYY-MM-DD HH:MM` per line. */
  exdates: string;
  rdates: string;
}

/** The canonical recurrence object the builder sends (60 §3). */
export interface ComposedRecurrence {
  rrule: string;
  rdate?: string[];
  exdate?: string[];
}

/** A stored series' recurrence as the API shows it (60 §5 `recurrence` key). */
export interface ShownRecurrence {
  rrule: string;
  rdate: string[];
  exdate: string[];
}

export const PATTERNS: readonly RecurrencePattern[] = ['none', 'daily', 'weekly', 'monthly', 'yearly', 'rrule'];
/** The weekday checkboxes in the order a week is shown (Monday first, ISO 8601). */
export const BUILDER_WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;

export const EMPTY_BUILDER: BuilderFields = {
  pattern: 'none',
  interval: '1',
  weekdays: [],
  monthly: 'day',
  end: 'never',
  count: '',
  until: '',
  rrule: '',
  exdates: '',
  rdates: '',
};

const FREQ: Record<string, string> = { daily: 'DAILY', weekly: 'WEEKLY', monthly: 'MONTHLY', yearly: 'YEARLY' };

/** The weekday code (`MO`) and the day of month of a `YYYY-MM-DD` date (undefined when unreadable). */
function startParts(startDate: string): { weekday: string; day: number } | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(startDate);
  if (!m) return undefined;
  const day = Number(m[3]);
  return { weekday: WEEKDAYS[weekdayOf(dayNumberOf(Number(m[1]), Number(m[2]), day))], day };
}

/** `n` of `BYDAY={n}{weekday}` for a day of month: its week 1–4, the fifth one → -1 (last). */
export function weekOfMonth(day: number): number {
  const week = Math.ceil(day / 7);
  return week >= 5 ? -1 : week;
}

const lines = (text: string): string[] => text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');

/**
 * The RRULE text the builder fields compose for an event starting on `startDate`
 * (`YYYY-MM-DD`); '' for the `none` pattern. Values go in as typed (`COUNT=abc` included).
 */
export function composeRule(fields: BuilderFields, startDate: string): string {
  if (fields.pattern === 'none') return '';
  if (fields.pattern === 'rrule') return fields.rrule.trim();
  const pieces = [`FREQ=${FREQ[fields.pattern]}`];
  const interval = fields.interval.trim();
  if (interval !== '' && interval !== '1') pieces.push(`INTERVAL=${interval}`);
  const start = startParts(startDate);
  if (fields.pattern === 'weekly') {
    const checked = BUILDER_WEEKDAYS.filter((day) => fields.weekdays.includes(day));
    const days = checked.length > 0 ? checked : start === undefined ? [] : [start.weekday];
    if (days.length > 0) pieces.push(`BYDAY=${days.join(',')}`);
  }
  if (fields.pattern === 'monthly' && start !== undefined) {
    pieces.push(fields.monthly === 'weekday' ? `BYDAY=${weekOfMonth(start.day)}${start.weekday}` : `BYMONTHDAY=${start.day}`);
  }
  if (fields.end === 'count') pieces.push(`COUNT=${fields.count.trim()}`);
  if (fields.end === 'until') pieces.push(`UNTIL=${fields.until.trim().replace(/-/g, '')}`);
  return pieces.join(';');
}

/** The `recurrence` object the builder composes, or null for "no recurrence" (pattern `none`). */
export function composeRecurrence(fields: BuilderFields, startDate: string): ComposedRecurrence | null {
  if (fields.pattern === 'none') return null;
  const composed: ComposedRecurrence = { rrule: composeRule(fields, startDate) };
  const rdate = lines(fields.rdates);
  const exdate = lines(fields.exdates);
  if (rdate.length > 0) composed.rdate = rdate;
  if (exdate.length > 0) composed.exdate = exdate;
  return composed;
}

/** The rule as the API stores it (UNTIL in UTC, parts in order), or the text itself when unreadable. */
function storedForm(rule: string, zone: string): string {
  if (rule.trim() === '') return '';
  try {
    return formatRule(parseRule(rule), zone);
  } catch {
    return rule.trim();
  }
}

/** A date-time line of the textarea (`YYYY-MM-DD HH:MM`), from the API's `YYYY-MM-DD HH:MM:SS`. */
function dateLine(value: string): string {
  return value.length > 10 && value.endsWith(':00') ? value.slice(0, 16) : value;
}

/** Minutes-precision wall clocks, so that `… 19:30` and `… 19:30:00` compare equal. */
function sameDates(typed: string[] | undefined, stored: string[]): boolean {
  const normal = (list: string[]) => [...new Set(list.map((value) => dateLine(value.trim())))].sort().join('\n');
  return normal(typed ?? []) === normal(stored);
}

/**
 * Whether the composed recurrence differs from the stored one (100 §8.2: `recurrence` is sent on
 * save only then). Rules compare in their stored form, so `UNTIL=20250630` equals the stored
 * `UNTIL=20250630T215959Z` of a Copenhagen series.
 */
export function recurrenceDiffers(composed: ComposedRecurrence | null, stored: ShownRecurrence | null, zone: string): boolean {
  if (composed === null || stored === null) return composed !== stored;
  return storedForm(composed.rrule, zone) !== storedForm(stored.rrule, zone)
    || !sameDates(composed.rdate, stored.rdate)
    || !sameDates(composed.exdate, stored.exdate);
}

/** The builder fields of one of §8.3's shapes, read from a parsed rule; undefined for any other shape. */
function shapeOf(rule: Rule, zone: string): BuilderFields | undefined {
  const pattern = (Object.keys(FREQ) as RecurrencePattern[]).find((name) => FREQ[name] === rule.freq);
  if (pattern === undefined) return undefined;
  const byday = part(rule, 'BYDAY');
  const fields: BuilderFields = {
    ...EMPTY_BUILDER,
    pattern,
    interval: part(rule, 'INTERVAL') ?? '1',
    weekdays: pattern === 'weekly' && byday !== undefined ? byday.split(',') : [],
    monthly: pattern === 'monthly' && byday !== undefined ? 'weekday' : 'day',
    end: rule.count !== undefined ? 'count' : rule.until !== undefined ? 'until' : 'never',
    count: rule.count === undefined ? '' : String(rule.count),
    until: rule.until === undefined ? '' : untilInZone(rule.until, zone).slice(0, 10),
  };
  return fields;
}

/**
 * The builder fields of a stored series (100 §8.3): the rule's shape when the builder composes
 * exactly that rule again from the event's start date, otherwise pattern `rrule` with the text.
 * No recurrence → the empty builder.
 */
export function builderFromStored(stored: ShownRecurrence | null, zone: string, startDate: string): BuilderFields {
  if (stored === null) return { ...EMPTY_BUILDER };
  const dates = { rdates: stored.rdate.map(dateLine).join('\n'), exdates: stored.exdate.map(dateLine).join('\n') };
  let shape: BuilderFields | undefined;
  try {
    shape = stored.rrule === '' ? undefined : shapeOf(parseRule(stored.rrule), zone);
  } catch {
    shape = undefined;
  }
  if (shape !== undefined && storedForm(composeRule(shape, startDate), zone) === storedForm(stored.rrule, zone)) return { ...shape, ...dates };
  return { ...EMPTY_BUILDER, pattern: 'rrule', rrule: stored.rrule, ...dates };
}
