import { part, type Rule } from './rule.ts';

/** Days since 1970-01-01 (a Thursday): the unit the expansion walks in. */
export const DAY_MS = 86_400_000;
export const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

export function dayNumberOf(year: number, month: number, day: number): number {
  // setUTCFullYear, unlike Date.UTC, does not map years 0–99 to 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getTime() / DAY_MS;
}
/** 0 = Sunday. */
export const weekdayOf = (day: number): number => (((day + 4) % 7) + 7) % 7;

/** The day starting week 1 of `year`: the first week with at least four days of the year, weeks starting on WKST (RFC 5545). */
function weekOneStart(year: number, wkst: number): number {
  const jan1 = dayNumberOf(year, 1, 1);
  const back = (weekdayOf(jan1) - wkst + 7) % 7;
  return 7 - back >= 4 ? jan1 - back : jan1 - back + 7;
}

const MONTH_LENGTHS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leap = (year: number) => (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 1 : 0);
/** 1 for 1 January. */
function yearDayOf(date: Date): number {
  const month = date.getUTCMonth();
  let day = date.getUTCDate() + (month > 1 ? leap(date.getUTCFullYear()) : 0);
  for (let m = 0; m < month; m++) day += MONTH_LENGTHS[m]!;
  return day;
}

const numbers = (value: string | undefined) => value?.split(',').map(Number);
/** Whether a signed position list (negative: from the end) names `position` in a span of `length`. */
const names = (list: number[], position: number, length: number) => list.some((n) => (n > 0 ? n : length + 1 + n) === position);

/**
 * The rule's date parts BYMONTH, BYWEEKNO, BYYEARDAY, BYMONTHDAY and BYDAY read once, as a test
 * of a day number. Ordinals of BYDAY count within the month for MONTHLY and for YEARLY with
 * BYMONTH, else within the year. A part naming a date the month or year does not have
 * (30 February) admits nothing there: RFC 5545 ignores invalid dates.
 */
export function dateFilter(rule: Rule): (day: number) => boolean {
  const months = numbers(part(rule, 'BYMONTH'));
  const weekNumbers = numbers(part(rule, 'BYWEEKNO'));
  const yearDays = numbers(part(rule, 'BYYEARDAY'));
  const monthDays = numbers(part(rule, 'BYMONTHDAY'));
  const weekdays = part(rule, 'BYDAY')?.split(',').map((item) => ({ ordinal: Number(item.slice(0, -2) || '0'), weekday: WEEKDAYS.indexOf(item.slice(-2)) }));
  const wkst = WEEKDAYS.indexOf(part(rule, 'WKST') ?? 'MO');
  const ordinalsInMonth = rule.freq === 'MONTHLY' || months !== undefined;
  return (day) => {
    const date = new Date(day * DAY_MS);
    const year = date.getUTCFullYear();
    const month = date.getUTCMonth() + 1;
    if (months !== undefined && !months.includes(month)) return false;
    const monthStart = day - date.getUTCDate() + 1;
    const monthLength = month === 2 ? 28 + leap(year) : MONTH_LENGTHS[month - 1]!;
    const yearStart = day - yearDayOf(date) + 1;
    const yearLength = 365 + leap(year);
    if (monthDays !== undefined && !names(monthDays, date.getUTCDate(), monthLength)) return false;
    if (yearDays !== undefined && !names(yearDays, day - yearStart + 1, yearLength)) return false;
    if (weekNumbers !== undefined) {
      let weekYear = year;
      if (day >= weekOneStart(year + 1, wkst)) weekYear = year + 1;
      else if (day < weekOneStart(year, wkst)) weekYear = year - 1;
      const start = weekOneStart(weekYear, wkst);
      if (!names(weekNumbers, Math.floor((day - start) / 7) + 1, (weekOneStart(weekYear + 1, wkst) - start) / 7)) return false;
    }
    if (weekdays === undefined) return true;
    const weekday = weekdayOf(day);
    const [spanStart, spanEnd] = ordinalsInMonth ? [monthStart, monthStart + monthLength - 1] : [yearStart, yearStart + yearLength - 1];
    return weekdays.some(({ ordinal, weekday: wd }) => {
      if (wd !== weekday) return false;
      if (ordinal === 0) return true;
      return ordinal > 0 ? Math.floor((day - spanStart) / 7) + 1 === ordinal : Math.floor((spanEnd - day) / 7) + 1 === -ordinal;
    });
  };
}
