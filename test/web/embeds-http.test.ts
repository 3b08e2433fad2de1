import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../helpers/databases.ts';
import { NS, startTestApp } from '../helpers/test-app.ts';
import { startPageFixture, type PageFixture } from './fixture.ts';

const PAGE_CSP = "default-src 'self'; img-src 'self' https: data:; script-src 'self'; style-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'";
const embedCsp = (ancestors: string) => PAGE_CSP.replace("frame-ancestors 'self'", `frame-ancestors ${ancestors}`);

/** `<a …>` tags of a page with their href (HTML-unescaped) and target. */
function links(html: string): Array<{ href: string; target?: string }> {
  return [...html.matchAll(/<a ([^>]*)>/g)].map((match) => ({
    href: /href="([^"]*)"/.exec(match[1])![1].replace(/&amp;/g, '&'),
    target: /target="([^"]*)"/.exec(match[1])?.[1],
  }));
}

const eventIds = (html: string) => [...html.matchAll(/<article class="event">\s*<h3><a href="[^"]*\/event\/([^/"]+)\//g)].map((match) => match[1]);

// 130 §10.1 over HTTP on both databases.
for (const dialect of DIALECTS) {
  describe(`embed pages [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let f: PageFixture;
    before(async () => {
      f = await startPageFixture(dialect);
    });
    after(() => f.t.close());

    const get = (url: string, headers: Record<string, string> = {}) => f.t.request('GET', url, { headers });
    const apiSlugs = async (filter: string) =>
      ((await get(`${NS}/events?strict_dates=1&ends_after=2026-04-10%2012:00:00${filter}`)).body.events as Array<{ slug: string }>).map((event) => event.slug);

    test('the list embed: the first five upcoming events as the API lists them, in a frame of its own, links leaving it open on top', async () => {
      const res = await get('/embed/events/');
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-security-policy'], embedCsp('*'));
      assert.equal(res.headers['x-frame-options'], undefined);
      assert.equal(res.headers['x-robots-tag'], 'noindex');
      assert.equal(res.headers['cache-control'], 'public, max-age=60');
      const html = res.text;
      assert.match(html, /<html lang="en">/);
      assert.match(html, /<meta name="robots" content="noindex"\/>/);
      assert.match(html, /<body class="embed">/);
      assert.match(html, /<script src="\/assets\/embed-frame\.js" defer><\/script>/);
      for (const absent of [/<header/, /<footer/, /class="skip"/, /role="search"/, /class="languages"/]) assert.doesNotMatch(html, absent);
      assert.match(html, /<h1>Upcoming Events<\/h1>/);
      assert.deepEqual(eventIds(html), (await apiSlugs('&per_page=5')));
      for (const link of links(html)) {
        if (link.href.startsWith('/embed/')) assert.equal(link.target, undefined, link.href);
        else assert.equal(link.target, '_top', link.href);
      }
      assert.ok(links(html).some((link) => link.href === '/embed/events/?view=list&page=2'), 'paging stays in the embed');
      assert.ok(links(html).some((link) => link.href === '/events/list/' && link.target === '_top'), 'View full calendar');
      assert.match(html, />View full calendar<\/a>/);
      const second = await get('/embed/events/?view=list&page=2');
      assert.deepEqual(eventIds(second.text), (await apiSlugs('&per_page=5&page=2')));
    });

    test('filters: categories (with descendants) and tags by slug or id, venue, organizer, featured, per_page', async () => {
      const terms = (await get(`${NS}/categories?slug=music`)).body.categories;
      const venue = (await get(`${NS}/venues`)).body.venues[0].id;
      const organizer = (await get(`${NS}/organizers`)).body.organizers[0].id;
      const cases: Array<[string, string]> = [
        ['?categories=music&per_page=3', '&categories=music&per_page=3'],
        [`?categories=${terms[0].id}`, '&categories=music&per_page=5'],
        ['?tags=outdoor', '&tags=outdoor&per_page=5'],
        [`?venue=${venue}`, `&venue=${venue}&per_page=5`],
        [`?organizer=${organizer}`, `&organizer=${organizer}&per_page=5`],
        ['?featured=1', '&featured=1&per_page=5'],
        ['?categories=jazz&featured=true&per_page=50', '&categories=jazz&featured=1&per_page=50'],
      ];
      for (const [embed, api] of cases) {
        const res = await get(`/embed/events/${embed}`);
        assert.equal(res.status, 200, embed);
        const expected = await apiSlugs(api);
        assert.ok(expected.length > 0, embed);
        assert.deepEqual(eventIds(res.text), expected, embed);
      }
      const single = await get('/embed/events/?categories=jazz');
      assert.ok(links(single.text).some((link) => link.href === '/events/category/music/jazz/list/' && link.target === '_top'), 'a single category: its archive');
    });

    test('the month embed: the month grid, its navigation inside the embed, days on top', async () => {
      const res = await get('/embed/events/?view=month&tribe-bar-date=2026-04');
      assert.equal(res.status, 200);
      assert.match(res.text, /<table class="month">/);
      assert.match(res.text, /<h1>April 2026<\/h1>/);
      const all = links(res.text);
      assert.ok(all.some((link) => link.href === '/embed/events/?view=month&tribe-bar-date=2026-05' && link.target === undefined));
      assert.ok(all.some((link) => link.href === '/events/2026-04-20/' && link.target === '_top'));
      assert.ok(all.some((link) => link.href === '/events/month/' && link.target === '_top'), 'View full calendar');
    });

    test('the week embed: the week grid, its navigation inside the embed, events linking out', async () => {
      const res = await get('/embed/events/?view=week&tribe-bar-date=2026-04-22');
      assert.equal(res.status, 200);
      assert.match(res.text, /data-week-start="2026-04-20"/);
      const all = links(res.text);
      assert.ok(all.some((link) => link.href === '/embed/events/?view=week&tribe-bar-date=2026-04-27' && link.target === undefined), 'next week inside the embed');
      assert.ok(all.some((link) => link.href === '/embed/events/?view=week' && link.target === undefined), 'this week inside the embed');
      assert.ok(all.some((link) => link.href.startsWith('/event/busy-day-talk-1') && link.target === '_top'));
      assert.equal((await get('/embed/events/?view=week&tribe-bar-date=2026-04')).status, 400);
    });

    test('editions: the Danish embed speaks Danish and keeps /da', async () => {
      const res = await get('/da/embed/events/?view=month&tribe-bar-date=2026-04-15');
      assert.equal(res.status, 200);
      assert.match(res.text, /<html lang="da">/);
      assert.match(res.text, /<h1>april 2026<\/h1>/);
      assert.match(res.text, />Se hele kalenderen<\/a>/);
      for (const link of links(res.text)) assert.ok(link.href.startsWith('/da/'), link.href);
    });

    test('bad values: 400 naming the parameter in an alert; unknown paths 404; unknown parameters ignored', async () => {
      for (const [query, parameter] of [['view=map', 'view'], ['view=day', 'view'], ['per_page=51', 'per_page'], ['per_page=0', 'per_page'], ['venue=abc', 'venue'], ['categories=nothing', 'categories'], ['tags=music,nothing', 'tags'], ['featured=maybe', 'featured'], ['tribe-bar-date=2026-13-01', 'tribe-bar-date'], ['page=0', 'page']]) {
        const res = await get(`/embed/events/?${query}`);
        assert.equal(res.status, 400, query);
        assert.match(res.text, new RegExp(`<p role="alert" class="alert">Invalid parameter\\(s\\): ${parameter}</p>`), query);
        assert.equal(res.headers['x-robots-tag'], 'noindex');
      }
      assert.equal((await get('/embed/events/?view=list&page=99')).status, 404);
      assert.equal((await get('/embed/other/')).status, 404);
      assert.equal((await get('/embed/')).status, 404);
      const plain = await get('/embed/events/?per_page=3');
      const extra = await get('/embed/events/?per_page=3&utm_source=news');
      assert.equal(extra.text, plain.text);
    });

    test('embed.js: readable by any site, revalidated, the service\'s API path written in, defined once', async () => {
      const script = await get('/assets/embed.js', { origin: 'https://news.example.org' });
      assert.equal(script.status, 200);
      assert.equal(script.headers['content-type'], 'text/javascript; charset=utf-8');
      assert.equal(script.headers['cache-control'], 'public, max-age=3600');
      assert.equal(script.headers['access-control-allow-origin'], '*');
      assert.equal(script.headers['access-control-allow-credentials'], undefined);
      assert.equal(script.headers['cross-origin-resource-policy'], 'cross-origin');
      assert.match(script.text, /var API = "";/);
      assert.match(script.text, /customElements\.get\('calendar-events'\)\) return;/);
      assert.doesNotMatch(script.text, /\b(import|export)\b|innerHTML/);
      assert.equal((await get('/assets/embed.js', { 'if-none-match': script.headers.etag as string })).status, 304);
    });

    test('cached: ETag and 304, a repeat runs no query; the height script', async () => {
      const first = await get('/embed/events/?view=month');
      assert.equal((await get('/embed/events/?view=month', { 'if-none-match': first.headers.etag as string })).status, 304);
      const before = await f.t.queryCount();
      await get('/embed/events/?view=month');
      assert.equal((await f.t.queryCount()) - before, 0);
      const script = await get('/assets/embed-frame.js');
      assert.equal(script.status, 200);
      assert.equal(script.headers['content-type'], 'text/javascript; charset=utf-8');
      assert.match(script.text, /postMessage\(\{ type: 'calendar-embed-height', height: height \}, '\*'\)/);
    });
  });

  describe(`framing rules [${dialect}]`, { skip: skipReason(dialect) }, () => {
    test('CALENDAR_EMBED_ORIGINS opens embeds only; pages keep framing by the site and the API refuses it', async () => {
      for (const [setting, ancestors] of [['https://news.example.org, http://localhost:8081', "'self' https://news.example.org http://localhost:8081"], ['none', "'self'"], ['*', '*']]) {
        const t = await startTestApp(dialect, { env: { CALENDAR_EMBED_ORIGINS: setting } });
        try {
          const embed = await t.request('GET', '/embed/events/');
          assert.equal(embed.headers['content-security-policy'], embedCsp(ancestors), setting);
          assert.equal(embed.headers['x-frame-options'], undefined);
          const page = await t.request('GET', '/events/list/');
          assert.equal(page.headers['content-security-policy'], PAGE_CSP);
          assert.equal(page.headers['x-frame-options'], 'SAMEORIGIN');
          const api = await t.request('GET', `${NS}/events`);
          assert.match(String(api.headers['content-security-policy']), /frame-ancestors 'none'/);
          assert.equal(api.headers['x-frame-options'], 'DENY');
        } finally {
          await t.close();
        }
      }
    });
  });
}
