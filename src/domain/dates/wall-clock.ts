// Calendar fields with no zone attached. Arithmetic reads them as if they were UTC,
// which is exact for wall-clock math because UTC has no DST.
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const WALL_PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

export function readWall(wall: string): WallClock {
  const m = WALL_PATTERN.exec(wall);
  if (!m) throw new RangeError(`not a datetime string: ${JSON.stringify(wall)}`);
  return {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4]),
    minute: Number(m[5]),
    second: Number(m[6]),
  };
}

// Out-of-range fields roll over (month 14 → February next year, 29 Feb in a
// common year → 1 Mar) the way PHP's mktime/strtotime normalise them.
export function wallMillis(w: WallClock): number {
  const d = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0–99 to 1900–1999.
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  d.setUTCHours(w.hour, w.minute, w.second, 0);
  return d.getTime();
}

export function wallAt(millis: number): WallClock {
  const d = new Date(millis);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

export function normalizeWall(w: WallClock): WallClock {
  return wallAt(wallMillis(w));
}

export function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= wallAt(wallMillis({ year, month: month + 1, day: 0, hour: 0, minute: 0, second: 0 })).day;
}

// The datetime string has a four-digit year; inputs must land inside it.
export function fitsDatetimeString(w: WallClock): boolean {
  return w.year >= 0 && w.year <= 9999;
}

// Years outside 0000–9999 (only reachable by shifting an extreme input into
// another zone) are written the way PHP's date('Y') writes them, rather than failing.
export function writeWall(w: WallClock): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const year = `${w.year < 0 ? '-' : ''}${String(Math.abs(w.year)).padStart(4, '0')}`;
  return `${year}-${two(w.month)}-${two(w.day)} ${two(w.hour)}:${two(w.minute)}:${two(w.second)}`;
}

// 0 = Sunday, as in Date#getUTCDay.
export function dayOfWeek(w: WallClock): number {
  return new Date(wallMillis(w)).getUTCDay();
}
