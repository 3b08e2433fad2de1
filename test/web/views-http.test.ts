import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../helpers/databases.ts';
import { jpeg } from '../helpers/images.ts';
import { NS, startTestApp } from '../helpers/test-app.ts';
import { EDITIONS, repeatQueries, startPageFixture, variantPath, VARIANTS, type PageFixture } from './fixture.ts';

/** Path of a photo or summary page. */
const viewPage = (edition: string, variant: string, view: string, page = 1) => variantPath(edition, variant, `${view}/${page > 1 ? `page/${page}/` : ''}`);

const shownIds = (html: string) => [...html.matchAll(/<(?:article|li) [^>]*data-event-id="(\d+)"/g)].map((match) => Number(match[1]));

function jsonLd(html: string): unknown {
  const match = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html);
  return match ? JSON.parse(match[1]) : undefined;
}

// 130 §5, §6 and CALENDAR_VIEWS over HTTP on both databases.
for (const dialect of DIALECTS) {
  describe(`photo and summary views [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let f: PageFixture;
    let pictured: number;
    before(async () => {
      f = await startPageFixture(dialect, { CALENDAR_LIST_PER_PAGE: '6' });
      const created = await f.t.request('POST', `${NS}/events`, {
        as: 'administrator',
        body: { title: 'Pictured Walk', status: 'publish', start_date: '2026-04-11 10:00', end_date: '2026-04-11 12:00', image: 'https://img.example.org/walk.jpg' },
      });
      pictured = created.body.id;
    });
    after(() => f.t.close());

    const get = (url: string) => f.t.request('GET', url);
    // Past the last page the API answers 400 without a list: no events there.
    const api = async (edition: string, filter: string, page = 1) =>
      ((await get(`${edition}${NS}/events?strict_dates=1&ends_after=2026-04-10%2012:00:00&per_page=6&page=${page}${filter}`)).body.events ?? []) as Array<{ id: number }>;

    test('every edition and variant shows the list\'s events, page by page, with the API\'s JSON-LD', async () => {
      for (const view of ['photo', 'summary']) {
        for (const edition of EDITIONS) {
          for (const [variant, filter] of VARIANTS) {
            for (const page of [1, 2]) {
              const expected = await api(edition, filter, page);
              const path = viewPage(edition, variant, view, page);
              const res = await get(path);
              if (expected.length === 0) {
                assert.equal(res.status, 404, path);
                continue;
              }
              assert.equal(res.status, 200, path);
              assert.deepEqual(shownIds(res.text), expected.map((event) => event.id), path);
              if (variant !== '' || page !== 1) continue;
              // The list omits json_ld: each event's own answer has it (none for a protected event).
              const singles = await Promise.all(expected.map(async (event) => (await get(`${edition}${NS}/events/${event.id}`)).body.json_ld));
              assert.deepEqual(jsonLd(res.text), singles.filter((value) => value !== undefined), path);
            }
          }
        }
      }
    });

    test('photo: cards with the image or a placeholder, heading links, schedule and place', async () => {
      const html = (await get('/events/photo/')).text;
      assert.match(html, /<ul class="photos">/);
      const card = (id: number) => new RegExp(`<article class="card photo" data-event-id="${id}">(.*?)</article>`, 's').exec(html)![1];
      assert.match(card(pictured), /^<img src="https:\/\/img\.example\.org\/walk\.jpg" sizes="\(max-width: 600px\) 100vw, 300px" width="400" height="300" loading="lazy" decoding="async" alt\/>/);
      assert.match(card(pictured), /<h2><a href="\/event\/pictured-walk\/">Pictured Walk<\/a><\/h2>/);
      assert.match(card(f.ids.concert), /^<div class="photo-placeholder" aria-hidden="true"><\/div><h2><a href="\/event\/[^"]+">Opening Concert<\/a><span class="featured-label">Featured<\/span><\/h2>/);
      assert.match(card(f.ids.concert), /<p class="place">Harbour Hall, Aarhus<\/p>/);
      assert.match(card(f.ids.concert), /<time datetime="2026-04-12T19:30:00\+02:00">April 12 @ 7:30 pm – 10:00 pm<\/time>/);
      const later = (await get('/events/photo/page/2/')).text;
      assert.match(later, /<article class="card photo" data-event-id="\d+">/);
      const secret = new RegExp(`<article class="card photo" data-event-id="${f.ids.secret}">(.*?)</article>`, 's').exec((await get('/events/photo/page/3/')).text)?.[1]
        ?? new RegExp(`<article class="card photo" data-event-id="${f.ids.secret}">(.*?)</article>`, 's').exec(later)![1];
      assert.match(secret, /^<div class="photo-placeholder" aria-hidden="true"><\/div>/);
      assert.doesNotMatch(secret, /class="place"/);
    });

    test('summary: days by max(start, P), "Ongoing", time ranges and "All day"', async () => {
      const html = (await get('/events/summary/?tribe-bar-date=2026-04-19')).text;
      const days = [...html.matchAll(/<section class="summary-day" data-date="([\d-]+)" aria-labelledby="day-\1"><h2 id="day-\1"><time datetime="\1">([^<]+)<\/time><\/h2>/g)].map((match) => [match[1], match[2]]);
      assert.deepEqual(days[0], ['2026-04-19', 'Sunday, April 19, 2026']);
      assert.match(html, new RegExp(`<li data-event-id="${f.ids.fair}"><time datetime="2026-04-18T10:00:00\\+02:00">April 18 @ 10:00 am – April 21 @ 6:00 pm</time> <span class="ongoing">Ongoing</span> <a href="/event/[^"]+">Book Fair</a></li>`));
      assert.match(html, new RegExp(`<li data-event-id="${f.ids.busy1}"><time datetime="2026-04-20T09:00:00\\+02:00">9:00 am – 10:00 am</time>  <a href="/event/[^"]+">Busy Day Talk 1</a></li>`));
      const market = (await get('/events/summary/?tribe-bar-date=2026-04-25')).text;
      assert.match(market, new RegExp(`<li data-event-id="${f.ids.market}"><time datetime="2026-04-25">All day</time>`));
      assert.match((await get('/da/events/summary/?tribe-bar-date=2026-04-25')).text, /<time datetime="2026-04-25">Hele dagen<\/time>/);
    });

    test('the view selector lists the enabled views in order; switching keeps the date; feeds and headers as every view', async () => {
      const nav = (html: string) => /<nav aria-label="[^"]+" class="views">(.*?)<\/nav>/s.exec(html)![1];
      const en = nav((await get('/events/2026-04-20/')).text);
      assert.deepEqual([...en.matchAll(/>([^<>]+)<\/a>/g)].map((match) => match[1]), ['List', 'Month', 'Day', 'Week', 'Photo', 'Summary']);
      assert.match(en, /<a href="\/events\/photo\/\?tribe-bar-date=2026-04-20">Photo<\/a>/);
      const da = nav((await get('/da/events/summary/')).text);
      assert.deepEqual([...da.matchAll(/>([^<>]+)<\/a>/g)].map((match) => match[1]), ['Liste', 'Måned', 'Dag', 'Uge', 'Foto', 'Oversigt']);
      assert.match(da, /<a href="\/da\/events\/summary\/" aria-current="page">Oversigt<\/a>/);
      const page = await get('/events/category/music/photo/');
      assert.match(page.text, /<link rel="alternate" type="application\/rss\+xml" title="Music – Town Calendar" href="\/events\/category\/music\/feed\/"\/>/);
      assert.match(page.text, /<input id="bar-date" type="date"/);
      assert.equal((await f.t.request('GET', '/events/photo/', { headers: { 'if-none-match': page.headers.etag as string } })).status, 200);
      const photo = await get('/events/photo/');
      assert.equal((await f.t.request('GET', '/events/photo/', { headers: { 'if-none-match': photo.headers.etag as string } })).status, 304);
      assert.equal(await repeatQueries(f.t, '/events/summary/'), 0, 'a repeat runs no query');
      assert.equal((await get('/events/photo/?eventDisplay=summary')).status, 200);
      assert.equal((await get('/events/?eventDisplay=photo')).text.includes('<ul class="photos">'), true);
    });
  });

  describe(`photo cards of uploaded images [${dialect}]`, { skip: skipReason(dialect) }, () => {
    test('photo and feed: src = the smallest size at least 400 px wide; srcset = the sizes of the image\'s ratio and the full image; its width and height', async () => {
      const t = await startTestApp(dialect, { clock: () => new Date('2026-04-10T10:00:00Z'), env: { CALENDAR_UPLOADS: 'database' } });
      try {
        const uploaded = await t.app.inject({
          method: 'POST',
          url: '/calendar/admin/v1/media',
          headers: { 'content-type': 'image/jpeg', 'content-disposition': 'attachment; filename="harbour.jpg"', authorization: t.authHeader(t.users.administrator) },
          payload: await jpeg(1200, 900),
        });
        assert.equal(uploaded.statusCode, 201, uploaded.body);
        const created = await t.request('POST', `${NS}/events`, { as: 'administrator', body: { title: 'Harbour Walk', status: 'publish', start_date: '2026-04-11 10:00', end_date: '2026-04-11 12:00', image: JSON.parse(uploaded.body).id } });
        const image = created.body.image as { url: string; width: number; height: number; sizes: Record<string, { url: string; width: number; height: number }> };
        const sizes = Object.values(image.sizes).sort((a, b) => a.width - b.width);
        const chosen = sizes.find((size) => size.width >= 400)!;
        const sameRatio = [image, ...sizes].filter((size) => Math.abs(Math.round((image.height * size.width) / image.width) - size.height) <= 1);
        const html = (await t.request('GET', '/events/photo/')).text;
        const img = /<article class="card photo" data-event-id="\d+">(<img [^>]*>)/.exec(html)![1].replace(/&amp;/g, '&');
        assert.equal(/ src="([^"]+)"/.exec(img)![1], chosen.url);
        assert.deepEqual(/ srcset="([^"]+)"/.exec(img)![1].split(', ').sort(), sameRatio.map((size) => `${size.url} ${size.width}w`).sort());
        assert.equal(/ width="(\d+)"/.exec(img)![1], String(chosen.width));
        assert.equal(/ height="(\d+)"/.exec(img)![1], String(chosen.height));
        assert.ok(sizes.some((size) => size.width < 400), 'a smaller size exists and is passed over');
        // The feed's media:content (130 §8.2): the large size, with its own type and dimensions.
        const large = image.sizes.large as { url: string; width: number; height: number; 'mime-type': string };
        const feed = (await t.request('GET', '/events/feed/')).text;
        const media = feed.replace(/&amp;/g, '&').match(/<media:content [^>]*\/>/)![0];
        assert.equal(media, `<media:content url="${large.url}" medium="image" type="${large['mime-type']}" width="${large.width}" height="${large.height}"/>`);
      } finally {
        await t.close();
      }
    });
  });

  describe(`CALENDAR_VIEWS [${dialect}]`, { skip: skipReason(dialect) }, () => {
    test('a disabled view is not found and not offered; eventDisplay naming it gives the default view', async () => {
      const t = await startTestApp(dialect, { env: { CALENDAR_VIEWS: 'month,list' } });
      try {
        for (const path of ['/events/photo/', '/events/summary/', '/events/week/', '/da/events/week/2026-06-10/', '/da/events/photo/page/2/', '/events/category/any/summary/', '/events/today/']) {
          assert.equal((await t.request('GET', path)).status, 404, path);
        }
        const month = await t.request('GET', '/events/?eventDisplay=photo');
        assert.equal(month.status, 200);
        assert.match(month.text, /<table class="month">/);
        const nav = /<nav aria-label="[^"]+" class="views">(.*?)<\/nav>/s.exec(month.text)![1];
        assert.deepEqual([...nav.matchAll(/>([^<>]+)<\/a>/g)].map((match) => match[1]), ['List', 'Month']);
      } finally {
        await t.close();
      }
    });
  });
}
