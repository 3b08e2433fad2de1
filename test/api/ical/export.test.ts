import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { clock, createEvent, EVENTS } from '../events/fixtures.ts';
import { assertWellFormed, parseEvents } from './file-helpers.ts';

const FEED = `${NS}/events.ics`;

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
      assert.match(res.text, /X-WR-TIMEZONE:Europe\/Rome\r\nREFRESH-INTERVAL;VALUE=DURATION:PT1H\r\nX-PUBLISHED-TTL:PT1H\r\n/);
      assert.match(res.text, /X-WR-CALDESC:Events for Test Site\r\n/);
    });

    test('escaping and folding: names with , ; \ " and newlines, an 8,000+ character multi-byte description', async () => {
      const long = 'Größenwahn ünd Überfluss — '.repeat(400);
      const event = await createEvent(t, 'administrator', {
        title: 'A, b; c\\ "d"',
        description: `<p>First line</p><p>Second; line, with \\ backslash</p>${long}`,
        start_date: '2025-06-01 10:00:00', end_date: '2025-06-01 11:00:00',
        venue: { venue: 'Hall, "Big"; \\ Main', address: 'Line 1\nLine 2', city: 'Pisa' },
        organizer: [{ organizer: 'Org, "Quoted"; Name', email: 'org@example.org' }],
        categories: ['Music, Live', 'Semi; colon'],
      });
      const res = await t.request('GET', `${NS}/events/${event.id}.ics`);
      assert.equal(res.status, 200, res.text);
      assertWellFormed(res.text);
      const [item] = parseEvents(res.text);
      assert.equal(item.summary, 'A, b; c\\ "d"');
      const description = String(item.vevent.getFirstPropertyValue('description'));
      assert.ok(description.startsWith('First line\n\nSecond; line, with \\ backslash\nGrößenwahn'), description.slice(0, 80));
      assert.ok(description.endsWith(` … ${event.url}`));
      assert.ok(description.length <= 8000 + 3 + event.url.length);
      assert.equal(item.vevent.getFirstPropertyValue('location'), `Hall, "Big"; \\ Main, ${event.venue.address}, Pisa`);
      const organizer = item.vevent.getFirstProperty('organizer')!;
      assert.equal(organizer.getFirstValue(), 'mailto:org@example.org');
      assert.equal(organizer.getParameter('cn'), "Org, 'Quoted'; Name");
      assert.deepEqual(item.vevent.getFirstProperty('categories')!.getValues(), ['Music, Live', 'Semi; colon']);
      assert.match(res.text, /SUMMARY:A\\, b\\; c\\\\ "d"\r\n/);
      assert.equal(res.headers['content-disposition'], `attachment; filename="test-site-${event.slug}.ics"`);
      const bySlug = await t.request('GET', `${NS}/events/by-slug/${event.slug}.ics`);
      assert.equal(bySlug.text, res.text);
    });

    test('protected and private events: blanked for visitors, whole with the password, private for its readers only', async () => {
      const locked = await createEvent(t, 'administrator', {
        title: 'Locked Gala', password: 'sesame', description: 'Secret plan', start_date: '2025-06-02 10:00:00', end_date: '2025-06-02 11:00:00',
        venue: { venue: 'Secret Hall' }, organizer: [{ organizer: 'Secret Org', email: 'secret@example.org' }], categories: ['Hidden'],
        image: 'https://img.example.org/gala.jpg',
      });
      const visitor = await t.request('GET', `${NS}/events/${locked.id}.ics`);
      assert.equal(visitor.status, 200);
      assert.match(visitor.text, /DESCRIPTION:Content is protected\.\r\n/);
      for (const leak of ['Secret', 'LOCATION', 'ORGANIZER', 'CATEGORIES', 'ATTACH']) assert.ok(!visitor.text.includes(leak), leak);
      assert.equal(visitor.headers['cache-control'], 'public, max-age=300');
      const danish = await t.request('GET', `/da${NS}/events/${locked.id}.ics`);
      assert.match(danish.text, /DESCRIPTION:Indholdet er beskyttet\.\r\n/);
      assert.match(danish.text, /X-WR-CALDESC:Begivenheder for Test Site\r\n/);
      const unlocked = await t.request('GET', `${NS}/events/${locked.id}.ics?password=sesame`);
      assert.match(unlocked.text, /DESCRIPTION:Secret plan\r\n/);
      assert.match(unlocked.text, /LOCATION:Secret Hall\r\n/);
      assert.match(unlocked.text, /ATTACH;FMTTYPE=image\/jpeg:https:\/\/img\.example\.org\/gala\.jpg\r\n/);
      assert.equal(unlocked.headers['cache-control'], 'private, no-store');
      const feed = await t.request('GET', `${FEED}?start_date=2025-06-02&end_date=2025-06-02 23:59`);
      assert.match(feed.text, /Content is protected/);
      assert.ok(!feed.text.includes('Secret Hall'));

      const secret = await createEvent(t, 'editor', { title: 'Private Meeting', status: 'private', start_date: '2025-06-03 10:00:00', end_date: '2025-06-03 11:00:00' });
      const hidden = await t.request('GET', `${NS}/events/${secret.id}.ics`);
      assert.deepEqual([hidden.status, hidden.body.code], [403, 'event-not-accessible']);
      const editor = await t.request('GET', `${NS}/events/${secret.id}.ics`, { as: 'editor' });
      assert.match(editor.text, /CLASS:PRIVATE\r\n/);
      assert.match(String(editor.headers['cache-control']), /private/);
      const feedIds = async (as: 'visitor' | 'editor') => parseEvents((await t.request('GET', `${FEED}?start_date=2025-06-03&end_date=2025-06-03 23:59`, { as })).text).map((item) => item.summary);
      assert.deepEqual(await feedIds('visitor'), []);
      assert.deepEqual(await feedIds('editor'), ['Private Meeting']);
    });

    test('single-event errors are JSON as in 10 §5', async () => {
      const missing = await t.request('GET', `${NS}/events/999999.ics`);
      assert.deepEqual([missing.status, missing.body.code], [404, 'rest-event-not-found']);
      const slug = await t.request('GET', `${NS}/events/by-slug/no-such-event.ics`);
      assert.deepEqual([slug.status, slug.body.code], [400, 'rest_invalid_param']);
      const trashed = await createEvent(t, 'editor', { title: 'Gone' });
      await t.request('DELETE', `${NS}/events/${trashed.id}`, { as: 'editor' });
      const gone = await t.request('GET', `${NS}/events/${trashed.id}.ics`);
      assert.deepEqual([gone.status, gone.body.code], [403, 'event-no-longer-available']);
      const venue = (await t.request('POST', `${NS}/venues`, { as: 'editor', body: { venue: 'Not an event' } })).body;
      const wrong = await t.request('GET', `${NS}/events/${venue.id}.ics`);
      assert.deepEqual([wrong.status, wrong.body.code], [400, 'rest-invalid-event-id']);
    });

    test('feed = list: same ids in the same order for the list filters, same 400 bodies for bad values', async () => {
      const queries = [
        '', '?start_date=2025-01-01&end_date=2026-12-31', '?search=Kathmandu', '?categories=music-live', '?featured=0',
        '?starts_after=2025-05-01&starts_before=2025-06-30', '?start_date=2025-01-01&end_date=2026-12-31&status=publish',
      ];
      for (const query of queries) {
        const list = await t.request('GET', `${EVENTS}${query}${query ? '&' : '?'}per_page=50`);
        const feed = await t.request('GET', `${FEED}${query}`);
        assert.equal(feed.status, 200, query);
        const uids = parseEvents(feed.text).map((item) => item.uid);
        assert.deepEqual(uids, list.body.events.map((event: any) => `${event.id}@calendar.test`), query);
        assert.equal(feed.headers['x-tec-total'], String(list.body.total), query);
      }
      const named = await t.request('GET', `${FEED}?categories=music-live`);
      assert.match(named.text, /X-WR-CALNAME:Test Site – Music\\, Live\r\nNAME:Test Site – Music\\, Live\r\n/);
      assert.match((await t.request('GET', `${FEED}?categories=music-live,semi-colon`)).text, /X-WR-CALNAME:Test Site\r\n/);
      for (const query of ['?start_date=not-a-date', '?categories=', '?page=0', '?featured=maybe']) {
        const list = await t.request('GET', `${EVENTS}${query}`);
        const feed = await t.request('GET', `${FEED}${query}`);
        assert.equal(feed.status, 400, query);
        assert.deepEqual(feed.body, list.body, query);
      }
    });

    test('headers: ETag, 304, limit validation and clamp, truncation, caching per cache epoch', async () => {
      const query = '?start_date=2025-01-01&end_date=2026-12-31';
      const first = await t.request('GET', `${FEED}${query}`);
      const etag = String(first.headers.etag);
      assert.match(etag, /^"l-[A-Za-z0-9_-]{22}"$/);
      assert.equal(first.headers['x-robots-tag'], 'noindex, nofollow');
      assert.equal(first.headers['content-disposition'], 'attachment; filename="test-site-events.ics"');
      assert.match(String(first.headers.link), /^<webcal:\/\/calendar\.test\/calendar\/events\/v1\/events\.ics\?start_date=2025-01-01&end_date=2026-12-31>; rel="alternate"/);
      const before = await t.queryCount();
      const again = await t.request('GET', `${FEED}${query}`, { headers: { 'if-none-match': etag } });
      assert.equal(again.status, 304);
      assert.equal(again.text, '');
      assert.equal((await t.queryCount()) - before, 0, 'a repeated feed costs no query');
      const head = await t.app.inject({ method: 'HEAD', url: `${FEED}${query}`, headers: { 'if-none-match': etag } });
      assert.equal(head.statusCode, 304);
      const other = await startTestApp(dialect, { clock, env: { CALENDAR_SITE_NAME: 'Test Site', CALENDAR_TIMEZONE: 'Europe/Rome' } });
      try {
        await createEvent(other, 'editor', { title: 'Same' });
        const a = await other.request('GET', `${FEED}?search=Same`);
        const b = await t.request('GET', `${FEED}?search=NothingMatches`);
        const c = await other.request('GET', `${FEED}?search=NothingMatches`);
        assert.equal(b.headers.etag, c.headers.etag, 'same body, same tag on two instances');
        assert.notEqual(a.headers.etag, c.headers.etag);
      } finally {
        await other.close();
      }
      const limited = await t.request('GET', `${FEED}${query}&limit=2`);
      assert.equal(parseEvents(limited.text).length, 2);
      assert.equal(limited.headers['x-calendar-truncated'], '1');
      assert.equal((await t.request('GET', `${FEED}${query}&limit=5000`)).status, 200);
      for (const bad of ['0', '-1', 'many']) {
        const res = await t.request('GET', `${FEED}?limit=${bad}`);
        assert.deepEqual([res.status, res.body.code, Object.keys(res.body.data.params)], [400, 'rest_invalid_param', ['limit']], bad);
      }
      await createEvent(t, 'editor', { title: 'Changes the feed', start_date: '2025-07-01 10:00:00', end_date: '2025-07-01 11:00:00' });
      const changed = await t.request('GET', `${FEED}${query}`, { headers: { 'if-none-match': etag } });
      assert.equal(changed.status, 200);
      assert.match(changed.text, /SUMMARY:Changes the feed/);
    });
  });
}
