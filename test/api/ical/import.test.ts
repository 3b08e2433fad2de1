import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { clock } from '../events/fixtures.ts';
import { fixture, importBytes, IMPORTS, rowCounts } from './import-helpers.ts';

const get = async (t: TestApp, id: number) => (await t.request('GET', `${NS}/events/${id}`, { as: 'administrator' })).body;

for (const dialect of DIALECTS) {
  describe(`iCalendar import [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock, env: { CALENDAR_TIMEZONE: 'Europe/London', CALENDAR_IMPORT_MAX_EVENTS: '20' } });
    });
    after(() => t.close());

    test('Google export: UTC times in X-WR-TIMEZONE, folded text, all-day, venue, organizer, categories', async () => {
      const { status, body } = await importBytes(t, fixture('google.ics'));
      assert.equal(status, 200, JSON.stringify(body));
      assert.deepEqual(body.totals, { created: 2, updated: 0, unchanged: 0, skipped: 0, ignored: 2 });
      assert.deepEqual(body.calendar, { name: 'Team events', prodid: '-//Google Inc//Google Calendar 70.9054//EN' });
      assert.equal(body.items[0].line, 8);
      const concert = await get(t, body.items[0].event_id);
      assert.equal(concert.title, 'Spring Concert');
      assert.equal(concert.timezone, 'Europe/Rome');
      assert.equal(concert.start_date, '2025-04-12 19:30:00');
      assert.equal(concert.utc_start_date, '2025-04-12 17:30:00');
      assert.equal(concert.end_date, '2025-04-12 22:00:00');
      assert.match(concert.description, /Bring your own instrument, please\.<br \/>\nDoors open at 19:00 and the concert starts at 19:30\./);
      assert.equal(concert.venue.venue, 'Teatro Verdi');
      assert.equal(concert.venue.address, 'Via Roma 1, Pisa, Italy');
      assert.equal(concert.organizer[0].organizer, 'Anna Rossi');
      assert.equal(concert.organizer[0].email, 'anna@example.org');
      const holidays = await get(t, body.items[1].event_id);
      assert.equal(holidays.all_day, true);
      assert.equal(holidays.start_date, '2025-04-20 00:00:00');
      assert.equal(holidays.end_date, '2025-04-22 23:59:59');
      assert.deepEqual(holidays.categories.map((term: any) => term.name).sort(), ['Family', 'Holidays']);
    });

    test('idempotent: the same file again is all unchanged and writes nothing', async () => {
      const before = await rowCounts(t);
      const versionBefore = await t.storage.db.selectFrom('data_version').select('version').executeTakeFirstOrThrow();
      const { body } = await importBytes(t, fixture('google.ics'));
      assert.deepEqual(body.totals, { created: 0, updated: 0, unchanged: 2, skipped: 0, ignored: 2 });
      assert.deepEqual(await rowCounts(t), before);
      assert.deepEqual(await t.storage.db.selectFrom('data_version').select('version').executeTakeFirstOrThrow(), versionBefore);
    });

    test('Outlook export: Windows zone names mapped, a file-defined zone converted, CLASS:PRIVATE', async () => {
      const { status, body } = await importBytes(t, fixture('outlook.ics'));
      assert.equal(status, 200, JSON.stringify(body));
      assert.deepEqual(body.items.map((item: any) => [item.result, item.warnings]), [['created', ['timezone-mapped']], ['created', ['timezone-converted']]]);
      const planning = await get(t, body.items[0].event_id);
      assert.equal(planning.timezone, 'Europe/Berlin');
      assert.equal(planning.start_date, '2025-04-15 09:30:00');
      assert.equal(planning.utc_start_date, '2025-04-15 07:30:00');
      const island = await get(t, body.items[1].event_id);
      assert.equal(island.utc_start_date, '2025-04-16 08:30:00');
      assert.equal(island.timezone, 'Europe/London');
      assert.equal(island.status, 'private');
    });

    test('reference export: unfolded, TZID=UTC, its UIDs; the rescheduled file updates instead of duplicating', async () => {
      const first = await importBytes(t, fixture('reference.ics'));
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.body.items[0].uid, 'tec:10@old.example.org');
      const id = first.body.items[0].event_id;
      const event = await get(t, id);
      assert.equal(event.timezone, 'UTC');
      assert.equal(event.utc_start_date, '2025-04-12 14:00:00');
      assert.equal(event.website, 'https://old.example.org/event/jazz-night/');
      assert.equal(event.organizer[0].email, 'club@example.org');
      const counts = await rowCounts(t);
      const moved = await importBytes(t, fixture('reference-rescheduled.ics'));
      assert.deepEqual(moved.body.items.map((item: any) => [item.result, item.event_id]), [['updated', id]]);
      assert.deepEqual(await rowCounts(t), counts);
      const after = await get(t, id);
      assert.equal(after.title, 'Jazz Night (moved)');
      assert.equal(after.utc_start_date, '2025-04-13 14:00:00');
      assert.equal(after.slug, event.slug, 'slug kept on update');
      const skip = await importBytes(t, fixture('reference.ics'), '?update=skip');
      assert.deepEqual(skip.body.items.map((item: any) => [item.result, item.reason]), [['skipped', 'exists']]);
    });

    test('recurrence: RRULE + EXDATE imported as a series, RECURRENCE-ID overrides its occurrence, a refused rule skipped, EXRULE dropped', async () => {
      const { status, body } = await importBytes(t, fixture('overrides.ics'));
      assert.equal(status, 200, JSON.stringify(body));
      assert.deepEqual(body.items.map((item: any) => [item.line, item.result, item.reason ?? item.warnings]), [
        [4, 'created', undefined],
        [13, 'created', undefined],
        [21, 'skipped', 'recurrence-invalid'],
      ]);
      const master = await get(t, body.items[0].event_id);
      assert.deepEqual(master.recurrence.ical, [
        'DTSTART;TZID=Europe/Berlin:20250407T180000', 'DTEND;TZID=Europe/Berlin:20250407T190000', 'RRULE:FREQ=WEEKLY;COUNT=6', 'EXDATE;TZID=Europe/Berlin:20250414T180000',
      ]);
      const occurrences = (await t.request('GET', `${NS}/events?post_parent=${master.id}&start_date=2025-04-01&end_date=2025-06-30`)).body.events;
      assert.deepEqual(occurrences.map((event: any) => [event.start_date, event.title]), [
        ['2025-04-07 18:00:00', 'Yoga'], ['2025-04-21 19:00:00', 'Yoga (late)'], ['2025-04-28 18:00:00', 'Yoga'], ['2025-05-05 18:00:00', 'Yoga'], ['2025-05-12 18:00:00', 'Yoga'],
      ]);
      assert.equal(body.items[1].event_id, occurrences[1].id, 'the override is the occurrence of 21 April');
      assert.equal(occurrences[1].recurrence_id, '2025-04-21 18:00:00');
      assert.equal(occurrences[1].utc_end_date, '2025-04-21 18:00:00');
      assert.equal(occurrences[1].recurrence_exception, true);

      const counts = await rowCounts(t);
      const again = await importBytes(t, fixture('overrides.ics'));
      assert.deepEqual(again.body.items.map((item: any) => item.result), ['unchanged', 'unchanged', 'skipped']);
      const edited = await importBytes(t, fixture('overrides.ics').toString().replace('SUMMARY:Yoga (late)', 'SUMMARY:Yoga (later)'));
      assert.deepEqual(edited.body.items.map((item: any) => item.result), ['unchanged', 'updated', 'skipped']);
      assert.deepEqual(await rowCounts(t), counts, 'no new rows');
      assert.equal((await get(t, occurrences[1].id)).title, 'Yoga (later)');
      assert.equal((await get(t, occurrences[2].id)).title, 'Yoga', 'the other occurrences are untouched');

      const orphan = await importBytes(t, 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:nobody@example.com\r\nRECURRENCE-ID:20250410T100000Z\r\nDTSTART:20250410T110000Z\r\nSUMMARY:Lost\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n');
      assert.deepEqual(orphan.body.items.map((item: any) => [item.result, item.reason]), [['skipped', 'recurrence-override']]);
    });

    test('Outlook series: Windows zone names in DTSTART, EXDATE and RECURRENCE-ID; the moved occurrence keeps the series zone', async () => {
      const { status, body } = await importBytes(t, fixture('outlook-series.ics'));
      assert.equal(status, 200, JSON.stringify(body));
      assert.deepEqual(body.items.map((item: any) => [item.result, item.warnings]), [['created', ['timezone-mapped']], ['created', ['timezone-mapped']]]);
      const occurrences = (await t.request('GET', `${NS}/events?post_parent=${body.items[0].event_id}&start_date=2025-04-01&end_date=2025-05-31`)).body.events;
      assert.deepEqual(occurrences.map((event: any) => [event.timezone, event.start_date, event.utc_start_date, event.venue.venue]), [
        ['Europe/Berlin', '2025-04-08 09:00:00', '2025-04-08 07:00:00', 'Room 4'],
        ['Europe/Berlin', '2025-04-15 10:00:00', '2025-04-15 08:00:00', 'Room 5'],
        ['Europe/Berlin', '2025-04-29 09:00:00', '2025-04-29 07:00:00', 'Room 4'],
        ['Europe/Berlin', '2025-05-06 09:00:00', '2025-05-06 07:00:00', 'Room 4'],
      ]);
      assert.equal(body.items[1].event_id, occurrences[1].id);
    });

    test('a plain event that gains a rule in the file becomes a series, and a plain event again when the rule goes', async () => {
      const file = (rule: string) => `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:club@example.com\r\nDTSTART;TZID=Europe/Rome:20250602T180000\r\nDTEND;TZID=Europe/Rome:20250602T190000\r\n${rule}SUMMARY:Book club\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`;
      const plain = await importBytes(t, file(''));
      const id = plain.body.items[0].event_id;
      const series = await importBytes(t, file('RRULE:FREQ=WEEKLY;COUNT=3\r\n'));
      assert.equal(series.body.items[0].result, 'updated');
      const masterId = series.body.items[0].event_id;
      assert.notEqual(masterId, id);
      assert.equal((await get(t, id)).post_parent, masterId, 'the event keeps its id as the first occurrence');
      assert.equal((await get(t, masterId)).occurrences.count, 3);
      assert.equal((await importBytes(t, file('RRULE:FREQ=WEEKLY;COUNT=3\r\n'))).body.items[0].result, 'unchanged');
      const again = await importBytes(t, file(''));
      assert.deepEqual(again.body.items.map((item: any) => [item.result, item.event_id]), [['updated', masterId]]);
      const master = await get(t, masterId);
      assert.equal(master.recurrence, undefined, 'a plain event again');
      assert.equal(master.start_date, '2025-06-02 18:00:00');
    });

    test('billion-laughs recurrences: refused rules skip, the occurrences of one file are capped (413, nothing written)', async () => {
      const before = await rowCounts(t);
      const series = (i: number, rule: string) => `BEGIN:VEVENT\r\nUID:flood-${i}@example.com\r\nDTSTART:20250410T100000Z\r\nSUMMARY:Flood ${i}\r\nRRULE:${rule}\r\nEND:VEVENT\r\n`;
      const file = (rules: string[]) => `BEGIN:VCALENDAR\r\nVERSION:2.0\r\n${rules.map((rule, i) => series(i, rule)).join('')}END:VCALENDAR\r\n`;
      const refused = await importBytes(t, file(['FREQ=SECONDLY;COUNT=999999999', 'FREQ=DAILY;COUNT=99999', 'FREQ=HOURLY']), '?dry_run=1');
      assert.equal(refused.status, 200, JSON.stringify(refused.body));
      assert.deepEqual(refused.body.items.map((item: any) => item.reason), ['recurrence-invalid', 'recurrence-invalid', 'recurrence-invalid']);
      const flood = await importBytes(t, file(Array.from({ length: 8 }, () => 'FREQ=DAILY;COUNT=700')));
      assert.deepEqual([flood.status, flood.body.code, flood.body.data.reason], [413, 'ical-too-large', 'too-large']);
      assert.deepEqual(await rowCounts(t), before);
    });

    test('GEO: coordinates on a venue the import creates; ignored with a warning on a reused venue, out of range, or without LOCATION', async () => {
      const vevent = (uid: string, lines: string) => `BEGIN:VEVENT\r\nUID:${uid}@geo.example\r\nDTSTART:20250420T100000Z\r\nSUMMARY:Geo ${uid}\r\n${lines}END:VEVENT\r\n`;
      const file = `BEGIN:VCALENDAR\r\nVERSION:2.0\r\n${[
        vevent('a', 'LOCATION:Torre\\, Piazza dei Miracoli\r\nGEO:43.723;10.3966\r\n'),
        vevent('b', 'LOCATION:Torre\\, Piazza dei Miracoli\r\nGEO:43.8;10.5\r\n'),
        vevent('c', 'LOCATION:Elsewhere\r\nGEO:95;10\r\n'),
        vevent('d', 'GEO:43.7;10.4\r\n'),
      ].join('')}END:VCALENDAR\r\n`;
      const { status, body } = await importBytes(t, file);
      assert.equal(status, 200, JSON.stringify(body));
      assert.deepEqual(body.items.map((item: any) => item.warnings), [undefined, ['geo-ignored'], ['geo-ignored'], ['geo-ignored']]);
      const venue = (await get(t, body.items[0].event_id)).venue;
      assert.deepEqual([venue.venue, venue.geo_lat, venue.geo_lng], ['Torre', 43.723, 10.3966]);
      assert.equal((await get(t, body.items[1].event_id)).venue.id, venue.id, 'reused, coordinates kept');
      assert.equal((await get(t, body.items[2].event_id)).venue.geo_lat, undefined);
    });

    test('dry run reports what a real run would do and writes nothing', async () => {
      const before = await rowCounts(t);
      const dry = await importBytes(t, fixture('google.ics').toString().replace(/google\.com/g, 'other.example'), '?dry_run=1');
      assert.equal(dry.body.dry_run, true);
      assert.deepEqual(dry.body.totals, { created: 2, updated: 0, unchanged: 0, skipped: 0, ignored: 2 });
      assert.deepEqual(await rowCounts(t), before);
    });

    test('hostile files: a clear error with the exact line, nothing written', async () => {
      const before = await rowCounts(t);
      const cases: Array<[string, number, string]> = [
        ['broken-folding.ics', 12, 'malformed-line'],
        ['unbalanced.ics', 12, 'unbalanced-component'],
        ['bad-date.ics', 12, 'malformed-date'],
        ['bad-duration.ics', 12, 'malformed-duration'],
        ['bad-rrule.ics', 12, 'malformed-rrule'],
        ['trailing.ics', 14, 'trailing-content'],
        ['not-icalendar.ics', 1, 'not-icalendar'],
        ['open-block.ics', 1, 'unbalanced-component'],
        ['latin1.ics', 6, 'invalid-utf8'],
      ];
      for (const [name, line, reason] of cases) {
        const { status, body } = await importBytes(t, fixture(name));
        assert.equal(status, 400, name);
        assert.equal(body.code, 'ical-parse-error', name);
        assert.deepEqual([body.data.status, body.data.line, body.data.reason], [400, line, reason], name);
        assert.equal(typeof body.message, 'string');
      }
      const garbage = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));
      assert.equal((await importBytes(t, garbage)).body.data.reason, 'invalid-utf8');
      const laughs = await importBytes(t, fixture('billion-laughs.ics'));
      assert.deepEqual([laughs.status, laughs.body.code, laughs.body.data], [413, 'ical-too-large', { status: 413, reason: 'too-large', limit: 'nesting', line: 10 }]);
      // 10 MB of one property, folded over many physical lines: the line where it starts.
      const folded = 'x'.repeat(10_000_000).replace(/(.{74})/g, '$1\r\n ');
      const huge = `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:huge@example.com\r\nSUMMARY:${folded}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`;
      const tooLong = await importBytes(t, huge, '?dry_run=1');
      assert.deepEqual([tooLong.status, tooLong.body.data.limit, tooLong.body.data.line], [413, 'line', 5]);
      assert.deepEqual(await rowCounts(t), before);
    });

    test('access and request errors', async () => {
      const file = fixture('google.ics');
      assert.equal((await importBytes(t, file, '', 'visitor')).status, 401);
      assert.equal((await importBytes(t, file, '', 'editor')).body.code, 'rest_forbidden');
      assert.equal((await importBytes(t, file, '', 'editor')).status, 403);
      const badStatus = await importBytes(t, file, '?status=trash');
      assert.deepEqual([badStatus.status, badStatus.body.code], [400, 'rest_invalid_param']);
      const url = await t.request('POST', IMPORTS, { as: 'administrator', body: { url: 'https://example.org/cal.ics' } });
      assert.deepEqual([url.status, url.body.code], [400, 'ical-url-not-allowed']);
      const none = await t.request('POST', IMPORTS, { as: 'administrator', body: {} });
      assert.deepEqual([none.status, none.body.code], [400, 'rest_missing_callback_param']);
      const wrongType = await t.request('POST', IMPORTS, { as: 'administrator', body: 'BEGIN:VCALENDAR', headers: { 'content-type': 'application/xml' } });
      assert.deepEqual([wrongType.status, wrongType.body.code], [415, 'ical-unsupported-media-type']);
    });

    test('multipart upload with options as form fields; the caps of C.9 answer 413', async () => {
      const boundary = 'calendarBoundary42';
      const part = (headers: string, content: Buffer | string) => Buffer.concat([Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`), Buffer.from(content), Buffer.from('\r\n')]);
      const payload = Buffer.concat([
        part('Content-Disposition: form-data; name="dry_run"', '1'),
        part('Content-Disposition: form-data; name="category[]"', 'Extra'),
        part('Content-Disposition: form-data; name="file"; filename="google.ics"\r\nContent-Type: text/calendar', fixture('google.ics').toString().replace(/google\.com/g, 'multipart.example')),
        Buffer.from(`--${boundary}--\r\n`),
      ]);
      const headers = { authorization: t.authHeader(t.users.administrator), 'content-type': `multipart/form-data; boundary=${boundary}` };
      const res = await t.app.inject({ method: 'POST', url: IMPORTS, headers, payload });
      const body = JSON.parse(res.body);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(body.dry_run, true);
      assert.equal(body.totals.created, 2);

      const before = await rowCounts(t);
      const vevent = (i: number) => `BEGIN:VEVENT\r\nUID:many-${i}@example.com\r\nDTSTART:20250410T100000Z\r\nSUMMARY:Many ${i}\r\nEND:VEVENT\r\n`;
      const many = `BEGIN:VCALENDAR\r\nVERSION:2.0\r\n${Array.from({ length: 21 }, (_, i) => vevent(i)).join('')}END:VCALENDAR\r\n`;
      const tooMany = await importBytes(t, many);
      assert.deepEqual([tooMany.status, tooMany.body.code, tooMany.body.data.reason], [413, 'ical-too-large', 'too-large']);
      const oversized = await importBytes(t, Buffer.alloc(10 * 1024 * 1024 + 1, 0x41));
      assert.deepEqual([oversized.status, oversized.body.code], [413, 'ical-too-large']);
      const json = await t.request('POST', `${NS}/events`, { as: 'administrator', body: 'x'.repeat(2 * 1024 * 1024), headers: { 'content-type': 'text/calendar' } });
      assert.deepEqual([json.status, json.body.code], [413, 'rest_request_too_large'], 'other routes keep CALENDAR_BODY_LIMIT');
      assert.deepEqual(await rowCounts(t), before);
    });

    test('concurrent imports of one file create each event once', async () => {
      const file = fixture('google.ics').toString().replace(/google\.com/g, 'concurrent.example');
      const [one, two] = await Promise.all([importBytes(t, file), importBytes(t, file)]);
      assert.deepEqual([one.status, two.status], [200, 200]);
      const results = [...one.body.items, ...two.body.items].map((item: any) => item.result).sort();
      assert.deepEqual(results, ['created', 'created', 'unchanged', 'unchanged']);
      assert.deepEqual(one.body.items.map((item: any) => item.event_id), two.body.items.map((item: any) => item.event_id));
    });
  });
}
