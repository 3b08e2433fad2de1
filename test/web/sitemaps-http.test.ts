import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { DIALECTS, skipReason } from '../helpers/databases.ts';
import { NS, startTestApp } from '../helpers/test-app.ts';
import { startPageFixture, type PageFixture } from './fixture.ts';

const SITE = 'http://calendar.test';
const EDITIONS = ['', '/da', '/it', '/es'];
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, isArray: (name) => ['url', 'sitemap', 'xhtml:link'].includes(name) });

interface UrlEntry {
  loc: string;
  lastmod?: string;
  'xhtml:link': Array<{ '@rel': string; '@hreflang': string; '@href': string }>;
}

function parseXml(xml: string): Record<string, any> {
  assert.equal(XMLValidator.validate(xml), true, 'well-formed XML');
  return parser.parse(xml);
}

const w3c = (utc: string) => `${utc.replace(' ', 'T')}+00:00`;

// 130 §9 on both databases, with CALENDAR_SITEMAP_MAX_URLS=8: two records (four editions each) per file.
for (const dialect of DIALECTS) {
  describe(`sitemaps and robots.txt [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let f: PageFixture;
    before(async () => {
      f = await startPageFixture(dialect, { CALENDAR_SITEMAP_MAX_URLS: '8' });
    });
    after(() => f.t.close());

    const get = (url: string, headers: Record<string, string> = {}) => f.t.request('GET', url, { headers });
    const urlset = async (loc: string): Promise<UrlEntry[]> => {
      const res = await get(loc.slice(SITE.length));
      assert.equal(res.status, 200, loc);
      assert.equal(res.headers['content-type'], 'application/xml; charset=UTF-8');
      return parseXml(res.text).urlset.url ?? [];
    };
    const index = async (): Promise<Array<{ loc: string; lastmod?: string }>> => parseXml((await get('/sitemap.xml')).text).sitemapindex.sitemap;
    /** Every event the API lists to a visitor, past ones included, in an edition. */
    const apiEvents = async (edition = '') =>
      (await get(`${edition}${NS}/events?per_page=50&start_date=2026-01-01%2000:00:00`)).body.events as Array<{ id: number; url: string; modified_utc: string }>;

    test('the index lists exactly the non-empty files; events come two to a file, each once per edition, by id', async () => {
      const files = await index();
      const events = (await apiEvents()).sort((a, b) => a.id - b.id);
      const eventFiles = Math.ceil(events.length / 2);
      assert.deepEqual(files.map((file) => file.loc), [
        `${SITE}/sitemaps/pages.xml`,
        ...Array.from({ length: eventFiles }, (_, i) => `${SITE}/sitemaps/events-${i + 1}.xml`),
        `${SITE}/sitemaps/venues-1.xml`,
        `${SITE}/sitemaps/organizers-1.xml`,
        `${SITE}/sitemaps/categories-1.xml`,
        `${SITE}/sitemaps/tags-1.xml`,
      ]);
      const listed: UrlEntry[] = [];
      for (let n = 1; n <= eventFiles; n++) {
        const entries = await urlset(`${SITE}/sitemaps/events-${n}.xml`);
        assert.ok(entries.length <= 8 && entries.length % 4 === 0);
        assert.equal(files[n].lastmod, entries.map((entry) => entry.lastmod!).sort().pop(), 'the index names the newest lastmod inside');
        listed.push(...entries);
      }
      for (const edition of EDITIONS) {
        const expected = (await apiEvents(edition)).sort((a, b) => a.id - b.id);
        assert.deepEqual(listed.filter((entry) => new URL(entry.loc).pathname.startsWith(`${edition}/event/`)).map((entry) => entry.loc), expected.map((event) => event.url), `edition ${edition || 'en'}`);
      }
      const byUrl = new Map(events.map((event) => [event.url, event]));
      for (const entry of listed.filter((entry) => byUrl.has(entry.loc))) assert.equal(entry.lastmod, w3c(byUrl.get(entry.loc)!.modified_utc));
      assert.ok(listed.some((entry) => entry.loc.endsWith(`/event/${f.slugs.secret}/`)), 'a protected event has a page');
      for (const slug of [f.slugs.hidden, f.slugs.private]) assert.ok(!listed.some((entry) => entry.loc.includes(`/event/${slug}/`)), slug);
      assert.equal((await get(`/sitemaps/events-${eventFiles + 1}.xml`)).status, 404);
      assert.equal((await get('/sitemaps/venues-2.xml')).status, 404);
      assert.equal((await get('/sitemaps/nothing-1.xml')).status, 404);
    });

    test('hreflang: every entry names the four editions and x-default', async () => {
      for (const { loc } of await index()) {
        for (const entry of await urlset(loc)) {
          const links = entry['xhtml:link'];
          assert.deepEqual(links.map((link) => link['@hreflang']), ['en', 'da', 'it', 'es', 'x-default']);
          const english = links[0]['@href'];
          assert.deepEqual(links.map((link) => link['@href']), [english, ...['/da', '/it', '/es'].map((prefix) => english.replace(SITE, SITE + prefix)), english]);
          assert.ok(links.some((link) => link['@href'] === entry.loc), entry.loc);
        }
      }
    });

    test('venues, organizers, terms and view pages as the API lists them; every <loc> answers 200', async () => {
      const paths = async (name: string) => (await urlset(`${SITE}/sitemaps/${name}`)).filter((entry) => !/\/(da|it|es)\//.test(entry.loc)).map((entry) => entry.loc);
      const api = async (path: string, key: string) => (await get(`${NS}${path}`)).body[key].map((record: { url: string }) => record.url);
      assert.deepEqual(await paths('venues-1.xml'), await api('/venues', 'venues'));
      assert.deepEqual(await paths('organizers-1.xml'), await api('/organizers', 'organizers'));
      assert.deepEqual(await paths('categories-1.xml'), [`${SITE}/events/category/music/`, `${SITE}/events/category/music/jazz/`]);
      assert.deepEqual(await paths('tags-1.xml'), [`${SITE}/events/tag/outdoor/`]);
      assert.deepEqual(await paths('pages.xml'), ['/events/', '/events/list/', '/events/month/', '/events/today/', '/events/week/', '/events/photo/', '/events/summary/'].map((path) => SITE + path));
      for (const { loc } of await index()) {
        for (const entry of await urlset(loc)) assert.equal((await get(entry.loc.slice(SITE.length))).status, 200, entry.loc);
      }
    });

    test('lastmod moves after an update; ETag/304; a repeat runs no query; /wp-sitemap.xml redirects', async () => {
      const first = await get('/sitemap.xml');
      assert.equal((await get('/sitemap.xml', { 'if-none-match': first.headers.etag as string })).status, 304);
      assert.equal(first.headers['cache-control'], 'public, max-age=60');
      const before = await f.t.queryCount();
      await get('/sitemap.xml');
      assert.equal((await f.t.queryCount()) - before, 0);
      // The fixture's clock stands still: a second app whose clock moves on between two writes.
      let now = new Date('2026-04-10T10:00:00Z');
      const moving = await startTestApp(dialect, { clock: () => now });
      try {
        const created = await moving.request('POST', `${NS}/events`, { as: 'administrator', body: { title: 'Talk', status: 'publish', start_date: '2026-05-01 10:00', end_date: '2026-05-01 11:00' } });
        const lastmod = async () => parseXml((await moving.request('GET', '/sitemap.xml')).text).sitemapindex.sitemap.find((file: { loc: string }) => file.loc.endsWith('/events-1.xml')).lastmod;
        assert.equal(await lastmod(), '2026-04-10T10:00:00+00:00');
        now = new Date('2026-04-11T08:30:00Z');
        await moving.request('POST', `${NS}/events/${created.body.id}`, { as: 'administrator', body: { title: 'Talk (moved)' } });
        assert.equal(await lastmod(), '2026-04-11T08:30:00+00:00');
      } finally {
        await moving.close();
      }
      const redirect = await get('/wp-sitemap.xml');
      assert.equal(redirect.status, 301);
      assert.equal(redirect.headers.location, '/sitemap.xml');
    });

    test('robots.txt keeps the API and searches out and names the sitemap', async () => {
      const res = await get('/robots.txt');
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
      assert.equal(res.headers['cache-control'], 'public, max-age=3600');
      assert.equal(res.text, [
        'User-agent: *',
        'Disallow: /calendar/',
        'Disallow: /da/calendar/',
        'Disallow: /it/calendar/',
        'Disallow: /es/calendar/',
        'Disallow: /*tribe-bar-search=',
        `Sitemap: ${SITE}/sitemap.xml`,
        '',
      ].join('\n'));
    });
  });
}
