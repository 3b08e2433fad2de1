import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { CASES, VENUES, createLinked, ids } from './support.ts';

const BASE = 'http://calendar.test/calendar/events/v1';

// 20 §5.1-§5.3, §5.7: paging parameters, envelope, headers, links, order, pages past the end.
for (const dialect of DIALECTS) {
  describe(`venue/organizer list envelope [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    const created: Record<string, number[]> = { venues: [], organizers: [] };
    before(async () => {
      t = await startTestApp(dialect);
      for (const c of CASES) {
        // 14 records, one per day, so that "newest first" is the reverse of creation.
        for (let i = 1; i <= 14; i++) {
          const day = String(i).padStart(2, '0');
          const body = await createLinked(t, c, 'administrator', `${c.kind} ${i}`, { date_utc: `2024-01-${day} 10:00:00` });
          created[c.path].push(body.id);
        }
      }
    });
    after(() => t.close());

    for (const c of CASES) {
      test(`${c.path}: page 2 of 5 has the envelope, links and headers of 20 §5.2`, async () => {
        const res = await t.request('GET', `${NS}/${c.path}?page=2&per_page=5`);
        assert.equal(res.status, 200);
        assert.deepEqual(Object.keys(res.body), [c.path, 'rest_url', 'next_rest_url', 'previous_rest_url', 'total', 'total_pages']);
        assert.deepEqual(ids(res.body, c), created[c.path].slice().reverse().slice(5, 10));
        assert.equal(res.body.rest_url, `${BASE}/${c.path}/?page=2&per_page=5&status=publish`);
        assert.equal(res.body.next_rest_url, `${BASE}/${c.path}/?per_page=5&status=publish&page=3`);
        assert.equal(res.body.previous_rest_url, `${BASE}/${c.path}/?per_page=5&status=publish`);
        assert.equal(res.body.total, 14);
        assert.equal(res.body.total_pages, 3);
        assert.equal(res.headers['x-tec-total'], '14');
        assert.equal(res.headers['x-tec-totalpages'], '3');
        assert.match(String(res.headers['access-control-expose-headers']), /X-TEC-Total/);
        assert.equal(res.body[c.path].some((item: any) => 'json_ld' in item), false);
      });

      test(`${c.path}: the last page has only a previous link, page 3 → 2 keeps page=2`, async () => {
        const res = await t.request('GET', `${NS}/${c.path}?page=3&per_page=5`);
        assert.equal(res.status, 200);
        assert.equal(res.body[c.path].length, 4);
        assert.equal('next_rest_url' in res.body, false);
        assert.equal(res.body.previous_rest_url, `${BASE}/${c.path}/?per_page=5&status=publish&page=2`);
      });

      test(`${c.path}: the first page has no previous link; defaults are page 1 and 10 per page`, async () => {
        const res = await t.request('GET', `${NS}/${c.path}`);
        assert.equal(res.body[c.path].length, 10);
        assert.equal(res.body.rest_url, `${BASE}/${c.path}/?page=1&per_page=10&status=publish`);
        assert.equal(res.body.next_rest_url, `${BASE}/${c.path}/?per_page=10&status=publish&page=2`);
        assert.equal('previous_rest_url' in res.body, false);
      });

      test(`${c.path}: a page past the end is 404 ${c.kind}-archive-page-not-found without paging headers`, async () => {
        const res = await t.request('GET', `${NS}/${c.path}?page=4&per_page=5`);
        assert.equal(res.status, 404);
        assert.equal(res.body.code, `${c.kind}-archive-page-not-found`);
        assert.equal(res.headers['x-tec-total'], undefined);
      });
    }

    test('per_page above 50 is clamped to 50, in the links too', async () => {
      for (let i = 0; i < 40; i++) await createLinked(t, VENUES, 'administrator', `Filler ${i}`, { date_utc: '2023-01-01 00:00:00' });
      const res = await t.request('GET', `${NS}/venues?per_page=80`);
      assert.equal(res.status, 200);
      assert.equal(res.body.venues.length, 50);
      assert.equal(res.body.total, 54);
      assert.equal(res.body.total_pages, 2);
      assert.equal(res.body.rest_url, `${BASE}/venues/?page=1&per_page=50&status=publish`);
    });

    test('page and per_page must be integers of at least 1', async () => {
      for (const bad of ['0', '-1', 'foo', '1.5']) {
        const page = await t.request('GET', `${NS}/venues?page=${bad}`);
        assert.equal(page.status, 400, `page=${bad}`);
        assert.equal(page.body.code, 'rest_invalid_param');
        assert.deepEqual(Object.keys(page.body.data.params), ['page']);
        const perPage = await t.request('GET', `${NS}/organizers?per_page=${bad}`);
        assert.equal(perPage.status, 400, `per_page=${bad}`);
        assert.deepEqual(Object.keys(perPage.body.data.params), ['per_page']);
      }
    });

    test('order is publication date descending, ties broken by id descending', async () => {
      const a = await createLinked(t, VENUES, 'administrator', 'Tie A', { date_utc: '2035-05-05 05:05:05' });
      const b = await createLinked(t, VENUES, 'administrator', 'Tie B', { date_utc: '2035-05-05 05:05:05' });
      const newest = await createLinked(t, VENUES, 'administrator', 'Tie C', { date_utc: '2035-06-01 00:00:00', status: 'publish' });
      assert.equal(newest.status, 'future');
      const res = await t.request('GET', `${NS}/venues?per_page=3&status=future`, { as: 'editor' });
      assert.deepEqual(ids(res.body, VENUES), [newest.id, b.id, a.id]);
    });

    test('nothing matching on page 1 is 200 with an empty list, zero totals and headers, no links', async () => {
      const res = await t.request('GET', `${NS}/organizers?status=pending`, { as: 'editor' });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { organizers: [], rest_url: `${BASE}/organizers/?page=1&per_page=10&status=pending`, total: 0, total_pages: 0 });
      assert.equal(res.headers['x-tec-total'], '0');
      assert.equal(res.headers['x-tec-totalpages'], '0');
    });

    test('links keep the edition prefix', async () => {
      const res = await t.request('GET', `/da${NS}/organizers?per_page=5`);
      assert.equal(res.body.rest_url, `http://calendar.test/da/calendar/events/v1/organizers/?page=1&per_page=5&status=publish`);
    });

    test('a list page costs a fixed number of queries, whatever its size', async () => {
      let before = await t.queryCount();
      await t.request('GET', `${NS}/venues?per_page=1`);
      const small = (await t.queryCount()) - before;
      before = await t.queryCount();
      await t.request('GET', `${NS}/venues?per_page=50`);
      assert.equal((await t.queryCount()) - before, small);
    });
  });
}
