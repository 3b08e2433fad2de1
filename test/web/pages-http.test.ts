import assert from 'node:assert/strict';
import ICAL from 'ical.js';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../helpers/databases.ts';
import { NS } from '../helpers/test-app.ts';
import { startPageFixture, UPCOMING_COUNT, type PageFixture } from './fixture.ts';

const CSP = "default-src 'self'; img-src 'self' https: data:; script-src 'self'; style-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'";
const EDITIONS = ['', '/da', '/it', '/es'];

/** `href` values of links in a page (HTML-unescaped). */
export function hrefs(html: string): string[] {
  return [...html.matchAll(/<a [^>]*href="([^"]*)"/g)].map((match) => match[1].replace(/&amp;/g, '&'));
}

function jsonLd(html: string): unknown {
  const match = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html);
  return match ? JSON.parse(match[1]) : undefined;
}

const count = (html: string, pattern: RegExp) => [...html.matchAll(pattern)].length;

/** assert.match without the whole page in the failure message. */
function has(html: string, pattern: RegExp, message?: string): void {
  assert.ok(pattern.test(html), message ?? `page lacks ${pattern}`);
}

function lacks(html: string, pattern: RegExp, message?: string): void {
  assert.ok(!pattern.test(html), message ?? `page has ${pattern}`);
}

