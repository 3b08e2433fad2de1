import { dayOfWeek, isCalendarDate, normalizeWall, type WallClock } from './wall-clock.ts';

// The subset of PHP strtotime() that 10-events §2.1 promises (locutus' port
// misses `today`, `tomorrow 9am`, `4pm`, `+5 days 11am` and reads the process
// zone). The text is read as a sequence of items, each setting a calendar date,
// setting the time of day, moving by a relative amount or snapping to a weekday;
// they are applied to "now" in timelib's order. Relative hours are added to the
// wall clock, so across a DST change `+1 hour` may differ from PHP 8.1+, which
// adds elapsed time.

export interface DateText {
  wall: WallClock;
  // Minutes east of UTC written in the text (`Z` → 0); absent when none was written.
  offsetMinutes?: number;
}

interface Time {
  hour: number;
  minute: number;
  second: number;
}

interface Draft {
  date?: { year: number; month: number; day: number };
  time?: Time;
  // Day words reset the time without claiming it (timelib's "unhave time"), so
  // `tomorrow 9am` is valid while `10:00 11:00` or `noon 10:00` are not.
  timeClaimed: boolean;
  offsetMinutes?: number;
  weekday?: { day: number; direction: 'next' | 'last' | 'this' };
  relative: WallClock;
}

const MIDNIGHT: Time = { hour: 0, minute: 0, second: 0 };

const MONTHS: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11, dec: 12,
  january: 1, february: 2, march: 3, april: 4, june: 6, july: 7, august: 8, september: 9, october: 10,
  november: 11, december: 12,
};
const WEEKDAYS: Record<string, number> = {
  sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6,
  sunday: 0, monday: 1, tuesday: 2, wednesday: 3, thursday: 4, friday: 5, saturday: 6,
};
const UNITS: Record<string, { field: keyof WallClock; times: number }> = {
  sec: { field: 'second', times: 1 }, second: { field: 'second', times: 1 },
  min: { field: 'minute', times: 1 }, minute: { field: 'minute', times: 1 },
  hour: { field: 'hour', times: 1 }, day: { field: 'day', times: 1 },
  week: { field: 'day', times: 7 }, fortnight: { field: 'day', times: 14 },
  month: { field: 'month', times: 1 }, year: { field: 'year', times: 1 },
};

const alternation = (words: Record<string, unknown>) =>
  Object.keys(words).sort((a, b) => b.length - a.length).join('|');
const MONTH = `(${alternation(MONTHS)})`;
const WEEKDAY = `(${alternation(WEEKDAYS)})`;
const UNIT = `(${alternation(UNITS)})s?`;
const ORDINAL = '(?:st|nd|rd|th)?';
const END = '(?=\\s|$)';

// `now` supplies the year of a written date that has none.
type Apply = (m: RegExpExecArray, draft: Draft, now: WallClock) => boolean;

function setDate(draft: Draft, year: number, month: number, day: number): boolean {
  if (draft.date || !isCalendarDate(year, month, day)) return false;
  draft.date = { year, month, day };
  return true;
}

function claimTime(draft: Draft, time: Time): boolean {
  if (draft.timeClaimed || time.hour > 23 || time.minute > 59 || time.second > 59) return false;
  draft.time = time;
  draft.timeClaimed = true;
  return true;
}

function setOffset(draft: Draft, written: string): boolean {
  if (draft.offsetMinutes !== undefined) return false;
  if (written === 'z' || written === 'utc' || written === 'gmt') {
    draft.offsetMinutes = 0;
    return true;
  }
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(written);
  if (!m) return false;
  const minutes = m[3] === undefined ? 0 : Number(m[3]);
  if (minutes > 59) return false;
  const total = Number(m[2]) * 60 + minutes;
  draft.offsetMinutes = m[1] === '-' ? -total : total;
  return true;
}

function addRelative(draft: Draft, unit: string, amount: number): boolean {
  const { field, times } = UNITS[unit];
  draft.relative[field] += amount * times;
  return true;
}

