import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { MediaRepository } from '../../../src/storage/repositories/media-repository.ts';
import { clock, createEvent, EVENTS, list, listedIds } from './fixtures.ts';

const BASE = `http://calendar.test${NS}/events/`;
const DEFAULT_WINDOW = 'start_date=2025-03-31%2000%3A00%3A00&end_date=2027-04-01%2023%3A59%3A59';

// 10-events §4.6: envelope, links, headers, pagination; and the batch loading of a page.
for (const dialect of DIALECTS) {
  describe(`events: list envelope and links [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    const paged: number[] = [];
    before(async () => {
      t = await startTestApp(dialect, { clock });
      for (let day = 10; day < 15; day++) {
        paged.push((await createEvent(t, 'editor', { title: `Pagemark ${day}`, start_date: `2025-04-${day} 10:00`, end_date: `2025-04-${day} 11:00` })).id);
      }
    });
    after(() => t.close());

    test('pages: keys in order, next only while a next page has events, previous from page 2', async () => {
      const first = await list(t, '?search=pagemark&per_page=2');
      assert.deepEqual(Object.keys(first), ['events', 'rest_url', 'next_rest_url', 'total', 'total_pages']);
      assert.deepEqual(first.events.map((event: any) => event.id), paged.slice(0, 2));
      assert.equal(first.total, 5);
      assert.equal(first.total_pages, 3);
      assert.equal(first.rest_url, `${BASE}?page=1&per_page=2&${DEFAULT_WINDOW}&search=pagemark&status=publish`);
      assert.equal(first.next_rest_url, `${BASE}?per_page=2&${DEFAULT_WINDOW}&search=pagemark&status=publish&page=2`);
      const second = await list(t, '?search=pagemark&per_page=2&page=2');
      assert.deepEqual(Object.keys(second), ['events', 'rest_url', 'next_rest_url', 'previous_rest_url', 'total', 'total_pages']);
      assert.equal(second.previous_rest_url, `${BASE}?per_page=2&${DEFAULT_WINDOW}&search=pagemark&status=publish`);
      const third = await list(t, '?search=pagemark&per_page=2&page=3');
      assert.deepEqual(Object.keys(third), ['events', 'rest_url', 'previous_rest_url', 'total', 'total_pages']);
      assert.deepEqual(third.events.map((event: any) => event.id), paged.slice(4));
      assert.equal(third.previous_rest_url, `${BASE}?per_page=2&${DEFAULT_WINDOW}&search=pagemark&status=publish&page=2`);
    });

    test('following the links walks the same result set', async () => {
      const seen: number[] = [];
      let url: string | undefined = `${EVENTS}?search=pagemark&per_page=2`;
      while (url) {
        const res: { status: number; body: any } = await t.request('GET', url.replace('http://calendar.test', ''));
        assert.equal(res.status, 200);
        seen.push(...res.body.events.map((event: any) => event.id));
        url = res.body.next_rest_url;
      }
      assert.deepEqual(seen, paged);
    });

    test('nothing on page 1 is an empty 200; any empty page after it is 404', async () => {
      const empty = await t.request('GET', `${EVENTS}?search=nomatchatall`);
      assert.equal(empty.status, 200);
      assert.deepEqual(Object.keys(empty.body), ['events', 'rest_url', 'total', 'total_pages']);
      assert.deepEqual(empty.body.events, []);
      assert.equal(empty.body.total, 0);
      assert.equal(empty.body.total_pages, 0);
      assert.equal(empty.headers['x-tec-total'], '0');
      assert.equal(empty.headers['x-tec-totalpages'], '0');
      for (const query of ['?search=nomatchatall&page=2', '?search=pagemark&per_page=2&page=4']) {
        const res = await t.request('GET', `${EVENTS}${query}`);
        assert.equal(res.status, 404, query);
        assert.equal(res.body.code, 'event-archive-page-not-found');
      }
    });

    test('headers: totals and the methods the caller may use', async () => {
      const visitor = await t.request('GET', `${EVENTS}?search=pagemark&per_page=2`);
      assert.equal(visitor.headers['x-tec-total'], '5');
      assert.equal(visitor.headers['x-tec-totalpages'], '3');
      assert.equal(visitor.headers.allow, 'GET');
      assert.equal((await t.request('GET', EVENTS, { as: 'contributor' })).headers.allow, 'GET, POST');
      assert.equal((await t.request('GET', EVENTS, { as: 'subscriber' })).headers.allow, 'GET');
    });

    test('per_page above 50 is clamped to 50', async () => {
      const body = await list(t, '?per_page=500');
      assert.match(body.rest_url, /[?&]per_page=50&/);
    });

    test('⚠ links keep every filter (categories, tags, strict_dates, featured=0), percent-encoded, in order', async () => {
      const venue = (await createEvent(t, 'editor', { venue: { venue: 'Link Hall' }, categories: 'Blues Night', tags: 't1' })).venue.id;
      const organizer = (await createEvent(t, 'editor', { organizer: [{ organizer: 'Link Org' }], categories: 'jazz' })).organizer[0].id;
      const query = `?per_page=3&search=${encodeURIComponent('Jazz & Blues')}&categories=${encodeURIComponent('jazz, Blues Night')}&tags=t1`
        + `&strict_dates=yes&featured=0&status=${encodeURIComponent('publish, draft')}&geoloc=1&geoloc_lat=45.5&geoloc_lng=9.1`
        + `&venue=${venue}&organizer=${organizer}&ends_after=2025-04-01 08:00`;
      const body = await list(t, query, 'editor');
      assert.equal(body.rest_url, `${BASE}?page=1&per_page=3&search=Jazz%20%26%20Blues&geoloc=1&geoloc_lat=45.5&geoloc_lng=9.1`
        + `&status=publish%2Cdraft&ends_after=2025-04-01%2008%3A00%3A00&venue=${venue}&organizer=${organizer}&featured=0`
        + '&categories=jazz%2CBlues%20Night&tags=t1&strict_dates=yes');
      const included = await list(t, `?include=${paged[0]},${paged[1]}&post_parent=${paged[0]}&featured=1`, 'editor');
      assert.equal(included.rest_url, `${BASE}?page=1&per_page=10&start_date=2025-03-31%2023%3A59%3A00&end_date=2027-04-01%2010%3A00%3A00`
        + `&status=any&post_parent=${paged[0]}&include=${paged[0]}%2C${paged[1]}&featured=1`);
    });

    test('links keep the edition prefix', async () => {
      const body = await list(t, '', 'visitor');
      const italian = await t.request('GET', `/it${EVENTS}?per_page=1`);
      assert.ok(italian.body.rest_url.startsWith(`http://calendar.test/it${NS}/events/?page=1`));
      assert.ok(italian.body.next_rest_url.startsWith(`http://calendar.test/it${NS}/events/?per_page=1`));
      assert.ok(body.rest_url.startsWith(BASE));
    });

    test('a page costs a fixed number of queries however many events, venues, organizers and terms it holds', async () => {
      const media = new MediaRepository(t.storage.db);
      const venues: number[] = [];
      for (let n = 0; n < 12; n++) {
        const event = await createEvent(t, 'editor', {
          title: `Batchmark ${n}`, image: await media.registerUrl(`https://img.example/${n}.png`, '2025-01-01 00:00:00'),
          venue: { venue: `Batch Hall ${n}` }, organizer: [{ organizer: `Batch Org ${n}` }, { organizer: `Batch Org ${n}b` }],
          categories: [`Batch Cat ${n}`, 'Batch Shared'], tags: [`batch-tag-${n}`],
        });
        venues.push(event.venue.id);
      }
      let writes = 0;
      // Each page measured after a write nobody described: no page, term filter or event part is
      // kept from an earlier one, so each page loads everything it shows.
      const cost = async (query: string, as: 'visitor' | 'editor') => {
        assert.equal((await t.request('POST', `${NS}/tags`, { as: 'editor', body: { name: `Coldmark ${++writes}` } })).status, 201);
        const before = await t.queryCount();
        const res = await t.request('GET', `${EVENTS}${query}`, { as });
        assert.equal(res.status, 200);
        return { queries: (await t.queryCount()) - before, events: res.body.events.length };
      };
      for (const as of ['visitor', 'editor'] as const) {
        const one = await cost('?search=batchmark&per_page=1', as);
        const twelve = await cost('?search=batchmark&per_page=12', as);
        assert.equal(one.events, 1);
        assert.equal(twelve.events, 12);
        assert.equal(twelve.queries, one.queries, as);
        const filters = `&categories=batch-shared&tags=batch-tag-1,batch-tag-2,batch-tag-3&venue=${venues.join(',')}`;
        const filteredOne = await cost(`?search=batchmark&per_page=1${filters}`, as);
        const filteredAll = await cost(`?search=batchmark&per_page=12${filters}`, as);
        assert.equal(filteredAll.events, 3);
        // On SQLite a term-filtered page is read by walking the term's links, and counted by a
        // statement of its own only when the walk stopped before the last match (a full page).
        assert.equal(filteredAll.queries + (dialect === 'sqlite' ? 1 : 0), filteredOne.queries, `${as} with filters`);
      }
      assert.equal((await listedIds(t, '?search=batchmark&per_page=12')).length, 12);
    });
  });
}
