import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createTerm, insertEvent } from './fixtures.ts';

const BASE = `http://calendar.test${NS}`;

// 30 §1.3 (the term object) and §1.5 (GET one term).
for (const dialect of DIALECTS) {
  describe(`term object and single reads [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let music: any;
    let jazz: any;
    let tag: any;
    before(async () => {
      t = await startTestApp(dialect);
      music = await createTerm(t, 'categories', { name: 'Music' });
      jazz = await createTerm(t, 'categories', { name: 'Jazz & Blues', parent: music.id });
      tag = await createTerm(t, 'tags', { name: 'Free', description: 'No cost' });
      await insertEvent(t, [jazz.id, tag.id]);
    });
    after(() => t.close());

    test('a category has the keys of the reference in order, with parent, url and urls.up', async () => {
      const res = await t.request('GET', `${NS}/categories/${jazz.id}`);
      assert.equal(res.status, 200);
      const { _links, ...term } = res.body;
      assert.deepEqual(Object.keys(res.body), ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'parent', 'meta', 'url', 'urls', '_links']);
      assert.deepEqual(term, {
        id: jazz.id,
        count: 1,
        description: '',
        name: 'Jazz &amp; Blues',
        slug: 'jazz-blues',
        taxonomy: 'tribe_events_cat',
        parent: music.id,
        meta: [],
        url: 'http://calendar.test/events/category/music/jazz-blues/',
        urls: { self: `${BASE}/categories/${jazz.id}`, collection: `${BASE}/categories`, up: `${BASE}/categories/${music.id}` },
      });
      assert.deepEqual(_links, {
        self: [{ href: `${BASE}/categories/${jazz.id}` }],
        collection: [{ href: `${BASE}/categories` }],
        up: [{ href: `${BASE}/categories/${music.id}`, embeddable: true }],
      });
    });

    test('a top-level category has no up link', async () => {
      const res = await t.request('GET', `${NS}/categories/${music.id}`);
      assert.equal(res.body.parent, 0);
      assert.deepEqual(res.body.urls, { self: `${BASE}/categories/${music.id}`, collection: `${BASE}/categories` });
      assert.deepEqual(Object.keys(res.body._links), ['self', 'collection']);
      assert.equal(res.body.url, 'http://calendar.test/events/category/music/');
    });

    test('a tag has no parent key and a /tag/ archive url', async () => {
      const res = await t.request('GET', `${NS}/tags/${tag.id}`);
      assert.deepEqual(Object.keys(res.body), ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'meta', 'url', 'urls', '_links']);
      assert.equal(res.body.taxonomy, 'post_tag');
      assert.equal(res.body.count, 1);
      assert.equal(res.body.description, 'No cost');
      assert.equal(res.body.url, 'http://calendar.test/tag/free/');
      assert.deepEqual(res.body.urls, { self: `${BASE}/tags/${tag.id}`, collection: `${BASE}/tags` });
    });

    test('list items carry no _links', async () => {
      const res = await t.request('GET', `${NS}/categories?hide_empty=0`);
      for (const item of res.body.categories) assert.equal('_links' in item, false);
    });

    test('links keep the edition prefix and the base path', async () => {
      const res = await t.request('GET', `/da${NS}/tags/${tag.id}`);
      assert.equal(res.body.urls.self, `http://calendar.test/da${NS}/tags/${tag.id}`);
      assert.equal(res.body.url, 'http://calendar.test/tag/free/');
    });

    test('unknown ids, ids of the other taxonomy and 0 are 400 rest_invalid_param', async () => {
      for (const url of [`${NS}/categories/999999`, `${NS}/categories/${tag.id}`, `${NS}/tags/${music.id}`, `${NS}/categories/0`]) {
        const res = await t.request('GET', url);
        assert.equal(res.status, 400, url);
        assert.equal(res.body.code, 'rest_invalid_param');
        assert.deepEqual(res.body.data.params, { id: 'Invalid parameter.' });
      }
    });

    test('an id that is not digits is 404 rest_no_route', async () => {
      const res = await t.request('GET', `${NS}/categories/abc`);
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'rest_no_route');
    });

    test('the path id wins over an id in the query string or body', async () => {
      const res = await t.request('GET', `${NS}/categories/${music.id}?id=${jazz.id}`);
      assert.equal(res.body.id, music.id);
      const update = await t.request('PATCH', `${NS}/categories/${music.id}?id=${jazz.id}`, { as: 'editor', body: { id: jazz.id, description: 'Sounds' } });
      assert.equal(update.body.id, music.id);
      assert.equal((await t.request('GET', `${NS}/categories/${jazz.id}`)).body.description, '');
    });
  });
}
