import type { Language } from '../i18n/catalog.ts';

/**
 * Calendar arithmetic on site-zone wall clocks (`YYYY-MM-DD HH:MM:SS`) and their dates, and the
 * localised texts of 55 §3.5. Wall clocks are formatted as if they were UTC instants, so that
 * no zone conversion ever moves an event's own time (§3.5: never the viewer's zone).
 */

const LOCALES: Record<Language, string> = { en: 'en-US', da: 'da-DK', it: 'it-IT', es: 'es-ES' };

const formatters = new Map<string, Intl.DateTimeFormat>();

function format(lang: Language, options: Intl.DateTimeFormatOptions, date: string, time = '00:00:00'): string {
  const key = lang + JSON.stringify(options);
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(LOCALES[lang], { ...options, timeZone: 'UTC' });
    formatters.set(key, formatter);
  }
  return formatter.format(new Date(`${date}T${time}Z`));
}

export const datePart = (wall: string): string => wall.slice(0, 10);
export const timePart = (wall: string): string => wall.slice(11, 19) || '00:00:00';
export const monthPart = (date: string): string => date.slice(0, 7);

export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

export function addMonths(month: string, months: number): string {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1 + months, 1)).toISOString().slice(0, 7);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

export function isDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  return addDays(text, 0) === text;
}

export function isMonth(text: string): boolean {
  return /^\d{4}-(0[1-9]|1[0-2])$/.test(text);
}

/** "April 2026" in the edition's words. */
export const monthTitle = (lang: Language, month: string): string => format(lang, { month: 'long', year: 'numeric' }, `${month}-01`);
export const monthName = (lang: Language, month: string): string => format(lang, { month: 'long' }, `${month}-01`);
export const longDate = (lang: Language, date: string): string => format(lang, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }, date);
export const weekdayName = (lang: Language, date: string, width: 'long' | 'short'): string => format(lang, { weekday: width }, date);
export const dayNumber = (date: string): string => String(Number(date.slice(8, 10)));

export function timeText(lang: Language, wall: string): string {
  const text = format(lang, { hour: 'numeric', minute: '2-digit' }, datePart(wall), timePart(wall));
  // The reference writes "7:30 pm".
  return lang === 'en' ? text.replace(/\s?(AM|PM)$/, (_whole, half: string) => ` ${half.toLowerCase()}`) : text;
}

function dayText(lang: Language, date: string, withYear: boolean): string {
  return format(lang, withYear ? { month: 'long', day: 'numeric', year: 'numeric' } : { month: 'long', day: 'numeric' }, date);
}

/** `2026-04-12T19:30:00+02:00`: the event's wall clock with its offset, derived from its UTC instant. */
export function isoWithOffset(wall: string, utc: string): string {
  const minutes = Math.round((Date.parse(`${wall.replace(' ', 'T')}Z`) - Date.parse(`${utc.replace(' ', 'T')}Z`)) / 60000);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${wall.replace(' ', 'T')}${offset}`;
}

export interface Scheduled {
  start_date: string;
  end_date: string;
  all_day: boolean | null;
  timezone: string;
  timezone_abbr: string;
}

/** The schedule line of §3.5. */
export function scheduleText(lang: Language, event: Scheduled, today: string, siteZone: string): string {
  const year = today.slice(0, 4);
  const startDate = datePart(event.start_date);
  const endDate = datePart(event.end_date);
  const withYear = startDate.slice(0, 4) !== year || endDate.slice(0, 4) !== year;
  const oneDay = startDate === endDate;
  let text: string;
  if (event.all_day) {
    text = oneDay ? dayText(lang, startDate, withYear) : `${dayText(lang, startDate, withYear)} – ${dayText(lang, endDate, withYear)}`;
  } else {
    const start = `${dayText(lang, startDate, withYear)} @ ${timeText(lang, event.start_date)}`;
    text = oneDay ? `${start} – ${timeText(lang, event.end_date)}` : `${start} – ${dayText(lang, endDate, withYear)} @ ${timeText(lang, event.end_date)}`;
  }
  if (event.timezone !== '' && event.timezone !== siteZone && event.timezone_abbr !== '') text += ` ${event.timezone_abbr}`;
  return text;
}

/**
 * The dates an event covers on the calendar: start date to end date, where an end at exactly
 * midnight belongs to the day before (end exclusive) unless the event has no length.
 */
export function coveredDates(event: { start_date: string; end_date: string }): { first: string; last: string } {
  const first = datePart(event.start_date);
  let last = datePart(event.end_date);
  if (last > first && timePart(event.end_date) === '00:00:00') last = addDays(last, -1);
  return { first, last: last < first ? first : last };
}
