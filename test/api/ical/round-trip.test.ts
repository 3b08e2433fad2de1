import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import ICAL from 'ical.js';
import { htmlToPlainText } from '../../../src/domain/text/html-filter.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type Caller, type TestApp } from '../../helpers/test-app.ts';
import { clock, createEvent, EVENTS } from '../events/fixtures.ts';
import { assertWellFormed, eventRevision } from './file-helpers.ts';

const WINDOW = 'start_date=2025-04-01&end_date=2026-03-31';

/** One occurrence as a client sees it after expanding the file with ical.js. */
interface Seen {
  uid: string;
  recurrenceId: string | null;
  start: string;
  end: string;
  allDay: boolean;
  item: ICAL.Component;
  sequence: number;
}

const utc = (time: ICAL.Time) => time.convertToZone(ICAL.Timezone.utcTimezone).toString().replace('T', ' ').replace('Z', '');

/**
 * Every occurrence a calendar client would show for a file: plain VEVENTs as they are, series
 * expanded through ical.js (`ICAL.Event` with its exceptions, EXDATE honoured) up to `until`.
 */
function expandFile(text: string, until: string): Seen[] {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const vtz of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(vtz);
  const vevents = calendar.getAllSubcomponents('vevent');
  const seen: Seen[] = [];
  const limit = ICAL.Time.fromDateTimeString(until.replace(' ', 'T'));
  limit.zone = ICAL.Timezone.utcTimezone;
  for (const vevent of vevents.filter((component) => !component.hasProperty('recurrence-id'))) {
    const uid = String(vevent.getFirstPropertyValue('uid'));
    const exceptions = vevents.filter((component) => component.hasProperty('recurrence-id') && component.getFirstPropertyValue('uid') === uid);
    const event = new ICAL.Event(vevent, { exceptions });
    if (!event.isRecurring()) {
      seen.push({ uid, recurrenceId: null, start: time(event.startDate), end: time(event.endDate), allDay: event.startDate.isDate, item: vevent, sequence: event.sequence });
      continue;
    }
    const iterator = event.iterator();
    for (let next = iterator.next(); next && next.compare(limit) <= 0; next = iterator.next()) {
      const details = event.getOccurrenceDetails(next);
      seen.push({
        uid,
        recurrenceId: utc(details.recurrenceId),
        start: time(details.startDate),
        end: time(details.endDate),
        allDay: details.startDate.isDate,
        item: details.item.component,
        sequence: details.item.sequence,
      });
    }
  }
  return seen;
}

function time(value: ICAL.Time): string {
  return value.isDate ? value.toString() : utc(value);
}

const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

