import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../helpers/test-app.ts';

/** Friday 2026-04-10, 12:00 in the site zone. */
const NOW = new Date('2026-04-10T10:00:00Z');
const EDITIONS = ['', '/da', '/it', '/es'];

interface ApiEvent {
  id: number;
  slug: string;
  title: string;
  url: string;
  start_date: string;
}

function jsonLd(html: string): unknown {
  const match = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html);
  return match ? JSON.parse(match[1]) : undefined;
}

function h1(html: string): string | undefined {
  return /<h1[^>]*>(.*?)<\/h1>/s.exec(html)?.[1];
}

// 55 §2 with 60 §2: the dated URL of each occurrence opens its single page, a series master's
// URL leads to one of its occurrences. Over HTTP (Fastify inject) on both databases.
for (const dialect of DIALECTS) {
  describe(`recurring events on the public pages [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let choir: ApiEvent;
    let pastSeries: ApiEvent;
    let standalone: ApiEvent;

    const get = (url: string) => t.request('GET', url);
    const post = async (path: string, body: Record<string, unknown>): Promise<ApiEvent> => {
      const res = await t.request('POST', `${NS}${path}`, { as: 'administrator', body });
      assert.equal(res.status, 201, res.text);
      return res.body;
    };
    const occurrencesOf = async (master: ApiEvent, edition = ''): Promise<ApiEvent[]> => {
      const res = await get(`${edition}${NS}/events?post_parent=${master.id}&start_date=2026-01-01&per_page=50`);
      assert.equal(res.status, 200, res.text);
      return res.body.events;
    };

    before(async () => {
      t = await startTestApp(dialect, { clock: () => NOW, env: { CALENDAR_TIMEZONE: 'Europe/Copenhagen' } });
      choir = await post('/events', {
        title: 'Weekly Choir', status: 'publish', start_date: '2026-04-03 19:00', end_date: '2026-04-03 21:00',
        recurrence: { rrule: 'FREQ=WEEKLY;COUNT=3' },
      });
      pastSeries = await post('/events', {
        title: 'Winter Course', status: 'publish', start_date: '2026-03-02 18:00', end_date: '2026-03-02 20:00',
        recurrence: { rrule: 'FREQ=WEEKLY;COUNT=2' },
      });
      standalone = await post('/events', { title: 'Single Talk', status: 'publish', start_date: '2026-04-14 10:00', end_date: '2026-04-14 11:00' });
    });
    after(() => t.close());

    test('every url the API returns for a weekly series opens its page, in every edition', async () => {
      for (const edition of EDITIONS) {
        const occurrences = await occurrencesOf(choir, edition);
        assert.deepEqual(occurrences.map((event) => event.start_date.slice(0, 10)), ['2026-04-03', '2026-04-10', '2026-04-17']);
        for (const occurrence of occurrences) {
          const path = new URL(occurrence.url).pathname;
          assert.equal(path, `${edition}/event/${choir.slug}/${occurrence.start_date.slice(0, 10)}/`);
          const res = await get(path);
          assert.equal(res.status, 200, `${path} → ${res.status}`);
          assert.equal(h1(res.text), 'Weekly Choir');
          // The page is this occurrence's: the json_ld the API gives it, its date included.
          const single = await get(`${edition}${NS}/events/${occurrence.id}`);
          assert.deepEqual(jsonLd(res.text), [single.body.json_ld], path);
          assert.match(res.text, new RegExp(`<link rel="canonical" href="http://calendar.test${edition}/event/${choir.slug}/${occurrence.start_date.slice(0, 10)}/"`));
        }
        // The master's url: 302 to the next occurrence that ends after now (today's evening one).
        const master = await get(`${edition}${NS}/events/${choir.id}`);
        assert.equal(master.status, 200);
        const res = await get(new URL(master.body.url).pathname);
        assert.equal(res.status, 302);
        assert.equal(res.headers.location, `${edition}/event/${choir.slug}/2026-04-10/`);
        assert.equal((await get(res.headers.location as string)).status, 200);
      }
    });

    test('a master whose occurrences have all ended leads to its last one', async () => {
      const res = await get(`/da/event/${pastSeries.slug}/`);
      assert.equal(res.status, 302);
      assert.equal(res.headers.location, `/da/event/${pastSeries.slug}/2026-03-09/`);
      const page = await get(res.headers.location as string);
      assert.equal(page.status, 200);
      assert.equal(h1(page.text), 'Winter Course');
    });

    test('a date with no occurrence, an impossible date and a dated standalone event are 404 pages', async () => {
      for (const path of [`/event/${choir.slug}/2026-04-11/`, `/it/event/${choir.slug}/2026-04-24/`, `/event/${choir.slug}/2026-02-30/`, `/event/${standalone.slug}/2026-04-14/`, '/event/no-such-series/2026-04-10/']) {
        const res = await get(path);
        assert.equal(res.status, 404, path);
        assert.match(String(res.headers['content-type']), /^text\/html/, path);
      }
      assert.equal((await get(`/event/${standalone.slug}/`)).status, 200);
      // Without the trailing slash: 301 to the slashed form, as every page.
      const bare = await get(`/event/${choir.slug}/2026-04-10`);
      assert.equal(bare.status, 301);
      assert.equal(bare.headers.location, `/event/${choir.slug}/2026-04-10/`);
    });

    test('iCalendar links: the dated URL gives the occurrence, the master URL the series', async () => {
      const [, second] = await occurrencesOf(choir);
      for (const path of [`/event/${choir.slug}/2026-04-10/ical/`, `/event/${choir.slug}/2026-04-10/?ical=1`]) {
        const res = await get(path);
        assert.equal(res.status, 302, path);
        assert.equal(res.headers.location, `http://calendar.test${NS}/events/${second.id}.ics`);
      }
      const series = await get(`/event/${choir.slug}/?ical=1`);
      assert.equal(series.status, 302);
      assert.equal(series.headers.location, `http://calendar.test${NS}/events/${choir.id}.ics`);
    });

    test('moved, trashed, hidden and draft occurrences follow the single page rules', async () => {
      const series = await post('/events', {
        title: 'Reading Circle', status: 'publish', start_date: '2026-05-04 17:00', end_date: '2026-05-04 18:00',
        recurrence: { rrule: 'FREQ=WEEKLY;COUNT=3' },
      });
      const [first, second, third] = await occurrencesOf(series);
      const moved = await t.request('POST', `${NS}/events/${second.id}`, { as: 'administrator', body: { start_date: '2026-05-12 17:00', end_date: '2026-05-12 18:00' } });
      assert.equal(moved.status, 200, moved.text);
      assert.equal(new URL(moved.body.url).pathname, `/event/${series.slug}/2026-05-12/`);
      assert.equal((await t.request('DELETE', `${NS}/events/${third.id}`, { as: 'administrator' })).status, 200);
      const urls = (await occurrencesOf(series)).map((event) => new URL(event.url).pathname);
      assert.deepEqual(urls, [`/event/${series.slug}/2026-05-04/`, `/event/${series.slug}/2026-05-12/`]);
      for (const url of urls) assert.equal((await get(url)).status, 200, url);
      assert.equal((await get(`/event/${series.slug}/2026-05-11/`)).status, 404, 'the moved occurrence left its date');
      assert.equal((await get(`/event/${series.slug}/2026-05-18/`)).status, 404, 'the trashed occurrence');
      assert.equal(first.start_date.slice(0, 10), '2026-05-04');

      // Hidden from listings: not listed, but its pages work, as a hidden event's page does.
      const hidden = await post('/events', {
        title: 'Quiet Practice', status: 'publish', hide_from_listings: true, start_date: '2026-04-21 08:00', end_date: '2026-04-21 09:00',
        recurrence: { rrule: 'FREQ=WEEKLY;COUNT=2' },
      });
      const quiet = await get(`/event/${hidden.slug}/`);
      assert.equal(quiet.status, 302);
      assert.equal(quiet.headers.location, `/event/${hidden.slug}/2026-04-21/`);
      assert.equal((await get(`/event/${hidden.slug}/2026-04-28/`)).status, 200);

      // A draft series: neither the master nor an occurrence has a page.
      const draft = await post('/events', {
        title: 'Planned Series', status: 'draft', start_date: '2026-04-22 08:00', end_date: '2026-04-22 09:00',
        recurrence: { rrule: 'FREQ=WEEKLY;COUNT=2' },
      });
      assert.equal((await get(`/event/${draft.slug}/`)).status, 404);
      assert.equal((await get(`/event/${draft.slug}/2026-04-22/`)).status, 404);
    });

    test('two occurrences on one date: the dated URL shows the first by start', async () => {
      const series = await post('/events', {
        title: 'Double Shift', status: 'publish', start_date: '2026-06-01 09:00', end_date: '2026-06-01 10:00',
        recurrence: { rrule: 'FREQ=WEEKLY;COUNT=2', rdate: ['2026-06-01 20:00'] },
      });
      const occurrences = await occurrencesOf(series);
      assert.deepEqual(occurrences.map((event) => event.start_date), ['2026-06-01 09:00:00', '2026-06-01 20:00:00', '2026-06-08 09:00:00']);
      const res = await get(`/event/${series.slug}/2026-06-01/`);
      assert.equal(res.status, 200);
      const first = await get(`${NS}/events/${occurrences[0].id}`);
      assert.deepEqual(jsonLd(res.text), [first.body.json_ld]);
    });
  });
}
