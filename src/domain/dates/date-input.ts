import { readDateText } from './date-text.ts';
import { formatWall } from './datetime-format.ts';
import { utcToWall, wallToUtc } from './time-zone.ts';
import { fitsDatetimeString, isCalendarDate, readWall, wallAt, wallMillis, writeWall, type WallClock } from './wall-clock.ts';

// Date-time inputs of 10-events §2.1: a Unix timestamp (JSON number or digit
// string) or text in the strtotime subset of date-text.ts.

type Reading =
  | { kind: 'timestamp'; utc: WallClock }
  | { kind: 'text'; wall: WallClock; offsetMinutes?: number };

const DIGITS = /^\s*-?\d+\s*$/;
/** `2025-04-12`, `2025-04-12 19:30[:00]`, `2025-04-12T19:30[:00]`: most inputs, and lists parse theirs per request. */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

// The general reader's result for a valid ISO text (a written date and time, nothing relative),
// without its item matching or now's wall clock; anything else is left to it.
function readIso(input: string): WallClock | undefined {
  const m = ISO.exec(input);
  if (!m) return undefined;
  const wall = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), hour: Number(m[4] ?? 0), minute: Number(m[5] ?? 0), second: Number(m[6] ?? 0) };
  const valid = isCalendarDate(wall.year, wall.month, wall.day) && wall.hour <= 23 && wall.minute <= 59 && wall.second <= 59;
  return valid ? wall : undefined;
}

// `nowInZone` gives the wall clock of now in the zone the text is read in, so that
// relative words ("tomorrow", "+2 hours") are evaluated there.
function read(input: unknown, nowInZone: () => string): Reading | null {
  if (typeof input === 'number' || (typeof input === 'string' && DIGITS.test(input))) {
    const seconds = Math.trunc(Number(input));
    if (!Number.isFinite(seconds)) return null;
    return { kind: 'timestamp', utc: wallAt(seconds * 1000) };
  }
  if (typeof input !== 'string') return null;
  const iso = readIso(input);
  if (iso !== undefined) return { kind: 'text', wall: iso };
  const text = readDateText(input, readWall(nowInZone()));
  return text && { kind: 'text', ...text };
}

function written(wall: WallClock): string | null {
  return fitsDatetimeString(wall) ? writeWall(wall) : null;
}

// Wall clock in `zone` for an event start/end or a publication `date`. Written
// digits are kept even when the text carries an offset, and a timestamp's UTC
// digits are taken as the wall clock: both are reference behaviour.
export function parseWallClock(input: unknown, zone: string, now: Date): string | null {
  const reading = read(input, () => utcToWall(formatWall(now), zone));
  if (!reading) return null;
  return written(reading.kind === 'timestamp' ? reading.utc : reading.wall);
}

// A UTC instant: a written offset is honoured, text without one is read in
// `defaultZone`, a timestamp is an instant.
export function parseInstant(input: unknown, defaultZone: string, now: Date): string | null {
  const reading = read(input, () => utcToWall(formatWall(now), defaultZone));
  if (!reading) return null;
  if (reading.kind === 'timestamp') return written(reading.utc);
  if (reading.offsetMinutes !== undefined) {
    return written(wallAt(wallMillis(reading.wall) - reading.offsetMinutes * 60_000));
  }
  const local = written(reading.wall);
  return local && wallToUtc(local, defaultZone);
}
