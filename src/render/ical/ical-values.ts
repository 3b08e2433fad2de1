import ICAL from 'ical.js';
import { readWall, wallAt, wallMillis } from '../../domain/dates/wall-clock.ts';

// ical.js escapes `\` `;` `,` and LF in TEXT values; what it leaves alone is cleaned here (B.10).
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f]/g;
// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\u0000-\u001f\u007f]/;

/** A TEXT value before ical.js escapes it: CRLF and CR as LF, other controls removed. */
export function icalText(value: string): string {
  return value.replace(/\r\n?/g, '\n').replace(CONTROLS, '');
}

/** A TEXT value escaped by hand (RFC 5545 §3.3.11), for properties ical.js writes verbatim. */
export function escapeText(value: string): string {
  return icalText(value).replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\n/g, '\\n');
}

/** A parameter value (CN, TZID): `"` as `'`, controls removed; ical.js quotes it when needed. */
export function icalParam(value: string): string {
  return value.replace(/"/g, "'").replace(new RegExp(ANY_CONTROL.source, 'g'), '');
}

/** URI values are written as stored, or not at all when they carry controls. */
export function isCleanUri(value: string): boolean {
  return value !== '' && !ANY_CONTROL.test(value);
}

/** `YYYY-MM-DD HH:MM:SS` as a DATE-TIME: UTC (`…Z`) or a wall clock for a TZID. */
export function timeOf(wall: string, utc: boolean): ICAL.Time {
  const w = readWall(wall);
  return ICAL.Time.fromData(
    { year: w.year, month: w.month, day: w.day, hour: w.hour, minute: w.minute, second: w.second, isDate: false },
    utc ? ICAL.Timezone.utcTimezone : undefined,
  );
}

/** The date part of a wall clock, `plusDays` later, as a DATE (all-day DTEND is exclusive). */
export function dateOf(wall: string, plusDays: number): ICAL.Time {
  const w = wallAt(wallMillis({ ...readWall(wall), hour: 0, minute: 0, second: 0 }) + plusDays * 86_400_000);
  return ICAL.Time.fromData({ year: w.year, month: w.month, day: w.day, isDate: true });
}
