import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../helpers/databases.ts';
import { NS, startTestApp } from '../helpers/test-app.ts';
import { EDITIONS, NOW, repeatQueries, startPageFixture, variantPath, VARIANTS, type PageFixture } from './fixture.ts';

const weekPage = (edition: string, variant: string, date: string) => variantPath(edition, variant, `week/${date}/`);

const shownIds = (html: string) => [...new Set([...html.matchAll(/<li [^>]*data-event-id="(\d+)"/g)].map((match) => Number(match[1])))].sort((a, b) => a - b);

/** The attributes of the element carrying `data-event-id="{id}"`, once per place it appears. */
function placements(html: string, id: number): Array<Record<string, string>> {
  return [...html.matchAll(new RegExp(`<li ([^>]*data-event-id="${id}"[^>]*)>`, 'g'))].map((match) =>
    Object.fromEntries([...match[1].matchAll(/([\w-]+)="([^"]*)"/g)].map((pair) => [pair[1], pair[2]])),
  );
}

/** The day section holding an element (its `data-date`), or `all-day` for the top row. */
function placeOf(html: string, id: number): string[] {
  const places: string[] = [];
  for (const part of html.split(/(?=<section )/)) {
    if (!new RegExp(`data-event-id="${id}"`).test(part)) continue;
    places.push(/data-row="all-day"/.test(part) ? 'all-day' : /data-date="([\d-]+)"/.exec(part)![1]);
  }
  return places;
}

// 130 §4 over HTTP on both databases.
for (const dialect of DIALECTS) {
  describe(`week view [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let f: PageFixture;
    const ids: Record<string, number> = {};
    before(async () => {
      f = await startPageFixture(dialect);
      const events: Record<string, Record<string, unknown>> = {
        first: { title: 'Morning Rehearsal', start_date: '2026-06-09 10:00', end_date: '2026-06-09 12:00', categories: 'music' },
        second: { title: 'Late Morning Talk', start_date: '2026-06-09 11:00', end_date: '2026-06-09 13:00', tags: 'outdoor' },
        touching: { title: 'Lunch Concert', start_date: '2026-06-09 13:00', end_date: '2026-06-09 14:00', featured: true },
        night: { title: 'Night Walk', start_date: '2026-06-10 22:00', end_date: '2026-06-11 02:00', tags: 'outdoor' },
        allday: { title: 'Summer Fete', all_day: true, start_date: '2026-06-12', end_date: '2026-06-12', categories: 'music' },
        across: { title: 'Long Festival', start_date: '2026-06-13 10:00', end_date: '2026-06-16 18:00', featured: true },
      };
      for (const n of [1, 2, 3, 4, 5]) events[`crowd${n}`] = { title: `Crowded Talk ${n}`, start_date: `2026-06-23 09:0${n}`, end_date: '2026-06-23 10:00' };
      for (const [key, body] of Object.entries(events)) {
        ids[key] = (await f.t.request('POST', `${NS}/events`, { as: 'administrator', body: { status: 'publish', ...body } })).body.id;
      }
    });
    after(() => f.t.close());

    const get = (url: string) => f.t.request('GET', url);

    test('every edition and variant shows the events the API lists for the same week', async () => {
      for (const [date, first] of [['2026-04-15', '2026-04-13'], ['2026-06-11', '2026-06-08'], ['2026-04-20', '2026-04-20']]) {
        const end = new Date(Date.parse(`${first}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10);
        for (const edition of EDITIONS) {
          for (const [variant, filter] of VARIANTS) {
            const api = await get(`${edition}${NS}/events?strict_dates=1&ends_after=${first}%2000:00:00&starts_before=${end}%2000:00:00&per_page=50${filter}`);
            const expected = ((api.body.events ?? []) as Array<{ id: number }>).map((event) => event.id).sort((a, b) => a - b);
            const path = weekPage(edition, variant, date);
            const res = await get(path);
            assert.equal(res.status, 200, path);
            assert.match(res.text, new RegExp(`data-week-start="${first}"`), path);
            assert.deepEqual(shownIds(res.text), expected, path);
          }
        }
      }
    });

    test('overlapping events side by side, touching ones not; rows by the half hour from 08:00', async () => {
      const html = (await get('/events/week/2026-06-09/')).text;
      const [first] = placements(html, ids.first);
      const [second] = placements(html, ids.second);
      const [touching] = placements(html, ids.touching);
      assert.deepEqual([first['data-lane'], first['data-lanes'], second['data-lane'], second['data-lanes']], ['1', '2', '2', '2']);
      assert.deepEqual([touching['data-lane'], touching['data-lanes']], ['1', '1']);
      // The Night Walk's 00:00 segment starts the grid at 00:00: 10:00 is row 20; two hours are four rows.
      assert.equal(first.class, 'segment r20 s4 l1-2');
      assert.equal(second.class, 'segment r22 s4 l2-2');
      assert.equal(touching.class, 'segment r26 s2 l1-1');
      // Without it the grid starts at 08:00 and ends at the Tokyo Session's 19:00 (events keep their own wall clocks, as on every view).
      const april = (await get('/events/week/2026-04-13/')).text;
      assert.match(april, /class="week week-rows-22"/);
      assert.equal(placements(april, f.ids.newyork)[0].class, 'segment r2 s2 l1-1');
      assert.equal(placements(april, f.ids.midnight)[0].class, 'segment r8 s1 l1-1', 'a zero-length event takes half an hour');
      assert.match((await get('/events/week/2026-07-06/')).text, /class="week week-rows-20"/);
      assert.deepEqual([first['data-start'], first['data-end']], ['10:00', '12:00']);
      assert.match(html, /<span class="featured-label">Featured<\/span>/);
      assert.doesNotMatch(html, / style=/);
    });

    test('an event across midnight is on both days; all-day and multi-day events in the top row, clamped to the week', async () => {
      const html = (await get('/events/week/2026-06-09/')).text;
      assert.deepEqual(placeOf(html, ids.night), ['2026-06-10', '2026-06-11']);
      assert.deepEqual(placements(html, ids.night).map((place) => [place['data-start'], place['data-end']]), [['22:00', '24:00'], ['00:00', '02:00']]);
      assert.deepEqual(placeOf(html, ids.allday), ['all-day']);
      assert.deepEqual(placements(html, ids.allday).map((place) => [place['data-first'], place['data-last'], place.class]), [['2026-06-12', '2026-06-12', 'week-bar c4 w1']]);
      assert.deepEqual(placeOf(html, ids.across), ['all-day']);
      assert.deepEqual(placements(html, ids.across).map((place) => [place['data-first'], place['data-last'], place.class]), [['2026-06-13', '2026-06-14', 'week-bar c5 w2']]);
      const next = (await get('/events/week/2026-06-15/')).text;
      assert.deepEqual(placements(next, ids.across).map((place) => [place['data-first'], place['data-last']]), [['2026-06-15', '2026-06-16']]);
      // The grid grows to the latest segment end: midnight is row 47's end.
      assert.match(html, /class="week week-rows-48"/);
    });

    test('seven day sections in order, heading, canonical, navigation and the empty week', async () => {
      const res = await get('/da/events/week/2026-06-11/');
      assert.deepEqual([...res.text.matchAll(/<section class="week-day[^"]*" data-date="([\d-]+)"/g)].map((match) => match[1]), ['2026-06-08', '2026-06-09', '2026-06-10', '2026-06-11', '2026-06-12', '2026-06-13', '2026-06-14']);
      assert.match(res.text, /<h1>Ugen fra mandag den 8\. juni 2026<\/h1>|<h1>Ugen fra [^<]*8\.? juni 2026<\/h1>/);
      assert.match(res.text, /<link rel="canonical" href="[^"]*\/da\/events\/week\/2026-06-08\/"/);
      assert.match(res.text, /<a href="\/da\/events\/week\/2026-06-01\/">« Forrige uge<\/a>/);
      assert.match(res.text, /<a href="\/da\/events\/week\/2026-06-15\/">Næste uge »<\/a>/);
      // No event starts after the crowded week: next is plain text (the 55 §4 bound).
      assert.match((await get('/events/week/2026-06-22/')).text, /<span class="disabled">Next Week »<\/span>/);
      assert.match((await get('/events/week/2026-06-01/')).text, /<a href="\/events\/week\/2026-06-08\/">Next Week »<\/a>/);
      const current = await get('/events/week/');
      assert.match(current.text, /data-week-start="2026-04-06"/, `the week of ${NOW.toISOString()}`);
      assert.match(current.text, /<link rel="canonical" href="[^"]*\/events\/week\/"/);
      const empty = (await get('/events/week/2026-03-02/')).text;
      assert.match(empty, /<p>There were no results found for this view\. <a href="\/events\/week\/2026-04-02\/">View next week with events<\/a><\/p>/);
      assert.match(empty, /<span class="disabled">« Previous Week<\/span>/);
      assert.equal((await get('/events/week/2026-02-30/')).status, 404);
      assert.equal((await get('/events/?eventDisplay=week&tribe-bar-date=2026-06-10')).text.includes('data-week-start="2026-06-08"'), true);
    });

    test('at most four lanes: a fifth overlapping event becomes "+ 1 More", linking to the day view', async () => {
      const html = (await get('/events/week/2026-06-23/')).text;
      assert.deepEqual([1, 2, 3, 4].map((n) => placements(html, ids[`crowd${n}`]).map((place) => `${place['data-lane']}/${place['data-lanes']}`)), [['1/4'], ['2/4'], ['3/4'], ['4/4']]);
      assert.deepEqual(placements(html, ids.crowd5), []);
      assert.match(html, /<p class="more"><a href="\/events\/2026-06-23\/" aria-label="\+ 1 more events on Tuesday, June 23, 2026">\+ 1 More<\/a><\/p>/);
    });

    test('a repeated week page runs no query', async () => {
      assert.equal(await repeatQueries(f.t, '/events/week/2026-06-16/'), 0);
    });

    test('the week starts on CALENDAR_WEEK_START', async () => {
      const t = await startTestApp(dialect, { clock: () => NOW, env: { CALENDAR_WEEK_START: '0' } });
      try {
        const html = (await t.request('GET', '/events/week/2026-06-10/')).text;
        assert.match(html, /data-week-start="2026-06-07"/);
        assert.equal([...html.matchAll(/<section class="week-day[^"]*" data-date="([\d-]+)"/g)][0][1], '2026-06-07');
        assert.match((await t.request('GET', '/events/week/2026-06-13/')).text, /data-week-start="2026-06-07"/);
        assert.match((await t.request('GET', '/events/week/2026-06-14/')).text, /data-week-start="2026-06-14"/);
      } finally {
        await t.close();
      }
    });
  });
}
