/**
 * The date and time forms of TEC's CSV importer (140 §7.4). R reads `strtotime(date . ' ' . time)`:
 * slashes are month first, hyphens and dots day first, ISO year first, English month names, 12- or
 * 24-hour clocks. What none of them reads is an error here, not 1 January 1970.
 */
export type DateOrder = 'auto' | 'mdy' | 'dmy';

export interface CsvDate {
  date: string;
  /** `HH:MM:SS` when the cell carried a time too. */
  time?: string;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** Two-digit years as strtotime reads them: 00–69 → 20xx, 70–99 → 19xx. */
function fullYear(raw: string): number {
  const year = Number(raw);
  if (raw.length > 2) return year;
  return year < 70 ? 2000 + year : 1900 + year;
}

function validDate(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1) return null;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > days || year < 1 || year > 9999) return null;
  return `${String(year).padStart(4, '0')}-${pad(month)}-${pad(day)}`;
}

function monthNamed(name: string): number | null {
  const index = MONTHS.indexOf(name.slice(0, 3).toLowerCase());
  return index < 0 ? null : index + 1;
}

/** `19:30`, `19:30:00`, `7:30 pm`, `7pm`, `12:00 am` → `HH:MM:SS`; null when unreadable. */
export function parseCsvTime(raw: string): string | null {
  const match = /^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*([ap]\.?m\.?)?$/i.exec(raw.trim());
  if (!match || (match[2] === undefined && match[4] === undefined)) return null;
  let hour = Number(match[1]);
  const minute = Number(match[2] ?? 0);
  const second = Number(match[3] ?? 0);
  if (match[4]) {
    if (hour < 1 || hour > 12) return null;
    const pm = match[4].toLowerCase().startsWith('p');
    hour = (hour % 12) + (pm ? 12 : 0);
  }
  if (hour > 23 || minute > 59 || second > 59) return null;
  return `${pad(hour)}:${pad(minute)}:${pad(second)}`;
}

/** A date cell, possibly with a time after it; null when unreadable. */
export function parseCsvDate(raw: string, order: DateOrder = 'auto'): CsvDate | null {
  const text = raw.trim().replace(/\s+/g, ' ');
  const withTime = (date: string | null, rest: string | undefined): CsvDate | null => {
    if (date === null) return null;
    if (rest === undefined || rest.trim() === '') return { date };
    const time = parseCsvTime(rest);
    return time === null ? null : { date, time };
  };
  let match = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ](.+))?$/.exec(text);
  if (match) return withTime(validDate(Number(match[1]), Number(match[2]), Number(match[3])), match[4]);
  match = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})(?: (.+))?$/.exec(text);
  if (match) {
    const [first, second] = [Number(match[1]), Number(match[2])];
    const [month, day] = order === 'dmy' ? [second, first] : [first, second];
    return withTime(validDate(fullYear(match[3]), month, day), match[4]);
  }
  match = /^(\d{1,2})[-.](\d{1,2})[-.](\d{2}|\d{4})(?: (.+))?$/.exec(text);
  if (match) return withTime(validDate(fullYear(match[3]), Number(match[2]), Number(match[1])), match[4]);
  // April 12, 2027 · Apr 12 2027
  match = /^([A-Za-z]+)\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})(?: (.+))?$/.exec(text);
  if (match) {
    const month = monthNamed(match[1]);
    return withTime(month === null ? null : validDate(Number(match[3]), month, Number(match[2])), match[4]);
  }
  // 12 April 2027
  match = /^(\d{1,2}) ([A-Za-z]+)\.?,? (\d{4})(?: (.+))?$/.exec(text);
  if (match) {
    const month = monthNamed(match[2]);
    return withTime(month === null ? null : validDate(Number(match[3]), month, Number(match[1])), match[4]);
  }
  return null;
}
