import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PAGE_CONTENT_SECURITY_POLICY } from '../../src/http/plugins/security.ts';
import { DIALECTS, skipReason } from '../helpers/databases.ts';
import { NS, startTestApp } from '../helpers/test-app.ts';
import { EDITIONS, repeatQueries, startPageFixture, variantPath, VARIANTS, type PageFixture } from './fixture.ts';

const TILE_URL = 'https://tiles.example.net/{z}/{x}/{y}.png';
const LEAFLET_DIST = join(dirname(createRequire(import.meta.url).resolve('leaflet/package.json')), 'dist');

interface ApiVenue { id: number; venue: string; url: string; status: string; geo_lat?: number; geo_lng?: number }
interface ApiEvent { id: number; title: string; url: string; all_day: boolean; start_date: string; utc_start_date: string; venue: ApiVenue | [] }

const mapPage = (edition: string, variant: string, page = 1) => variantPath(edition, variant, page > 1 ? `map/page/${page}/` : 'map/');

/** `{section name: event ids in order}` and each located venue's event ids, as the page shows them. */
function sections(html: string) {
  const ids = (part: string) => [...part.matchAll(/<li data-event-id="(\d+)"/g)].map((match) => Number(match[1]));
  const located = /<section data-section="located"[^>]*>(.*?)<\/section>/s.exec(html)?.[1] ?? '';
  const unlocated = /<section data-section="no-location"[^>]*>(.*?)<\/section>/s.exec(html)?.[1] ?? '';
  const venues = [...located.matchAll(/<article class="card map-venue" data-venue-id="(\d+)">(.*?)<\/article>/gs)].map((match) => ({ id: Number(match[1]), events: ids(match[2]) }));
  return { venues, unlocated: ids(unlocated) };
}

function mapData(html: string): unknown {
  const match = /<script type="application\/json" id="calendar-map-data">(.*?)<\/script>/s.exec(html);
  return match ? JSON.parse(match[1]) : undefined;
}

/** What the page must show for the API's events (130 §7.1): venues visitors may place, by first appearance. */
function expectedSections(events: ApiEvent[]) {
  const venues: Array<{ id: number; events: number[] }> = [];
  const unlocated: number[] = [];
  for (const event of events) {
    const venue = Array.isArray(event.venue) ? undefined : event.venue;
    const placed = venue && venue.status === 'publish' && typeof venue.geo_lat === 'number' && !(venue.geo_lat === 0 && venue.geo_lng === 0);
    if (!placed) {
      unlocated.push(event.id);
      continue;
    }
    const known = venues.find((entry) => entry.id === venue.id);
    if (known) known.events.push(event.id);
    else venues.push({ id: venue.id, events: [event.id] });
  }
  return { venues, unlocated };
}

const relative = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');