const ITEMS: Array<[RegExp, Apply]> = [
  // 2025-04-12 (an ISO `T` has been turned into a space beforehand)
  [new RegExp(`(\\d{4})-(\\d{1,2})-(\\d{1,2})${END}`, 'y'),
    (m, d) => setDate(d, Number(m[1]), Number(m[2]), Number(m[3]))],
  // 12 April 2025, 12th april, 12-apr-2025
  [new RegExp(`(\\d{1,2})${ORDINAL}[\\s-]?${MONTH}(?:[\\s,-]+(\\d{4}))?${END}`, 'y'),
    (m, d, now) => setDate(d, m[3] === undefined ? now.year : Number(m[3]), MONTHS[m[2]], Number(m[1]))],
  // April 12, 2025 / april 12 2025 / april 12
  [new RegExp(`${MONTH}[\\s-]?(\\d{1,2})${ORDINAL}(?:(?:,\\s*|\\s+)(\\d{4}))?${END}`, 'y'),
    (m, d, now) => setDate(d, m[3] === undefined ? now.year : Number(m[3]), MONTHS[m[1]], Number(m[2]))],
  // 4pm, 7:30 pm, 11 a.m. (before the 24-hour form, which would take `7:30` of `7:30 pm`)
  [new RegExp(`(\\d{1,2})(?::(\\d{2})(?::(\\d{2}))?)?\\s?([ap])\\.?m\\.?${END}`, 'y'),
    (m, d) => {
      const hour = Number(m[1]);
      if (hour < 1 || hour > 12) return false;
      return claimTime(d, { hour: (hour % 12) + (m[4] === 'p' ? 12 : 0), minute: Number(m[2] ?? 0), second: Number(m[3] ?? 0) });
    }],
  // 19:30, 19:30:00, 19:30:00.123, each optionally followed by Z or ±HH[:]MM
  [new RegExp(`(\\d{1,2}):(\\d{2})(?::(\\d{2})(?:[.,]\\d+)?)?(z|[+-]\\d{2}(?::?\\d{2})?)?${END}`, 'y'),
    (m, d) => claimTime(d, { hour: Number(m[1]), minute: Number(m[2]), second: Number(m[3] ?? 0) }) &&
      (m[4] === undefined || setOffset(d, m[4]))],
  // a zone written apart from the time: `19:30 +02:00`, `08:30:00 GMT`
  [new RegExp(`(z|utc|gmt|[+-]\\d{2}:\\d{2})${END}`, 'y'), (m, d) => setOffset(d, m[1])],
  // +1 week, -2 hours, 5 days
  [new RegExp(`([+-]?)\\s*(\\d+)\\s*${UNIT}${END}`, 'y'),
    (m, d) => addRelative(d, m[3], (m[1] === '-' ? -1 : 1) * Number(m[2]))],
  // next month, last year
  [new RegExp(`(next|last)\\s+${UNIT}${END}`, 'y'),
    (m, d) => addRelative(d, m[2], m[1] === 'next' ? 1 : -1)],
  [new RegExp(`(now|today|midnight|noon|tomorrow|yesterday)${END}`, 'y'), applyDayWord],
  // wednesday, next wednesday, last fri
  [new RegExp(`(?:(next|last|this)\\s+)?${WEEKDAY}${END}`, 'y'),
    (m, d) => {
      if (d.weekday) return false;
      d.weekday = { day: WEEKDAYS[m[2]], direction: (m[1] ?? 'this') as 'next' | 'last' | 'this' };
      d.time = MIDNIGHT;
      d.timeClaimed = false;
      return true;
    }],
];

function applyDayWord(m: RegExpExecArray, draft: Draft): boolean {
  switch (m[1]) {
    case 'now':
      return true;
    case 'noon':
      return claimTime(draft, { hour: 12, minute: 0, second: 0 });
    case 'tomorrow':
      draft.relative.day += 1;
      break;
    case 'yesterday':
      draft.relative.day -= 1;
      break;
  }
  draft.time = MIDNIGHT;
  draft.timeClaimed = false;
  return true;
}

function readItems(text: string, now: WallClock): Draft | null {
  const draft: Draft = {
    timeClaimed: false,
    relative: { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 },
  };
  let at = 0;
  while (at < text.length) {
    let matched = false;
    for (const [pattern, apply] of ITEMS) {
      pattern.lastIndex = at;
      const m = pattern.exec(text);
      if (!m) continue;
      if (!apply(m, draft, now)) return null;
      at = pattern.lastIndex;
      matched = true;
      break;
    }
    if (!matched) return null;
    while (text[at] === ' ') at++;
  }
  return draft;
}

function weekdayShift(current: number, target: number, direction: 'next' | 'last' | 'this'): number {
  const ahead = (target - current + 7) % 7;
  if (direction === 'this') return ahead;
  if (direction === 'next') return ahead || 7;
  return -((current - target + 7) % 7 || 7);
}

export function readDateText(input: string, now: WallClock): DateText | null {
  const text = input
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/(\d{4}-\d{1,2}-\d{1,2})t(?=\d)/g, '$1 ');
  if (text === '') return null;
  const draft = readItems(text, now);
  if (!draft) return null;

  const date = draft.date ?? { year: now.year, month: now.month, day: now.day };
  // A written date without a time means its midnight; otherwise the time is now's.
  const time = draft.time ?? (draft.date ? MIDNIGHT : now);
  let wall: WallClock = { ...date, hour: time.hour, minute: time.minute, second: time.second };
  // timelib snaps to the weekday first and adds the relative amounts afterwards.
  if (draft.weekday) {
    const { day, direction } = draft.weekday;
    wall = normalizeWall({ ...wall, day: wall.day + weekdayShift(dayOfWeek(wall), day, direction) });
  }
  const r = draft.relative;
  wall = normalizeWall({
    year: wall.year + r.year,
    month: wall.month + r.month,
    day: wall.day + r.day,
    hour: wall.hour + r.hour,
    minute: wall.minute + r.minute,
    second: wall.second + r.second,
  });
  return draft.offsetMinutes === undefined ? { wall } : { wall, offsetMinutes: draft.offsetMinutes };
}
