import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import ICAL from 'ical.js';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { clock, createEvent, EVENTS } from '../events/fixtures.ts';

const FEED = `${NS}/events.ics`;

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

for (const dialect of DIALECTS) {
  describe(`iCalendar export [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock, env: { CALENDAR_SITE_NAME: 'Test Site', CALENDAR_TIMEZONE: 'Europe/Rome' } });
    });
    after(() => t.close());

    test('tz cross-check: every DTSTART/DTEND through the file VTIMEZONE equals utc_* of the JSON API', async () => {
      const made = [
        await createEvent(t, 'editor', { title: 'Across DST', start_date: '2025-10-25 22:00:00', end_date: '2025-10-26 04:00:00', timezone: 'Europe/Rome' }),
        await createEvent(t, 'editor', { title: 'Repeated hour', start_date: '2025-10-26 02:30:00', end_date: '2025-10-26 02:45:00', timezone: 'Europe/Rome' }),
        await createEvent(t, 'editor', { title: 'New York', start_date: '2025-11-01 20:00:00', end_date: '2025-11-02 03:00:00', timezone: 'America/New_York' }),
        await createEvent(t, 'editor', { title: 'Kathmandu', start_date: '2025-05-01 09:00:00', end_date: '2025-05-01 10:00:00', timezone: 'Asia/Kathmandu' }),
        await createEvent(t, 'editor', { title: 'Utc', start_date: '2025-05-02 09:00:00', end_date: '2025-05-02 10:00:00', timezone: 'UTC' }),
        await createEvent(t, 'editor', { title: 'Offset', start_date: '2025-05-03 09:00:00', end_date: '2025-05-03 10:00:00', timezone: 'UTC+2' }),
        await createEvent(t, 'editor', { title: 'Zero', start_date: '2025-05-04 09:00:00', end_date: '2025-05-04 09:00:00', timezone: 'Europe/Rome' }),
        await createEvent(t, 'editor', { title: 'Days', start_date: '2025-05-05', end_date: '2025-05-07', all_day: true }),
      ];
      const res = await t.request('GET', `${FEED}?start_date=2025-01-01&end_date=2026-12-31&per_page=50`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers['content-type'], 'text/calendar; charset=utf-8');
      assertWellFormed(res.text);
      const parsed = new Map(parseEvents(res.text).map((item) => [item.summary, item]));
      for (const event of made) {
        const item = parsed.get(event.title)!;
        assert.ok(item, event.title);
        assert.equal(item.uid, `${event.id}@calendar.test`);
        if (event.all_day) {
          assert.equal(item.start, event.start_date.slice(0, 10));
          assert.equal(item.end, '2025-05-08', 'exclusive DTEND');
        } else {
          assert.equal(item.start, event.utc_start_date, event.title);
          assert.equal(item.end, event.utc_end_date, event.title);
        }
      }
      assert.match(res.text, /DTSTART;TZID=Europe\/Rome:20251025T220000\r\n/);
      assert.match(res.text, /DTSTART:20251026T013000Z\r\n/, 'repeated hour written in UTC');
      assert.match(res.text, /DTSTART:20250503T070000Z\r\n/, 'offset zone in UTC');
      assert.doesNotMatch(parsed.get('Zero')!.vevent.toString(), /DTEND/);
      assert.match(res.text, /BEGIN:VTIMEZONE\r\nTZID:Asia\/Kathmandu\r\n/);
      assert.doesNotMatch(res.text, /TZID:UTC\r\n/);
      assert.match(res.text, /X-WR-TIMEZONE:Europe\/Rome\r\n/);
      assert.match(res.text, /X-WR-CALDESC:Events for Test Site\r\n/);
    });
  });
}
