import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createTerm, names } from './fixtures.ts';

const BASE = `http://calendar.test${NS}`;

// 30 §1.4: the list envelope, its headers, paging and the links that keep the filters.
for (const dialect of DIALECTS) {
  describe(`term list envelope and paging [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect);
      for (const name of ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo']) await createTerm(t, 'tags', { name });
      for (let i = 1; i <= 60; i++) await createTerm(t, 'categories', { name: `Cat ${String(i).padStart(2, '0')}` });
    });
    after(() => t.close());

    test('envelope keys in order, with X-TEC-Total and X-TEC-TotalPages headers', async () => {
      const res = await t.request('GET', `${NS}/tags?hide_empty=0&per_page=2&page=2`);
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body), ['rest_url', 'total', 'total_pages', 'tags', 'next_rest_url', 'previous_rest_url']);
      assert.equal(res.body.rest_url, `${BASE}/tags/`);
      assert.equal(res.body.total, 5);
      assert.equal(res.body.total_pages, 3);
      assert.deepEqual(names(res.body.tags), ['Charlie', 'Delta']);
      assert.equal(res.headers['x-tec-total'], '5');
      assert.equal(res.headers['x-tec-totalpages'], '3');
      assert.equal(res.headers['x-wp-total'], undefined);
    });

    test('next and previous links keep every filter the request sent; page 1 has no page', async () => {
      const res = await t.request('GET', `${NS}/tags?per_page=1&page=2&hide_empty=0&search=a&orderby=name&order=asc`);
      assert.equal(res.body.total, 4);
      assert.deepEqual(names(res.body.tags), ['Bravo']);
      assert.equal(res.body.next_rest_url, `${BASE}/tags/?page=3&per_page=1&search=a&order=asc&orderby=name&hide_empty=0`);
      assert.equal(res.body.previous_rest_url, `${BASE}/tags/?per_page=1&search=a&order=asc&orderby=name&hide_empty=0`);
      const next = await t.request('GET', res.body.next_rest_url.slice('http://calendar.test'.length));
      assert.deepEqual(names(next.body.tags), ['Charlie']);
      assert.equal(next.body.total, 4);
      const last = await t.request('GET', `${NS}/tags?per_page=1&page=4&hide_empty=0&search=a`);
      assert.deepEqual(names(last.body.tags), ['Delta']);
      assert.equal('next_rest_url' in last.body, false);
    });

    test('list filters go back into links comma-joined and percent-encoded', async () => {
      const first = await t.request('GET', `${NS}/tags?hide_empty=0`);
      const [a, b, c] = first.body.tags.map((tag: any) => tag.id);
      const res = await t.request('GET', `${NS}/tags?include[]=${a}&include[]=${b}&include[]=${c}&per_page=1&hide_empty=false&orderby=${encodeURIComponent('na me')}`);
      assert.equal(res.body.total, 3);
      assert.equal(res.body.next_rest_url, `${BASE}/tags/?page=2&per_page=1&include=${a}%2C${b}%2C${c}&orderby=na%20me&hide_empty=false`);
    });

    test('without filters the links are the bare collection URL plus page', async () => {
      const res = await t.request('GET', `${NS}/categories?hide_empty=0&page=2`);
      // hide_empty was sent, so it stays; a request without any filter:
      assert.equal(res.body.previous_rest_url, `${BASE}/categories/?hide_empty=0`);
      const bare = await t.request('GET', `${NS}/categories?page=2`);
      assert.equal(bare.body.total, 0);
      assert.equal(bare.body.previous_rest_url, `${BASE}/categories/`);
    });

    test('per_page defaults to 10 and is clamped to 50, total_pages following the clamped size', async () => {
      const defaults = await t.request('GET', `${NS}/categories?hide_empty=0`);
      assert.equal(defaults.body.categories.length, 10);
      assert.equal(defaults.body.total_pages, 6);
      const clamped = await t.request('GET', `${NS}/categories?hide_empty=0&per_page=500`);
      assert.equal(clamped.body.categories.length, 50);
      assert.equal(clamped.body.total, 60);
      assert.equal(clamped.body.total_pages, 2);
      assert.equal(clamped.headers['x-tec-totalpages'], '2');
    });

    test('a page past the end is 200 with an empty list and a previous link', async () => {
      const res = await t.request('GET', `${NS}/tags?hide_empty=0&page=9`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.tags, []);
      assert.equal(res.body.total, 5);
      assert.equal('next_rest_url' in res.body, false);
      assert.equal(res.body.previous_rest_url, `${BASE}/tags/?page=8&hide_empty=0`);
    });

    test('an empty result has total_pages 0 and no links', async () => {
      const res = await t.request('GET', `${NS}/tags?search=zzz`);
      assert.deepEqual(res.body, { rest_url: `${BASE}/tags/`, total: 0, total_pages: 0, tags: [] });
      assert.equal(res.headers['x-tec-total'], '0');
      assert.equal(res.headers['x-tec-totalpages'], '0');
    });

    test('page and per_page must be positive integers', async () => {
      for (const query of ['page=0', 'page=-1', 'page=1.5', 'page=abc', 'per_page=0', 'per_page=-3', 'per_page=x']) {
        const res = await t.request('GET', `${NS}/tags?${query}`);
        assert.equal(res.status, 400, query);
        assert.equal(res.body.code, 'rest_invalid_param');
        assert.deepEqual(Object.keys(res.body.data.params), [query.split('=')[0]]);
      }
    });

    test('the trailing slash of rest_url reaches the same list', async () => {
      const res = await t.request('GET', `${NS}/tags/?hide_empty=0`);
      assert.equal(res.status, 200);
      assert.equal(res.body.total, 5);
    });
  });
}
