import assert from 'node:assert/strict';
import ICAL from 'ical.js';
import type { TestApp } from '../../helpers/test-app.ts';

/** Every VEVENT of a file, parsed by ical.js, with DTSTART/DTEND converted through the file's own VTIMEZONEs. */
export function parseEvents(text: string): Array<{ uid: string; summary: string; start: string; end: string; allDay: boolean; vevent: ICAL.Component }> {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const zones = new Map(calendar.getAllSubcomponents('vtimezone').map((vtz) => [String(vtz.getFirstPropertyValue('tzid')), new ICAL.Timezone(vtz)]));
  const utc = (property: ICAL.Property | null) => {
    if (!property) return '';
    const time = property.getFirstValue() as ICAL.Time;
    const tzid = property.getParameter('tzid');
    if (typeof tzid === 'string') {
      assert.ok(zones.has(tzid), `VTIMEZONE ${tzid} present`);
      time.zone = zones.get(tzid)!;
    }
    if (time.isDate) return time.toString();
    return time.convertToZone(ICAL.Timezone.utcTimezone).toString().replace('T', ' ').replace('Z', '');
  };
  return calendar.getAllSubcomponents('vevent').map((vevent) => {
    const start = vevent.getFirstProperty('dtstart');
    const allDay = (start!.getFirstValue() as ICAL.Time).isDate;
    const endProperty = vevent.getFirstProperty('dtend') ?? start;
    return { uid: String(vevent.getFirstPropertyValue('uid')), summary: String(vevent.getFirstPropertyValue('summary')), start: utc(start), end: utc(endProperty), allDay, vevent };
  });
}

export function assertWellFormed(text: string): void {
  assert.ok(text.endsWith('END:VCALENDAR\r\n'));
  for (const line of text.split('\r\n')) assert.ok(Buffer.byteLength(line) <= 75, `line over 75 octets: ${line}`);
  assert.ok(!/[^\r]\n/.test(text), 'bare LF');
}

/** An event's record revision (80 §1.1), as stored: what its SEQUENCE must be (50 B.9). */
export async function eventRevision(t: TestApp, id: number): Promise<number> {
  const row = await t.storage.db.selectFrom('events').select('revision').where('id', '=', id).executeTakeFirstOrThrow();
  return Number(row.revision);
}
