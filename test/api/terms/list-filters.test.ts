import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createTerm, ids, insertEvent, names } from './fixtures.ts';

// 30 §1.4: the filters of GET {ns}/categories and GET {ns}/tags and their validation.
for (const dialect of DIALECTS) {
  describe(`term list filters [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    // Category tree: Arts > Music > Jazz (published event), Arts > Theatre (empty), Sport (empty), Food (published event)
    let arts: any, music: any, jazz: any, theatre: any, sport: any, food: any;
    let rock: any, free: any, unused: any;
    let event: number;
    let draftEvent: number;
    before(async () => {
      t = await startTestApp(dialect);
      arts = await createTerm(t, 'categories', { name: 'Arts' });
      music = await createTerm(t, 'categories', { name: 'Music', parent: arts.id });
      jazz = await createTerm(t, 'categories', { name: 'Jazz & Swing', parent: music.id });
      theatre = await createTerm(t, 'categories', { name: 'Theatre', parent: arts.id });
      sport = await createTerm(t, 'categories', { name: 'Sport' });
      food = await createTerm(t, 'categories', { name: 'Food', slug: 'eat' });
      rock = await createTerm(t, 'tags', { name: 'Rock Music' });
      free = await createTerm(t, 'tags', { name: 'Free' });
      unused = await createTerm(t, 'tags', { name: 'Unused' });
      event = await insertEvent(t, [jazz.id, food.id, free.id, rock.id]);
      draftEvent = await insertEvent(t, [sport.id, unused.id], { status: 'draft' });
    });
    after(() => t.close());

    test('hide_empty defaults to true: empty tags are hidden, and total counts what is listed', async () => {
      const res = await t.request('GET', `${NS}/tags`);
      assert.deepEqual(names(res.body.tags), ['Free', 'Rock Music']);
      assert.equal(res.body.total, 2);
    });

    test('hide_empty keeps an empty category whose descendant has published events; total matches the listing', async () => {
      const res = await t.request('GET', `${NS}/categories`);
      assert.deepEqual(names(res.body.categories), ['Arts', 'Food', 'Jazz &amp; Swing', 'Music']);
      assert.equal(res.body.total, 4);
      assert.equal(res.headers['x-tec-total'], '4');
      assert.deepEqual(res.body.categories.map((c: any) => c.count), [0, 1, 1, 0]);
    });

    test('hide_empty=false (any accepted spelling) lists empty terms too', async () => {
      for (const value of ['0', 'false', 'FALSE', 'False']) {
        const res = await t.request('GET', `${NS}/categories?hide_empty=${value}`);
        assert.equal(res.body.total, 6, value);
      }
      for (const value of ['1', 'true', 'TRUE']) {
        const res = await t.request('GET', `${NS}/categories?hide_empty=${value}`);
        assert.equal(res.body.total, 4, value);
      }
    });

    test('hide_empty that is not a boolean is 400 naming the type', async () => {
      for (const value of ['yes', '2', '']) {
        const res = await t.request('GET', `${NS}/tags?hide_empty=${value}`);
        assert.equal(res.status, 400, value);
        assert.equal(res.body.code, 'rest_invalid_param');
        assert.equal(res.body.data.params.hide_empty, 'hide_empty is not of type boolean.');
      }
    });

    test('search matches name or slug, case-insensitively, and finds names typed with a plain &', async () => {
      const byName = await t.request('GET', `${NS}/categories?hide_empty=0&search=SWING`);
      assert.deepEqual(ids(byName.body.categories), [jazz.id]);
      const bySlug = await t.request('GET', `${NS}/categories?hide_empty=0&search=eat`);
      assert.deepEqual(ids(bySlug.body.categories), [food.id, theatre.id]);
      const ampersand = await t.request('GET', `${NS}/categories?hide_empty=0&search=${encodeURIComponent('Jazz & S')}`);
      assert.deepEqual(ids(ampersand.body.categories), [jazz.id]);
      const wildcard = await t.request('GET', `${NS}/categories?hide_empty=0&search=%25`);
      assert.equal(wildcard.body.total, 0, 'LIKE wildcards are literal');
      const empty = await t.request('GET', `${NS}/tags?search=`);
      assert.equal(empty.status, 400);
      assert.ok('search' in empty.body.data.params);
    });

    test('include limits to those ids and makes exclude ignored', async () => {
      const res = await t.request('GET', `${NS}/categories?hide_empty=0&include=${sport.id},${arts.id}&exclude=${arts.id}`);
      assert.deepEqual(ids(res.body.categories), [arts.id, sport.id]);
      assert.equal(res.body.total, 2);
      const array = await t.request('GET', `${NS}/tags?hide_empty=0&include[]=${free.id}&include[]=${unused.id}`);
      assert.deepEqual(ids(array.body.tags), [free.id, unused.id]);
    });

    test('include and hide_empty combine', async () => {
      const res = await t.request('GET', `${NS}/tags?include=${free.id},${unused.id}`);
      assert.deepEqual(ids(res.body.tags), [free.id]);
    });

    test('include/exclude items may be slugs or names to pass validation, but only ids select', async () => {
      const res = await t.request('GET', `${NS}/tags?hide_empty=0&include=free,${unused.id}`);
      assert.equal(res.status, 200);
      assert.deepEqual(ids(res.body.tags), [unused.id]);
      const excludeBySlug = await t.request('GET', `${NS}/tags?hide_empty=0&exclude=free`);
      assert.equal(excludeBySlug.body.total, 3);
    });

    test('exclude drops those ids', async () => {
      const res = await t.request('GET', `${NS}/tags?hide_empty=0&exclude[0]=${free.id}&exclude[1]=${rock.id}`);
      assert.deepEqual(ids(res.body.tags), [unused.id]);
    });

    test('an unknown item, a term of the other taxonomy or an empty list in include/exclude is 400', async () => {
      for (const query of [`include=${free.id},999999`, `exclude=999999`, `include=${arts.id}`, 'include=nothing-like-this', 'exclude=', 'include=0']) {
        const res = await t.request('GET', `${NS}/tags?${query}`);
        assert.equal(res.status, 400, query);
        assert.equal(res.body.code, 'rest_invalid_param');
        assert.deepEqual(Object.keys(res.body.data.params), [query.split('=')[0]]);
      }
    });

    test('parent lists the direct children only', async () => {
      const res = await t.request('GET', `${NS}/categories?hide_empty=0&parent=${arts.id}`);
      assert.deepEqual(ids(res.body.categories), [music.id, theatre.id]);
      const shown = await t.request('GET', `${NS}/categories?parent=${arts.id}`);
      assert.deepEqual(ids(shown.body.categories), [music.id], 'hide_empty still applies');
    });

    test('parent must be an existing category; 0 is rejected; tags have no parent filter', async () => {
      for (const value of ['0', '999999', String(free.id), 'arts']) {
        const res = await t.request('GET', `${NS}/categories?parent=${value}`);
        assert.equal(res.status, 400, value);
        assert.ok('parent' in res.body.data.params);
      }
      const tags = await t.request('GET', `${NS}/tags?hide_empty=0&parent=${arts.id}`);
      assert.equal(tags.status, 200);
      assert.equal(tags.body.total, 3, 'ignored on tags');
    });

    test('post and its alias event list the terms of that event; hide_empty is then ignored', async () => {
      const byPost = await t.request('GET', `${NS}/categories?post=${event}`);
      assert.deepEqual(ids(byPost.body.categories), [food.id, jazz.id]);
      // A draft's terms are for those who may read it (test/api/terms/hidden-events.test.ts).
      const byEvent = await t.request('GET', `${NS}/tags?event=${draftEvent}`, { as: 'editor' });
      assert.deepEqual(ids(byEvent.body.tags), [unused.id], 'a draft event counts for nothing, still listed');
      const both = await t.request('GET', `${NS}/tags?post=${event}&event=${draftEvent}`, { as: 'editor' });
      assert.deepEqual(ids(both.body.tags), [unused.id], 'event wins');
    });

    test('post and event must be existing event ids', async () => {
      for (const query of ['post=999999', `post=${free.id}`, 'event=abc', 'event=0']) {
        const res = await t.request('GET', `${NS}/tags?${query}`);
        assert.equal(res.status, 400, query);
        assert.deepEqual(Object.keys(res.body.data.params), [query.split('=')[0]]);
      }
    });

    test('slug selects one term after normalisation; a comma list is not split', async () => {
      const res = await t.request('GET', `${NS}/tags?slug=${encodeURIComponent('Rock Music')}`);
      assert.deepEqual(ids(res.body.tags), [rock.id]);
      const list = await t.request('GET', `${NS}/tags?slug=free,rock-music`);
      assert.equal(list.body.total, 0);
      const empty = await t.request('GET', `${NS}/tags?slug=`);
      assert.equal(empty.status, 400);
    });

    test('order and orderby must be non-empty', async () => {
      for (const query of ['order=', 'orderby=']) {
        const res = await t.request('GET', `${NS}/tags?${query}`);
        assert.equal(res.status, 400, query);
      }
    });

    test('failures of several parameters are reported together', async () => {
      const res = await t.request('GET', `${NS}/categories?page=0&parent=0&search=`);
      assert.equal(res.status, 400);
      assert.deepEqual(Object.keys(res.body.data.params).sort(), ['page', 'parent', 'search']);
    });
  });
}
