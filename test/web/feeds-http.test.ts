import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { DIALECTS, skipReason } from '../helpers/databases.ts';
import { NS } from '../helpers/test-app.ts';
import { startPageFixture, type PageFixture } from './fixture.ts';

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, isArray: (name) => ['item', 'category'].includes(name) });

interface RssItem {
  title: string;
  link: string;
  guid: { '#text': string; '@isPermaLink': string };
  pubDate: string;
  description: string;
  category?: Array<{ '#text': string; '@domain': string }>;
  'media:content'?: Record<string, string>;
  'ev:startdate': string;
  'ev:enddate': string;
  'ev:location'?: string;
}

interface Channel {
  title: string;
  link: string;
  description: string;
  language: string;
  lastBuildDate?: string;
  'atom:link': Record<string, string>;
  item?: RssItem[];
}

/** A feed body checked for well-formedness, then parsed. */
function parseFeed(xml: string): Channel {
  assert.equal(XMLValidator.validate(xml), true, 'the feed is well-formed XML');
  const doc = parser.parse(xml);
  assert.equal(doc.rss['@version'], '2.0');
  return doc.rss.channel;
}

const rfc822 = (utc: string) => new Date(`${utc.replace(' ', 'T')}Z`).toUTCString().replace('GMT', '+0000');

interface ApiEvent {
  id: number;
  title: string;
  url: string;
  global_id: string;
  date_utc: string;
  modified_utc: string;
  start_date: string;
}