// 130 §7 over HTTP on both databases.
for (const dialect of DIALECTS) {
  describe(`map view [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let f: PageFixture;
    const ids: Record<string, number> = {};
    const venues: Record<string, number> = {};
    before(async () => {
      f = await startPageFixture(dialect, { CALENDAR_VIEWS: 'list,month,week,map', CALENDAR_LIST_PER_PAGE: '6', CALENDAR_MAP_TILE_URL: TILE_URL });
      const post = async (path: string, body: Record<string, unknown>) => {
        const res = await f.t.request('POST', `${NS}${path}`, { as: 'administrator', body });
        assert.equal(res.status, 201, res.text);
        return res.body.id as number;
      };
      venues.dock = await post('/venues', { venue: 'Dock Stage', address: 'Havnen 3', city: 'Aarhus', country: 'Denmark', geo_lat: 56.1527, geo_lng: 10.2143, status: 'publish' });
      venues.park = await post('/venues', { venue: 'Park <Pavilion> & Co', city: 'Aarhus', geo_lat: '56.1601', geo_lng: '10.1901', status: 'publish' });
      venues.loft = await post('/venues', { venue: 'Hidden Loft', city: 'Aarhus', geo_lat: 56.1, geo_lng: 10.1, password: 'loft', status: 'publish' });
      venues.planned = await post('/venues', { venue: 'Planned Hall', geo_lat: 56.2, geo_lng: 10.2, status: 'draft' });
      const events: Record<string, Record<string, unknown>> = {
        swim: { title: 'Harbour Swim', start_date: '2026-04-11 09:00', end_date: '2026-04-11 10:00', venue: venues.dock, categories: 'jazz', tags: 'outdoor' },
        reading: { title: 'Loft Reading', start_date: '2026-04-11 18:00', end_date: '2026-04-11 19:00', venue: venues.loft, categories: 'music' },
        picnic: { title: 'Park Picnic </script>', start_date: '2026-04-12 12:00', end_date: '2026-04-12 14:00', venue: venues.park, tags: 'outdoor', featured: true },
        dance: { title: 'Dock Dance', start_date: '2026-04-13 20:00', end_date: '2026-04-13 23:00', venue: venues.dock, featured: true, categories: 'music' },
        opening: { title: 'Hall Opening', start_date: '2026-04-13 10:00', end_date: '2026-04-13 11:00', venue: venues.planned, tags: 'outdoor' },
        fete: { title: 'Dock Fete', all_day: true, start_date: '2026-04-26', end_date: '2026-04-26', venue: venues.dock },
        guarded: { title: 'Guarded Tasting', start_date: '2026-04-27 17:00', end_date: '2026-04-27 19:00', venue: venues.dock, password: 'dock' },
      };
      for (const [key, body] of Object.entries(events)) ids[key] = await post('/events', { status: 'publish', ...body });
    });
    after(() => f.t.close());

    const get = (url: string) => f.t.request('GET', url);
    // Past the last page the API answers 400 without a list: no events there.
    const api = async (edition: string, filter: string, page = 1, past = false) =>
      ((await get(`${edition}${NS}/events?strict_dates=1&${past ? 'ends_before' : 'ends_after'}=2026-04-10%2012:00:00&per_page=6&page=${page}${filter}`)).body.events ?? []) as ApiEvent[];

    test('every edition and variant shows the list\'s events, page by page: located venues first, then the rest', async () => {
      for (const edition of EDITIONS) {
        for (const [variant, filter] of VARIANTS) {
          for (const page of [1, 2, 3]) {
            const expected = await api(edition, filter, page);
            const path = mapPage(edition, variant, page);
            const res = await get(path);
            if (expected.length === 0) {
              assert.equal(res.status, 404, path);
              continue;
            }
            assert.equal(res.status, 200, path);
            assert.deepEqual(sections(res.text), expectedSections(expected), path);
          }
        }
      }
      // Past mode as the list's, newest last.
      const past = await get('/events/map/?eventDisplay=past');
      assert.deepEqual(sections(past.text).unlocated, (await api('', '', 1, true)).map((event) => event.id).reverse());
    });

    test('located venues: name linking to the venue page, address, "Show on map" by coordinates, events with their time', async () => {
      const html = (await get('/events/map/')).text;
      const dock = /<article class="card map-venue" data-venue-id="(\d+)">(.*?)<\/article>/s.exec(html)!;
      assert.equal(Number(dock[1]), venues.dock);
      assert.match(dock[2], /^<h3><a href="\/venue\/dock-stage\/">Dock Stage<\/a><\/h3><address>Havnen 3, Aarhus, Denmark<\/address>/);
      assert.match(dock[2], /<p><a href="https:\/\/www\.google\.com\/maps\/search\/\?api=1&amp;query=56\.1527%2C10\.2143">Show on map<\/a><\/p>/);
      assert.match(dock[2], new RegExp(`<li data-event-id="${ids.swim}"><time datetime="2026-04-11T09:00:00\\+02:00">April 11 @ 9:00 am – 10:00 am</time> <a href="/event/harbour-swim/">Harbour Swim</a></li>`));
      assert.match(dock[2], new RegExp(`<li data-event-id="${ids.dance}"><time datetime="[^"]+">[^<]+</time> <a href="/event/dock-dance/">Dock Dance</a><span class="featured-label">Featured</span></li>`));
      assert.match(html, /<h2 id="located-heading">Events by location<\/h2><div id="calendar-map" hidden role="region" aria-label="Map of event locations" data-tiles="https:\/\/tiles\.example\.net\/\{z\}\/\{x\}\/\{y\}\.png" data-attribution="© OpenStreetMap contributors" data-attribution-url="https:\/\/www\.openstreetmap\.org\/copyright"><\/div>/);
      assert.match(html, /<h2 id="no-location-heading">No location<\/h2>/);
      // The Danish edition: translated headings, the map's name, and the schedule.
      const da = (await get('/da/events/map/')).text;
      assert.match(da, /<h2 id="located-heading">Begivenheder efter sted<\/h2><div id="calendar-map" hidden role="region" aria-label="Kort over begivenhedernes steder"/);
      assert.match(da, />Vis på kort<\/a>/);
      assert.match(da, /<h2 id="no-location-heading">Intet sted<\/h2>/);
    });

    test('the map data: the located section only, as the API describes those venues and events, escaped inside the script', async () => {
      const res = await get('/events/map/');
      const events = await api('', '');
      const expected: Array<Record<string, unknown>> = [];
      for (const event of events) {
        const venue = Array.isArray(event.venue) ? undefined : event.venue;
        if (!venue || venue.status !== 'publish' || venue.id === venues.loft || typeof venue.geo_lat !== 'number') continue;
        let entry = expected.find((candidate) => candidate.venue_id === venue.id);
        if (!entry) expected.push((entry = { venue_id: venue.id, name: venue.venue, url: relative(venue.url), lat: venue.geo_lat, lng: venue.geo_lng, events: [] }));
        (entry.events as unknown[]).push({ id: event.id, title: event.title, url: relative(event.url), start: event.all_day ? event.start_date.slice(0, 10) : `${event.start_date.replace(' ', 'T')}+02:00` });
      }
      assert.deepEqual(mapData(res.text), expected);
      assert.deepEqual(expected.map((entry) => entry.venue_id), [venues.dock, venues.park]);
      // The title holding </script> and the name holding < > & never close the element.
      assert.doesNotMatch(res.text, /Park Picnic <\/script>/);
      assert.match(res.text, /"name":"Park \\u003cPavilion\\u003e \\u0026 Co"/);
    });

    test('a locked venue, a draft venue and a protected event are not placed: their events are listed without location', async () => {
      const html = (await get('/events/map/')).text;
      const { venues: placed, unlocated } = sections(html);
      assert.ok(!placed.some((venue) => venue.id === venues.loft || venue.id === venues.planned));
      assert.ok(unlocated.includes(ids.reading) && unlocated.includes(ids.opening));
      assert.doesNotMatch(html, /Hidden Loft|Planned Hall|"lat":56\.1,|"lat":0/);
      const later = sections((await get('/events/map/?tribe-bar-date=2026-04-26')).text);
      assert.deepEqual(later.venues, [{ id: venues.dock, events: [ids.fete] }]);
      assert.deepEqual(later.unlocated.slice(0, 2), [f.ids.secret, ids.guarded], 'protected events are listed without location, even at a located venue');
    });

    test('headers: the pages\' policy plus exactly the tile origin on map pages, every other page unchanged; ETag and a cached repeat', async () => {
      const map = await get('/events/map/');
      const expected = PAGE_CONTENT_SECURITY_POLICY.replace("img-src 'self' https: data:", "img-src 'self' https: data: https://tiles.example.net");
      assert.equal(map.headers['content-security-policy'], expected);
      assert.notEqual(expected, PAGE_CONTENT_SECURITY_POLICY);
      assert.equal(map.headers['referrer-policy'], 'strict-origin-when-cross-origin');
      assert.equal(map.headers['x-frame-options'], 'SAMEORIGIN');
      for (const path of ['/da/events/map/page/2/', '/events/category/music/map/', '/events/map/featured/']) {
        assert.equal((await get(path)).headers['content-security-policy'], expected, path);
      }
      for (const path of ['/events/list/', '/events/month/', '/events/week/', `/event/${f.slugs.concert}/`, `/venue/${f.venueSlug}/`, '/events/map/page/99/', '/events/nothing-here/']) {
        assert.equal((await get(path)).headers['content-security-policy'], PAGE_CONTENT_SECURITY_POLICY, path);
      }
      const revalidated = await f.t.request('GET', '/events/map/', { headers: { 'if-none-match': map.headers.etag as string } });
      assert.equal(revalidated.status, 304);
      assert.equal(revalidated.headers['content-security-policy'], expected);
      assert.equal(await repeatQueries(f.t, '/da/events/map/'), 0, 'a repeat runs no query');
    });

    test('Leaflet and map.js: linked only by map pages with a venue to place, served from our origin unchanged and immutable', async () => {
      const html = (await get('/events/map/')).text;
      const head = /<head>(.*?)<\/head>/s.exec(html)![1];
      const leaflet = '/assets/leaflet-1.9.4';
      assert.match(head, new RegExp(`<link rel="stylesheet" href="${leaflet}/leaflet.css"/><script src="${leaflet}/leaflet.js" defer></script><script src="(/assets/map\\.js\\?v=[\\w-]{10})" defer></script>`));
      const script = /<script src="(\/assets\/map\.js\?v=[\w-]{10})" defer>/.exec(head)![1];
      for (const path of ['/events/list/', '/events/month/', '/events/week/', `/event/${f.slugs.concert}/`]) {
        assert.doesNotMatch((await get(path)).text, /leaflet|map\.js/, path);
      }
      // A map page whose events have no place loads nothing of the map.
      const unplaced = (await get('/events/map/?tribe-bar-date=2026-05-01')).text;
      assert.match(unplaced, /data-section="no-location"/);
      assert.doesNotMatch(unplaced, /leaflet|map\.js|calendar-map/);
      for (const [file, type] of [['leaflet.js', 'text/javascript; charset=utf-8'], ['leaflet.css', 'text/css; charset=utf-8'], ['images/marker-icon.png', 'image/png'], ['images/marker-shadow.png', 'image/png'], ['images/layers.png', 'image/png']]) {
        const res = await f.t.app.inject({ method: 'GET', url: `${leaflet}/${file}` });
        assert.equal(res.statusCode, 200, file);
        assert.equal(res.headers['content-type'], type, file);
        assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable', file);
        assert.ok(res.rawPayload.equals(readFileSync(join(LEAFLET_DIST, file))), `${file} unchanged`);
      }
      const own = await get(script);
      assert.equal(own.status, 200);
      assert.equal(own.headers['content-type'], 'text/javascript; charset=utf-8');
      assert.equal(own.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.match(own.text, /calendar-map-data/);
    });

    test('the view selector lists Map last and switches to it as to the list; eventDisplay=map; the sitemap names it', async () => {
      const nav = /<nav aria-label="[^"]+" class="views">(.*?)<\/nav>/s.exec((await get('/events/week/2026-04-20/')).text)![1];
      assert.deepEqual([...nav.matchAll(/>([^<>]+)<\/a>/g)].map((match) => match[1]), ['List', 'Month', 'Week', 'Map']);
      assert.match(nav, /<a href="\/events\/map\/\?tribe-bar-date=2026-04-20">Map<\/a>/);
      assert.match((await get('/events/?eventDisplay=map')).text, /data-section="located"/);
      assert.match((await get('/sitemaps/pages.xml')).text, /<loc>[^<]*\/events\/map\/<\/loc>/);
      const dated = await get('/events/map/?tribe-bar-date=2026-04-20');
      assert.match(dated.text, /<input id="bar-date" type="date"[^>]* value="2026-04-20"/);
      assert.match(dated.text, /<link rel="canonical" href="[^"]+\/events\/map\/\?tribe-bar-date=2026-04-20"\/>/);
    });
  });

  describe(`map view off by default [${dialect}]`, { skip: skipReason(dialect) }, () => {
    test('without map in CALENDAR_VIEWS its paths are not found, Leaflet is not served and the selector omits it', async () => {
      const t = await startTestApp(dialect);
      try {
        for (const path of ['/events/map/', '/da/events/map/page/2/', '/events/category/any/map/', '/assets/leaflet-1.9.4/leaflet.js']) {
          assert.equal((await t.request('GET', path)).status, 404, path);
        }
        assert.doesNotMatch((await t.request('GET', '/events/list/')).text, />Map<\/a>/);
        assert.match((await t.request('GET', '/events/?eventDisplay=map')).text, /<table class="month">/);
      } finally {
        await t.close();
      }
    });
  });
}