for (const dialect of DIALECTS) {
  describe(`iCalendar round trip: file parsed back equals the JSON API [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    const made: Record<string, any> = {};
    before(async () => {
      t = await startTestApp(dialect, { clock, env: { CALENDAR_SITE_NAME: 'Round Trip', CALENDAR_TIMEZONE: 'Europe/Rome' } });
      const venue = (await t.request('POST', `${NS}/venues`, { as: 'administrator', body: { venue: 'Teatro Verdi', address: 'Via Roma 1', city: 'Pisa', geo_lat: 43.7167, geo_lng: 10.4 } })).body;
      const organizer = [{ organizer: 'Anna Rossi', email: 'anna@example.org' }];
      made.rome = await createEvent(t, 'administrator', { title: 'Rome concert', start_date: '2025-05-10 20:30:00', end_date: '2025-05-10 23:00:00', timezone: 'Europe/Rome', venue: venue.id, organizer, categories: ['Music'], description: '<p>Bring <b>friends</b>.</p><p>Second line</p>' });
      made.newYork = await createEvent(t, 'administrator', { title: 'New York gig', start_date: '2025-11-01 22:00:00', end_date: '2025-11-02 02:00:00', timezone: 'America/New_York' });
      made.tokyo = await createEvent(t, 'administrator', { title: 'Tokyo breakfast', start_date: '2025-06-01 07:00:00', end_date: '2025-06-01 08:00:00', timezone: 'Asia/Tokyo' });
      made.allDay = await createEvent(t, 'administrator', { title: 'Open day', start_date: '2025-06-02', end_date: '2025-06-02', all_day: true });
      made.multiDay = await createEvent(t, 'administrator', { title: 'Festival', start_date: '2025-07-04', end_date: '2025-07-06', all_day: true, categories: ['Music', 'Outdoor'] });
      made.locked = await createEvent(t, 'administrator', { title: 'Members gala', password: 'sesame', description: 'Secret', venue: venue.id, start_date: '2025-06-05 19:00:00', end_date: '2025-06-05 22:00:00' });
      made.hidden = await createEvent(t, 'administrator', { title: 'Backstage', hide_from_listings: true, start_date: '2025-06-06 19:00:00', end_date: '2025-06-06 20:00:00' });
      made.private = await createEvent(t, 'administrator', { title: 'Board meeting', status: 'private', start_date: '2025-06-07 09:00:00', end_date: '2025-06-07 10:00:00' });
      // Weekly across the end of summer time; one renamed, one moved, one trashed, and a rule exclusion.
      made.weekly = await createEvent(t, 'administrator', {
        title: 'Rehearsal', start_date: '2025-10-06 19:30:00', end_date: '2025-10-06 21:00:00', timezone: 'Europe/Rome', venue: venue.id, categories: ['Music'],
        recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=8', exdate: ['2025-11-17'] },
      });
      const occurrences = (await t.request('GET', `${EVENTS}?post_parent=${made.weekly.id}&${WINDOW}`, { as: 'administrator' })).body.events;
      assert.equal(occurrences.length, 7);
      await t.request('POST', `${EVENTS}/${occurrences[1].id}`, { as: 'administrator', body: { title: 'Rehearsal (dress)', description: 'In costume' } });
      await t.request('POST', `${EVENTS}/${occurrences[2].id}`, { as: 'administrator', body: { start_date: '2025-10-21 18:00:00', end_date: '2025-10-21 20:00:00' } });
      assert.equal((await t.request('DELETE', `${EVENTS}/${occurrences[4].id}`, { as: 'administrator' })).status, 200);
      // Daily at 02:30 in Rome: the night the clocks go back repeats that hour.
      made.night = await createEvent(t, 'administrator', { title: 'Night watch', start_date: '2025-10-24 02:30:00', end_date: '2025-10-24 03:00:00', timezone: 'Europe/Rome', recurrence: 'FREQ=DAILY;COUNT=4' });
      made.market = await createEvent(t, 'administrator', { title: 'Market', start_date: '2025-05-03', end_date: '2025-05-03', all_day: true, recurrence: { rrule: 'FREQ=WEEKLY;UNTIL=20250524', exdate: ['2025-05-10'] } });
    });
    after(() => t.close());

    async function compare(as: Caller, query: string, description: string): Promise<void> {
      const list = (await t.request('GET', `${EVENTS}?${WINDOW}&per_page=100${query}`, { as })).body.events;
      const feed = await t.request('GET', `${NS}/events.ics?${WINDOW}${query}`, { as });
      assert.equal(feed.status, 200, feed.text);
      assertWellFormed(feed.text);
      const seen = expandFile(feed.text, '2026-03-31 23:59:59');
      assert.equal(seen.length, list.length, `${description}: one client occurrence per listed event`);
      const masters = new Map<number, any>();
      for (const event of list) {
        if (event.post_parent && !masters.has(event.post_parent)) masters.set(event.post_parent, (await t.request('GET', `${EVENTS}/${event.post_parent}`, { as: 'administrator' })).body);
      }
      for (const event of list) {
        const uid = `${event.post_parent ?? event.id}@calendar.test`;
        const start = event.all_day ? event.start_date.slice(0, 10) : event.utc_start_date;
        const match = seen.filter((item) => item.uid === uid && item.start === start);
        assert.equal(match.length, 1, `${description}: ${event.title} at ${start}`);
        const [item] = match;
        const label = `${description}: ${event.title} ${start}`;
        const vevent = item.item;
        assert.equal(item.allDay, event.all_day === true || (event.all_day === null && item.allDay), label);
        if (item.allDay) assert.equal(item.end, nextDay(event.end_date.slice(0, 10)), label);
        else assert.equal(item.end, event.utc_end_date, label);
        if (event.post_parent) {
          const master = masters.get(event.post_parent);
          assert.notEqual(item.recurrenceId, null, label);
          const own = vevent.hasProperty('recurrence-id');
          assert.equal(item.sequence, await eventRevision(t, own ? event.id : master.id), label);
        } else {
          assert.equal(item.sequence, await eventRevision(t, event.id), label);
        }
        assert.equal(vevent.getFirstPropertyValue('summary'), event.title, label);
        // The rule's VEVENT links the series page (which opens the next occurrence), an exception its own.
        const fromRule = event.post_parent && !vevent.hasProperty('recurrence-id');
        assert.equal(vevent.getFirstPropertyValue('url'), fromRule ? masters.get(event.post_parent).url : event.url, label);
        assert.equal(vevent.getFirstPropertyValue('last-modified')?.toString(), `${(event.post_parent && !vevent.hasProperty('recurrence-id') ? masters.get(event.post_parent) : event).modified_utc.replace(' ', 'T')}Z`, label);
        assert.equal(vevent.getFirstPropertyValue('class') === 'PRIVATE', event.status === 'private', label);
        const locked = event.title === 'Members gala' && !query.includes('password');
        const text = String(vevent.getFirstPropertyValue('description') ?? '');
        assert.equal(text, locked ? 'Content is protected.' : htmlToPlainText(event.description), label);
        const venue = Array.isArray(event.venue) ? null : event.venue;
        assert.equal(String(vevent.getFirstPropertyValue('location') ?? '').split(', ')[0] || null, venue?.venue ?? null, label);
        assert.deepEqual(vevent.getFirstPropertyValue('geo') ?? null, venue?.geo_lat ? [venue.geo_lat, venue.geo_lng] : null, label);
        assert.deepEqual(vevent.getFirstProperty('categories')?.getValues() ?? [], event.categories.map((term: any) => term.name), label);
        assert.equal(vevent.getFirstPropertyValue('organizer') ?? null, event.organizer[0] ? `mailto:${event.organizer[0].email}` : null, label);
      }
    }

    test('visitor feed: every listed event and occurrence, with utc_* instants, text, venue, GEO, categories, organizer', async () => {
      await compare('visitor', '', 'visitor');
    });

    test('with the password and as an administrator (private events)', async () => {
      await compare('visitor', '&password=sesame', 'password');
      await compare('administrator', '&status=publish,private', 'administrator');
    });

    test('series: one VEVENT with RRULE/EXDATE, exceptions with RECURRENCE-ID, the repeated hour in UTC; expand=1 gives one VEVENT per occurrence', async () => {
      const file = (await t.request('GET', `${NS}/events/${made.weekly.id}.ics`)).text;
      assert.match(file, /RRULE:FREQ=WEEKLY;COUNT=8;BYDAY=MO\r\n/);
      assert.match(file, /EXDATE;TZID=Europe\/Rome:20251103T193000\r\n/, 'the trashed occurrence');
      assert.match(file, /EXDATE;TZID=Europe\/Rome:20251117T193000\r\n/, 'the date-only exclusion at the instance start');
      assert.match(file, /RECURRENCE-ID;TZID=Europe\/Rome:20251013T193000\r\n/);
      assert.match(file, /RECURRENCE-ID;TZID=Europe\/Rome:20251020T193000\r\nDTSTART;TZID=Europe\/Rome:20251021T180000\r\n/);
      assert.equal(file.match(/BEGIN:VEVENT/g)!.length, 3);
      assert.match(file, /TZID:Europe\/Rome\r\n/);
      const night = (await t.request('GET', `${NS}/events/${made.night.id}.ics`)).text;
      assert.match(night, /RECURRENCE-ID;TZID=Europe\/Rome:20251026T023000\r\nDTSTART:20251026T013000Z\r\nDTEND:20251026T020000Z\r\n/);
      const market = (await t.request('GET', `${NS}/events/${made.market.id}.ics`)).text;
      assert.match(market, /DTSTART;VALUE=DATE:20250503\r\nDTEND;VALUE=DATE:20250504\r\nRRULE:FREQ=WEEKLY;UNTIL=20250524\r\nEXDATE;VALUE=DATE:20250510\r\n/);

      const occurrences = (await t.request('GET', `${EVENTS}?post_parent=${made.weekly.id}&${WINDOW}`)).body.events;
      const expanded = await t.request('GET', `${NS}/events.ics?${WINDOW}&post_parent=${made.weekly.id}&expand=1`);
      const uids = expandFile(expanded.text, '2026-03-31 23:59:59').map((item) => item.uid);
      assert.deepEqual(uids, occurrences.map((event: any) => `${event.id}@calendar.test`));
      assert.doesNotMatch(expanded.text, /RRULE|RECURRENCE-ID/);
      const single = await t.request('GET', `${NS}/events/${occurrences[0].id}.ics`);
      assert.doesNotMatch(single.text, /RRULE/);
      assert.match(single.text, new RegExp(`UID:${occurrences[0].id}@calendar\\.test\\r\\n`));
      const hidden = await t.request('GET', `${NS}/events/${made.hidden.id}.ics`);
      assert.match(hidden.text, /SUMMARY:Backstage\r\n/, 'a hidden event has its own file');
      assert.doesNotMatch((await t.request('GET', `${NS}/events.ics?${WINDOW}`)).text, /Backstage/);
    });

    test('an occurrence the caller may not see is excluded from the rule, not shown', async () => {
      const occurrences = (await t.request('GET', `${EVENTS}?post_parent=${made.night.id}&${WINDOW}`)).body.events;
      await t.request('POST', `${EVENTS}/${occurrences[1].id}`, { as: 'administrator', body: { status: 'private' } });
      const visitor = (await t.request('GET', `${NS}/events.ics?${WINDOW}&post_parent=${made.night.id}`)).text;
      assert.match(visitor, /EXDATE;TZID=Europe\/Rome:20251025T023000\r\n/);
      assert.equal(expandFile(visitor, '2026-03-31 23:59:59').length, 3);
      const admin = (await t.request('GET', `${NS}/events.ics?${WINDOW}&post_parent=${made.night.id}&status=publish,private`, { as: 'administrator' })).text;
      assert.equal(expandFile(admin, '2026-03-31 23:59:59').length, 4);
      await compare('administrator', '&status=publish,private', 'administrator after the change');
    });
  });
}