// 55 §2–§14 over HTTP (Fastify inject) on both databases; the browser checks are in pages-browser.
for (const dialect of DIALECTS) {
  describe(`public calendar pages [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let f: PageFixture;
    before(async () => {
      f = await startPageFixture(dialect);
    });
    after(() => f.t.close());

    const get = (url: string, headers: Record<string, string> = {}) => f.t.request('GET', url, { headers });

    /** Every `url` the API returns for the fixture in an edition: events (the hidden one's too), venues, organizers, terms. */
    const apiUrls = async (edition: string): Promise<string[]> => {
      const lists = await Promise.all(['/events?per_page=50', '/venues', '/organizers', '/categories', '/tags'].map((path) => f.t.request('GET', `${edition}${NS}${path}`)));
      const hidden = await f.t.request('GET', `${edition}${NS}/events/${f.ids.hidden}`);
      return [
        ...lists[0].body.events.map((event: { url: string }) => event.url),
        hidden.body.url,
        ...lists[1].body.venues.map((venue: { url: string }) => venue.url),
        ...lists[2].body.organizers.map((organizer: { url: string }) => organizer.url),
        ...lists[3].body.categories.map((term: { url: string }) => term.url),
        ...lists[4].body.tags.map((term: { url: string }) => term.url),
      ];
    };

    test('every url the API returns opens its page, in every edition', async () => {
      for (const edition of EDITIONS) {
        const urls = await apiUrls(edition);
        assert.equal(urls.length, UPCOMING_COUNT + 1 + 1 + 1 + 2 + 1);
        for (const url of urls) {
          const path = new URL(url).pathname;
          let res = await get(path);
          // The tag `url` has no edition and answers 301 to the archive (55 §2).
          if (res.status === 301) res = await get(res.headers.location as string);
          assert.equal(res.status, 200, `${url} → ${res.status}`);
          has(res.text, /^<!doctype html>/);
        }
      }
    });

    test('link walk: from /events/ and every API url, every internal link answers 200, 301 or 302, in every edition', async () => {
      const starts = new Set<string>();
      for (const edition of EDITIONS) {
        starts.add(`${edition}/events/`);
        for (const url of await apiUrls(edition)) starts.add(new URL(url).pathname);
      }
      const seen = new Set<string>();
      const broken: string[] = [];
      for (const start of starts) {
        let page = await get(start);
        // The tag `url` has no edition and answers 301 to the archive (55 §2).
        if (page.status === 301) page = await get(page.headers.location as string);
        assert.equal(page.status, 200, start);
        for (const href of hrefs(page.text)) {
          const internal = href.startsWith('/') || href.startsWith('http://calendar.test/');
          const path = href.replace('http://calendar.test', '');
          // The feeds belong to the iCalendar routes (50), linked by URL only.
          if (!internal || path.includes(NS) || seen.has(path)) continue;
          seen.add(path);
          const status = (await get(path)).status;
          if (![200, 301, 302].includes(status)) broken.push(`${start} → ${path}: ${status}`);
        }
      }
      assert.deepEqual(broken, []);
      assert.ok(seen.size > 100, `walked ${seen.size} links`);
    });

    test('headers: the page CSP exactly, framing by the site, ETag and 304, indexable month and single', async () => {
      for (const url of ['/events/2026-04/', `/event/${f.slugs.concert}/`]) {
        const res = await get(url);
        assert.equal(res.status, 200);
        assert.equal(res.headers['content-security-policy'], CSP);
        assert.equal(res.headers['x-frame-options'], 'SAMEORIGIN');
        assert.equal(res.headers['referrer-policy'], 'strict-origin-when-cross-origin');
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        assert.equal(res.headers['cache-control'], 'public, max-age=60');
        assert.equal(res.headers['x-robots-tag'], undefined);
        lacks(res.text, /name="robots"/);
        const tag = res.headers.etag as string;
        assert.match(tag, /^"l-[A-Za-z0-9_-]{22}"$/);
        const again = await get(url, { 'if-none-match': tag });
        assert.equal(again.status, 304);
        assert.equal(again.text, '');
      }
    });

    test('the optional script: one deferred same-origin file, cached; ?partial=1 answers the bar and <main> only', async () => {
      const page = await get('/da/events/2026-04/');
      const src = /<script src="(\/assets\/calendar\.js\?v=[\w-]+)" defer><\/script>/.exec(page.text)?.[1];
      assert.ok(src, 'the page loads the script');
      assert.equal(count(page.text, /<script /g), 2, 'the script and the JSON-LD block, nothing else');
      const script = await get(src);
      assert.equal(script.status, 200);
      assert.equal(script.headers['content-type'], 'text/javascript; charset=utf-8');
      assert.equal(script.headers['cache-control'], 'public, max-age=31536000, immutable');
      has(script.text, /searchParams\.set\('partial', '1'\)/);
      const partial = await get('/da/events/2026-05/?partial=1');
      assert.equal(partial.status, 200);
      assert.equal(partial.headers['x-robots-tag'], 'noindex');
      has(partial.text, /^<!doctype html>\n<html lang="da"><head><title>maj 2026 – Town Calendar<\/title><\/head><body><div class="bar">/);
      has(partial.text, /<main id="main" tabindex="-1">.*<h1>maj 2026<\/h1>.*<\/main><\/body><\/html>$/s);
      lacks(partial.text, /<header|<footer|<link |<script /);
    });

    test('noindex (meta and header) on search results, empty views and invalid dates', async () => {
      for (const url of ['/events/list/?tribe-bar-search=jazz', '/events/2026-09/', '/events/2026-09-09/', '/events/month/?tribe-bar-date=nonsense']) {
        const res = await get(url);
        assert.equal(res.status, 200, url);
        assert.equal(res.headers['x-robots-tag'], 'noindex', url);
        has(res.text, /<meta name="robots" content="noindex"\/>/, url);
      }
      assert.match((await get('/events/month/?tribe-bar-date=nonsense')).text, /role="status" class="notices"><p>Invalid date<\/p>/);
    });

    test('a page view after no change runs no query; a write changes the page', async () => {
      const first = await get('/events/2026-04/');
      const before = await f.t.queryCount();
      const second = await get('/events/2026-04/');
      assert.equal((await f.t.queryCount()) - before, 0);
      assert.equal(second.text, first.text);
      await f.t.request('POST', `${NS}/events`, { as: 'administrator', body: { title: 'Late Addition', status: 'publish', start_date: '2026-04-28 10:00', end_date: '2026-04-28 11:00' } });
      const third = await get('/events/2026-04/');
      has(third.text, /Late Addition/);
      assert.notEqual(third.headers.etag, first.headers.etag);
      await f.t.request('DELETE', `${NS}/events/by-slug/late-addition?force=true`, { as: 'administrator' });
    });

    test('routing: trailing slash, root, unknown pages, methods, JSON 404 elsewhere', async () => {
      const slashless = await get('/events/list?tribe-bar-search=fair');
      assert.equal(slashless.status, 301);
      assert.equal(slashless.headers.location, '/events/list/?tribe-bar-search=fair');
      const root = await get('/da/');
      assert.equal(root.status, 302);
      assert.equal(root.headers.location, '/da/events/');
      const unknown = await get('/it/events/nowhere/');
      assert.equal(unknown.status, 404);
      has(unknown.text, /<html lang="it">/);
      has(unknown.text, /href="\/it\/events\/"/);
      assert.equal((await get('/events/2026-13/')).status, 404);
      assert.equal((await get('/events/2026-02-30/')).status, 404);
      assert.equal((await get('/events/list/?paged=0')).status, 404);
      assert.equal((await get('/events/category/nothing/')).status, 404);
      const moved = await get('/events/category/jazz/list/');
      assert.equal(moved.status, 301);
      assert.equal(moved.headers.location, '/events/category/music/jazz/list/');
      const del = await f.t.request('DELETE', '/events/');
      assert.equal(del.status, 405);
      assert.equal(del.headers.allow, 'GET, HEAD');
      const json = await get(`${NS}/nothing`);
      assert.equal(json.body.code, 'rest_no_route');
      const feed = await get('/da/events/2026-04/ical/');
      assert.equal(feed.status, 302);
      assert.equal(feed.headers.location, `http://calendar.test/da${NS}/events.ics?strict_dates=1&ends_after=2026-03-30%2000%3A00%3A00&starts_before=2026-05-04%2000%3A00%3A00`);
      const single = await get(`/event/${f.slugs.concert}/?ical=1`);
      assert.equal(single.headers.location, `http://calendar.test${NS}/events/${f.ids.concert}.ics`);
      const head = await f.t.request('HEAD', '/events/list/');
      assert.equal(head.status, 200);
      assert.equal(head.text, '');
    });

    test('list: pages of 12 with month headings, next and past links, past mode oldest first, 404 past the end', async () => {
      const first = await get('/events/list/');
      assert.equal(count(first.text, /<article class="event">/g), 12);
      has(first.text, /<h2 id="month-2026-04">April 2026<\/h2>/);
      has(first.text, /<a href="\/events\/list\/page\/2\/">Next Events »<\/a>/);
      has(first.text, /<a href="\/events\/list\/\?eventDisplay=past">« Previous Events<\/a>/);
      const second = await get('/events/list/page/2/');
      assert.equal(count(second.text, /<article class="event">/g), UPCOMING_COUNT - 12);
      has(second.text, /<span class="disabled">Next Events »<\/span>/);
      has(second.text, /<h2 id="month-2026-05">May 2026<\/h2>/);
      assert.equal((await get('/events/list/page/3/')).status, 404);
      const past = await get('/events/list/?eventDisplay=past');
      has(past.text, /<h1>Past Events<\/h1>/);
      has(past.text, /Past Lecture/);
      const from = await get('/events/list/?tribe-bar-date=2026-05-01');
      has(from.text, /<h1>Events from Friday, May 1, 2026<\/h1>/);
      assert.equal(count(from.text, /<article class="event">/g), 3);
    });

    test('month: Monday first, busy day with sticky first and "+ 2 More", bounded navigation', async () => {
      const res = await get('/events/2026-04/');
      assert.equal(count(res.text, /<th scope="col"/g), 7);
      has(res.text, /<th scope="col" abbr="Monday">/);
      has(res.text, /<td class="other empty"><p class="day-number"><time datetime="2026-03-30">/);
      const busy = res.text.slice(res.text.indexOf('datetime="2026-04-20"'), res.text.indexOf('datetime="2026-04-21"'));
      assert.ok(busy.indexOf('Book Fair') < busy.indexOf('Busy Day Talk 5'));
      assert.ok(busy.indexOf('Busy Day Talk 5') < busy.indexOf('Busy Day Talk 1'));
      lacks(busy, /Busy Day Talk 3/);
      has(busy, /<a href="\/events\/2026-04-20\/" aria-label="\+ 2 more events on Monday, April 20, 2026">\+ 2 More<\/a>/);
      // A covered cell that is neither the start day nor its row's first: "continues", the title for screen readers only.
      const sunday = res.text.slice(res.text.indexOf('datetime="2026-04-19"'), res.text.indexOf('datetime="2026-04-20"'));
      has(sunday, /<li class="continues">continues <span class="vh">Book Fair<\/span><\/li>/);
      // The JSON-LD describes what the grid lists; the events behind "+ 2 More" are on the day's page.
      const described = (jsonLd(res.text) as Array<{ name: string }>).map((event) => event.name);
      assert.ok(described.includes('Busy Day Talk 5') && described.includes('Book Fair'), described.join());
      assert.ok(!described.includes('Busy Day Talk 3'), described.join());
      has(res.text, /<span class="disabled">« /);
      has(res.text, /<a href="\/events\/2026-05\/" aria-label="Next month: May">May »<\/a>/);
      const may = await get('/events/2026-05/');
      has(may.text, /<a href="\/events\/2026-04\/" aria-label="Previous month: April">« April<\/a>/);
      has(may.text, /<span class="disabled">[^<]* »<\/span>/);
      for (const hidden of ['Hidden Rehearsal', 'Draft Plan', 'Private Board Meeting']) lacks(res.text, new RegExp(hidden));
      const empty = await get('/events/2026-02/');
      has(empty.text, /There were no results found for this view\. <a href="\/events\/2026-04\/">View next month with events<\/a>/);
    });

    test('day: all-day, then ongoing, then half-hour groups', async () => {
      const res = await get('/events/2026-04-20/');
      has(res.text, /<h1>Events for Monday, April 20, 2026<\/h1>/);
      const order = ['id="ongoing"', 'Book Fair', 'id="slot-0900"', 'Busy Day Talk 1', 'Busy Day Talk 2', 'id="slot-1000"', 'id="slot-1330"', 'id="slot-1800"', 'Busy Day Talk 5'];
      const main = res.text.slice(res.text.indexOf('<main'));
      const positions = order.map((needle) => main.indexOf(needle));
      assert.ok(positions.every((position, i) => position > 0 && (i === 0 || position > positions[i - 1])), JSON.stringify(positions));
      lacks(res.text, /id="slot-0930"/);
      const market = await get('/events/2026-04-25/');
      has(market.text, /<h2 id="all-day">All day<\/h2>/);
    });

    test('single: JSON-LD equals the API json_ld, Google link, details, venue, organizer, neighbours', async () => {
      const res = await get(`/event/${f.slugs.concert}/`);
      const api = await f.t.request('GET', `${NS}/events/${f.ids.concert}`);
      assert.deepEqual(jsonLd(res.text), [api.body.json_ld]);
      has(res.text, /<h1>Opening Concert<span class="featured-label">Featured<\/span><\/h1>/);
      has(res.text, /<strong>jazz<\/strong>/);
      const google = new URL(hrefs(res.text).find((href) => href.startsWith('https://calendar.google.com/calendar/render?action'))!);
      assert.equal(google.searchParams.get('action'), 'TEMPLATE');
      assert.equal(google.searchParams.get('dates'), '20260412T193000/20260412T220000');
      assert.equal(google.searchParams.get('ctz'), 'Europe/Copenhagen');
      assert.equal(google.searchParams.get('location'), 'Harbour Hall, Kajgade 1, Aarhus, 8000, Denmark');
      has(res.text, new RegExp(`href="http://calendar.test${NS}/events/${f.ids.concert}.ics" rel="nofollow"`));
      // 55 §15 #5: the .ics link gives text/calendar that ical.js reads as this event at its instants.
      const ics = await get(`${NS}/events/${f.ids.concert}.ics`);
      assert.match(ics.headers['content-type'] as string, /^text\/calendar/);
      const vevent = new ICAL.Component(ICAL.parse(ics.text)).getFirstSubcomponent('vevent')!;
      assert.equal(vevent.getFirstPropertyValue('uid'), `${f.ids.concert}@calendar.test`);
      const start = vevent.getFirstProperty('dtstart')!;
      assert.deepEqual([String(start.getFirstValue()), start.getParameter('tzid')], ['2026-04-12T19:30:00', 'Europe/Copenhagen']);
      assert.equal(String(vevent.getFirstPropertyValue('dtend')), '2026-04-12T22:00:00');
      const outlook = new URL(hrefs(res.text).find((href) => href.startsWith('https://outlook.office.com/owa/'))!);
      assert.equal(outlook.searchParams.get('path'), '/calendar/action/compose');
      assert.equal(outlook.searchParams.get('rrv'), 'addevent');
      assert.equal(outlook.searchParams.get('startdt'), '2026-04-12T19:30:00+02:00');
      assert.equal(outlook.searchParams.get('enddt'), '2026-04-12T22:00:00+02:00');
      assert.equal(outlook.searchParams.get('subject'), 'Opening Concert');
      assert.equal(outlook.searchParams.get('location'), 'Harbour Hall, Kajgade 1, Aarhus, 8000, Denmark');
      assert.equal(outlook.searchParams.get('body'), 'An evening of jazz by the harbour.');
      has(res.text, /href="https:\/\/outlook.live.com\/owa\/\?path=%2Fcalendar%2Faction%2Fcompose&amp;rrv=addevent&amp;startdt=2026-04-12T19%3A30%3A00%2B02%3A00/);
      has(res.text, /href="\/venue\/harbour-hall\/"/);
      has(res.text, /href="mailto:info@jazz.example"/);
      has(res.text, /href="https:\/\/www.google.com\/maps\/search\/\?api=1&amp;query=Kajgade/);
      has(res.text, /<nav aria-label="Event navigation" class="paging"><ul><li><a href="\/event\/past-lecture\/">« Past Lecture<\/a><\/li><li><a href="\/event\/zero-length-mark\/">Zero Length Mark »<\/a>/);
      const market = await get(`/event/${f.slugs.market}/`);
      const marketGoogle = new URL(hrefs(market.text).find((href) => href.startsWith('https://calendar.google.com/calendar/render?action'))!);
      assert.equal(marketGoogle.searchParams.get('dates'), '20260425/20260426');
      const marketOutlook = new URL(hrefs(market.text).find((href) => href.startsWith('https://outlook.live.com/owa/'))!);
      assert.deepEqual([marketOutlook.searchParams.get('startdt'), marketOutlook.searchParams.get('enddt'), marketOutlook.searchParams.get('allday')], ['2026-04-25', '2026-04-26', 'true']);
      const tokyo = await get(`/event/${f.slugs.tokyo}/`);
      has(tokyo.text, /April 16 @ 6:00 pm – 7:00 pm JST/);
    });

    test('visibility: hidden page works, private and draft 404, trashed 410, protected form and passwords', async () => {
      assert.equal((await get(`/event/${f.slugs.hidden}/`)).status, 200);
      assert.equal((await get(`/event/${f.slugs.private}/`)).status, 404);
      assert.equal((await get(`/?post_type=tribe_events&p=${f.ids.draft}`)).status, 404);
      assert.equal((await get('/event/anything__trashed/')).status, 410);
      const locked = await get(`/event/${f.slugs.secret}/`);
      assert.equal(locked.status, 200);
      has(locked.text, /<form method="post" action="\/event\/secret-tasting\/"/);
      lacks(locked.text, /Secret description|application\/ld\+json|Harbour Hall/);
      const form = (password: string) => f.t.request('POST', `/event/${f.slugs.secret}/`, { body: `password=${password}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      const wrong = await form('nope');
      assert.equal(wrong.status, 403);
      has(wrong.text, /<p role="alert" class="alert">Incorrect password<\/p>/);
      const right = await form('letmein');
      assert.equal(right.status, 200);
      has(right.text, /Secret description/);
      assert.equal(right.headers['cache-control'], 'private, no-store');
      assert.equal(right.headers['set-cookie'], undefined);
      const list = await get('/events/list/');
      const item = list.text.slice(list.text.indexOf('Secret Tasting'));
      lacks(item.slice(0, item.indexOf('</article>')), /Harbour Hall/);
    });

    test('previews of unpublished records need credentials of a reader', async () => {
      const url = `/?post_type=tribe_events&p=${f.ids.draft}&preview=1`;
      const visitor = await get(url);
      assert.equal(visitor.status, 401);
      assert.equal(visitor.headers['www-authenticate'], 'Basic realm="calendar"');
      const admin = await f.t.request('GET', url, { as: 'administrator' });
      assert.equal(admin.status, 200);
      has(admin.text, /Preview – not published/);
      has(admin.text, /<h1>Draft Plan<\/h1>/);
      assert.equal(admin.headers['x-robots-tag'], 'noindex');
      assert.match(admin.headers['cache-control'] as string, /private/);
      const subscriber = await f.t.request('GET', url, { as: 'subscriber' });
      assert.equal(subscriber.status, 404);
      const published = await get(`/da/?post_type=tribe_events&p=${f.ids.concert}`);
      assert.equal(published.status, 301);
      assert.equal(published.headers.location, `/da/event/${f.slugs.concert}/`);
      const wrongCredentials = await get('/events/', { authorization: 'Basic d3Jvbmc6d3Jvbmc=' });
      assert.equal(wrongCredentials.status, 401);
      assert.equal(wrongCredentials.body.code, 'invalid_username');
      assert.equal(wrongCredentials.headers['www-authenticate'], 'Basic realm="calendar"');
    });

    test('venue and organizer pages: details, upcoming events, JSON-LD of the record', async () => {
      const venue = await get(`/venue/${f.venueSlug}/`);
      const api = await f.t.request('GET', `${NS}/venues/${(await f.t.request('GET', `${NS}/venues`)).body.venues[0].id}`);
      assert.deepEqual(jsonLd(venue.text), [api.body.json_ld]);
      has(venue.text, /<address>Kajgade 1, Aarhus, 8000, Denmark<\/address>/);
      has(venue.text, /Opening Concert[\s\S]*Book Fair/);
      has(venue.text, /Secret Tasting/);
      const organizer = await get(`/organizer/${f.organizerSlug}/`);
      has(organizer.text, /<h1>Jazz Club<\/h1>/);
      has(organizer.text, /Opening Concert/);
      lacks(organizer.text, /Book Fair/);
    });

    test('archives: term heading, descendants included, search keeps the term', async () => {
      const music = await get('/events/category/music/list/');
      has(music.text, /<h1>Music<\/h1>/);
      has(music.text, /Opening Concert/);
      lacks(music.text, /Book Fair/);
      has(music.text, /<form role="search" method="get" action="\/events\/category\/music\/list\/"/);
      const tag = await get('/events/tag/outdoor/list/');
      has(tag.text, /Spring Market/);
      lacks(tag.text, /Book Fair/);
      const plain = await get('/events/?tribe_events_cat=jazz&eventDisplay=list');
      has(plain.text, /<h1>Jazz<\/h1>/);
    });

    test('search uses the REST rules; editions translate chrome and keep their prefix', async () => {
      const found = await get('/events/list/?tribe-bar-search=%22busy%20day%22%20-talk');
      assert.equal(count(found.text, /<article class="event">/g), 0);
      const some = await get('/events/list/?s=busy');
      assert.equal(count(some.text, /<article class="event">/g), 5);
      has(some.text, /<input id="bar-search" type="search" name="tribe-bar-search" value="busy"\/>/);
      const escaped = await get('/events/2026-04/?tribe-bar-search=%3Cscript%3Enope');
      has(escaped.text, /There were no results found for &quot;&lt;script>nope&quot; this month\./);
      const da = await get('/da/events/2026-04/');
      has(da.text, /<html lang="da">/);
      has(da.text, /<h1>april 2026<\/h1>/);
      has(da.text, /Spring til indhold/);
      const internal = hrefs(da.text).filter((href) => href.startsWith('/'));
      const others = internal.filter((href) => !href.startsWith('/da/') && !/^\/(it|es)?\/?events\//.test(href) && !href.startsWith('/assets/'));
      assert.deepEqual(others.filter((href) => !href.startsWith('/da')), [], 'links keep /da');
      const hreflangs = [...da.text.matchAll(/<link rel="alternate" hreflang="([^"]+)"/g)].map((match) => match[1]);
      assert.deepEqual(hreflangs, ['en', 'da', 'it', 'es', 'x-default']);
      // The switcher in the header and the language links in the footer (55 §3.1, §11).
      const footer = /<footer class="site-footer">.*<\/footer>/s.exec(da.text)![0];
      assert.deepEqual(hrefs(footer).filter((href) => href.startsWith('/')), ['/da/events/feed/', '/events/2026-04/', '/da/events/2026-04/', '/it/events/2026-04/', '/es/events/2026-04/']);
      has(footer, /<a href="\/da\/events\/2026-04\/" lang="da" hreflang="da" aria-current="true">Dansk<\/a>/);
    });
  });
}