// 130 §8 over HTTP on both databases: each feed parsed by a real XML parser and compared with the API's list.
for (const dialect of DIALECTS) {
  describe(`RSS feeds [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let f: PageFixture;
    let imageEventId: number;
    const oddTitle = 'Fish & Chips <live> ]]> \u0001end';
    before(async () => {
      f = await startPageFixture(dialect);
      const created = await f.t.request('POST', `${NS}/events`, {
        as: 'administrator',
        body: { title: oddTitle, status: 'publish', start_date: '2026-05-20 18:00', end_date: '2026-05-20 20:00', image: 'https://img.example.org/fish.jpg', excerpt: 'Fried fish by the water.' },
      });
      assert.equal(created.status, 201, created.text);
      imageEventId = created.body.id;
    });
    after(() => f.t.close());

    const get = (url: string, headers: Record<string, string> = {}) => f.t.request('GET', url, { headers });
    const api = async (edition: string, filter = ''): Promise<ApiEvent[]> =>
      (await get(`${edition}${NS}/events?per_page=50&strict_dates=1&ends_after=2026-04-10%2012:00:00${filter}`)).body.events;

    test('/events/feed/: the API\'s upcoming events in start order, channel texts, dates, guid', async () => {
      const res = await get('/events/feed/');
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-type'], 'application/rss+xml; charset=UTF-8');
      assert.equal(res.headers['cache-control'], 'public, max-age=60');
      assert.equal(res.headers['x-robots-tag'], 'noindex, follow');
      const channel = parseFeed(res.text);
      const expected = await api('');
      assert.ok(expected.length > 10);
      assert.deepEqual(channel.item!.map((item) => item.guid['#text']), expected.map((event) => event.global_id));
      assert.deepEqual(channel.item!.map((item) => item.link), expected.map((event) => event.url));
      assert.deepEqual(channel.item!.map((item) => item.pubDate), expected.map((event) => rfc822(event.date_utc)));
      assert.ok(channel.item!.every((item) => item.guid['@isPermaLink'] === 'false'));
      assert.equal(channel.title, 'Events – Town Calendar');
      assert.equal(channel.link, 'http://calendar.test/events/');
      assert.equal(channel.description, 'Upcoming events from Town Calendar');
      assert.equal(channel.language, 'en-us');
      assert.deepEqual(channel['atom:link'], { '@rel': 'self', '@type': 'application/rss+xml', '@href': 'http://calendar.test/events/feed/' });
      const newest = expected.map((event) => event.modified_utc).sort().pop()!;
      assert.equal(channel.lastBuildDate, rfc822(newest));
      for (const title of ['Hidden Rehearsal', 'Draft Plan', 'Private Board Meeting', 'Past Lecture']) {
        assert.ok(!channel.item!.some((item) => item.title === title), `${title} is absent`);
      }
    });

    test('items: schedule, venue and excerpt as text, categories with archive domains, image, event dates; odd titles stay well-formed', async () => {
      const channel = parseFeed((await get('/events/feed/')).text);
      const concert = channel.item!.find((item) => item.title === 'Opening Concert')!;
      assert.equal(concert.description, 'April 12 @ 7:30 pm – 10:00 pm · Harbour Hall, Kajgade 1, Aarhus, 8000, Denmark\n\nAn evening of jazz by the harbour.');
      assert.equal(concert['ev:startdate'], '2026-04-12T19:30:00+02:00');
      assert.equal(concert['ev:enddate'], '2026-04-12T22:00:00+02:00');
      assert.equal(concert['ev:location'], 'Harbour Hall, Kajgade 1, Aarhus, 8000, Denmark');
      assert.deepEqual(concert.category, [
        { '#text': 'Jazz', '@domain': 'http://calendar.test/events/category/jazz/' },
        { '#text': 'Outdoor', '@domain': 'http://calendar.test/events/tag/outdoor/' },
      ]);
      const market = channel.item!.find((item) => item.title === 'Spring Market')!;
      assert.equal(market['ev:startdate'], '2026-04-25');
      assert.equal(market['ev:enddate'], '2026-04-25');
      const odd = channel.item!.find((item) => item.link.includes(`fish-chips`))!;
      assert.equal(odd.title, (await get(`${NS}/events/${imageEventId}`)).body.title.replace('\u0001', ''));
      assert.match(odd.title, /^Fish & Chips <live> \]\]> /);
      assert.deepEqual(odd['media:content'], { '@url': 'https://img.example.org/fish.jpg', '@medium': 'image', '@type': 'image/jpeg' });
      assert.equal(odd.description, 'May 20 @ 6:00 pm – 8:00 pm\n\nFried fish by the water.');
    });

    test('a protected event keeps title, link, guid, dates and its schedule only', async () => {
      const channel = parseFeed((await get('/events/feed/')).text);
      const secret = channel.item!.find((item) => item.title === 'Secret Tasting')!;
      assert.deepEqual(Object.keys(secret).sort(), ['description', 'ev:enddate', 'ev:startdate', 'guid', 'link', 'pubDate', 'title']);
      assert.equal(secret.description, 'April 26 @ 5:00 pm – 7:00 pm');
    });

    test('category (with descendants), tag and featured feeds equal the API\'s filtered lists; unknown term 404', async () => {
      const cases: Array<[string, string, string, string]> = [
        ['/events/category/music/feed/', '&categories=music', 'Music – Town Calendar', 'http://calendar.test/events/category/music/'],
        ['/events/category/music/jazz/feed/', '&categories=jazz', 'Jazz – Town Calendar', 'http://calendar.test/events/category/music/jazz/'],
        ['/events/tag/outdoor/feed/', '&tags=outdoor', 'Outdoor – Town Calendar', 'http://calendar.test/events/tag/outdoor/'],
        ['/events/featured/feed/', '&featured=1', 'Featured – Town Calendar', 'http://calendar.test/events/featured/'],
        ['/events/category/music/featured/feed/', '&categories=music&featured=1', 'Music – Town Calendar', 'http://calendar.test/events/category/music/featured/'],
      ];
      for (const [path, filter, title, link] of cases) {
        const res = await get(path);
        assert.equal(res.status, 200, path);
        const channel = parseFeed(res.text);
        const expected = await api('', filter);
        assert.ok(expected.length > 0, path);
        assert.deepEqual((channel.item ?? []).map((item) => item.link), expected.map((event) => event.url), path);
        assert.equal(channel.title, title, path);
        assert.equal(channel.link, link, path);
        assert.equal(channel['atom:link']['@href'], `http://calendar.test${path}`, path);
      }
      assert.ok((await api('', '&categories=music')).some((event) => event.title === 'Opening Concert'), 'music includes its child jazz');
      assert.equal((await get('/events/category/nothing/feed/')).status, 404);
      assert.equal((await get('/events/tag/nothing/feed/')).status, 404);
      const jazzShort = await get('/events/category/jazz/feed/');
      assert.equal(jazzShort.status, 301);
      assert.equal(jazzShort.headers.location, '/events/category/music/jazz/feed/');
    });

    test('four editions: translated channel texts and language, links in the edition', async () => {
      const expected: Record<string, [string, string, string]> = {
        '': ['Events – Town Calendar', 'Upcoming events from Town Calendar', 'en-us'],
        '/da': ['Begivenheder – Town Calendar', 'Kommende begivenheder fra Town Calendar', 'da-dk'],
        '/it': ['Eventi – Town Calendar', 'Prossimi eventi da Town Calendar', 'it-it'],
        '/es': ['Eventos – Town Calendar', 'Próximos eventos de Town Calendar', 'es-es'],
      };
      for (const [edition, [title, description, language]] of Object.entries(expected)) {
        const channel = parseFeed((await get(`${edition}/events/feed/`)).text);
        assert.deepEqual([channel.title, channel.description, channel.language], [title, description, language], edition);
        assert.equal(channel.link, `http://calendar.test${edition}/events/`);
        assert.deepEqual(channel.item!.map((item) => item.link), (await api(edition)).map((event) => event.url), edition);
        if (edition !== '') assert.ok(channel.item!.every((item) => item.link.startsWith(`http://calendar.test${edition}/event/`)), edition);
      }
      const da = parseFeed((await get('/da/events/feed/')).text).item!.find((item) => item.title === 'Opening Concert')!;
      assert.match(da.description, /^12\. april @ 19\.30 – 22\.00 · Harbour Hall/);
    });

    test('other feed names answer 301 to the RSS 2.0 feed', async () => {
      for (const name of ['feed', 'rss', 'rss2', 'rdf', 'atom']) {
        for (const [path, target] of [['/events/feed/', '/events/feed/'], ['/da/events/tag/outdoor/feed/', '/da/events/tag/outdoor/feed/']]) {
          const res = await get(`${path}${name}/`);
          assert.equal(res.status, 301, `${path}${name}/`);
          assert.equal(res.headers.location, target);
        }
      }
    });

    test('ETag and 304, HEAD without body, credentials get a private answer, a repeat runs no query', async () => {
      const res = await get('/events/feed/');
      const tag = res.headers.etag as string;
      assert.match(tag, /^"l-[A-Za-z0-9_-]{22}"$/);
      assert.equal((await get('/events/feed/', { 'if-none-match': tag })).status, 304);
      const head = await f.t.request('HEAD', '/events/feed/');
      assert.equal(head.status, 200);
      assert.equal(head.text, '');
      assert.equal(head.headers.etag, tag);
      const before = await f.t.queryCount();
      assert.equal((await get('/events/feed/')).text, res.text);
      assert.equal((await f.t.queryCount()) - before, 0);
      const signed = await f.t.request('GET', '/events/feed/', { as: 'administrator' });
      assert.match(String(signed.headers['cache-control']), /private/);
      assert.deepEqual(parseFeed(signed.text).item!.map((item) => item.link), parseFeed(res.text).item!.map((item) => item.link), 'credentials change nothing');
    });

    test('every view links its feed: <link rel="alternate"> and the subscribe menu', async () => {
      const cases: Array<[string, string, string]> = [
        ['/events/2026-04/', '/events/feed/', 'Events – Town Calendar'],
        ['/events/list/', '/events/feed/', 'Events – Town Calendar'],
        ['/events/2026-04-12/', '/events/feed/', 'Events – Town Calendar'],
        ['/events/featured/', '/events/featured/feed/', 'Featured – Town Calendar'],
        ['/events/category/music/list/', '/events/category/music/feed/', 'Music – Town Calendar'],
        ['/da/events/tag/outdoor/', '/da/events/tag/outdoor/feed/', 'Outdoor – Town Calendar'],
        ['/da/events/list/', '/da/events/feed/', 'Begivenheder – Town Calendar'],
      ];
      for (const [page, feed, title] of cases) {
        const html = (await get(page)).text;
        assert.ok(html.includes(`<link rel="alternate" type="application/rss+xml" title="${title}" href="${feed}"/>`), page);
        assert.ok(html.includes(`<a href="${feed}" type="application/rss+xml">`), `${page} subscribe menu`);
        assert.equal((await get(feed)).status, 200, feed);
      }
    });

    test('the feed holds CALENDAR_FEED_ITEMS items', async () => {
      const small = await startPageFixture(dialect, { CALENDAR_FEED_ITEMS: '1' });
      try {
        const channel = parseFeed((await small.t.request('GET', '/events/feed/')).text);
        assert.equal(channel.item!.length, 1);
        assert.equal(channel.item![0].title, 'Opening Concert');
      } finally {
        await small.t.close();
      }
    });
  });
}
