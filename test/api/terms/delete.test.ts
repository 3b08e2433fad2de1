import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { clearTerms, createTerm, ids, insertEvent } from './fixtures.ts';

// 30 §1.8: DELETE {ns}/categories/{id} and {ns}/tags/{id}.
for (const dialect of DIALECTS) {
  describe(`delete categories and tags [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect);
    });
    after(() => t.close());
    beforeEach(() => clearTerms(t));

    test('200 with the term as it was, count included, without _links; the term is gone for good', async () => {
      const arts = await createTerm(t, 'categories', { name: 'Arts' });
      const music = await createTerm(t, 'categories', { name: 'Music', parent: arts.id, description: 'Sound' });
      await insertEvent(t, [music.id]);
      const before = (await t.request('GET', `${NS}/categories/${music.id}`)).body;
      const res = await t.request('DELETE', `${NS}/categories/${music.id}`, { as: 'editor' });
      assert.equal(res.status, 200);
      const { _links, ...expected } = before;
      assert.deepEqual(res.body, expected);
      assert.equal(res.body.count, 1);
      assert.equal(res.body.url, 'http://calendar.test/events/category/arts/music/');
      const read = await t.request('GET', `${NS}/categories/${music.id}`);
      assert.equal(read.status, 400);
    });

    test('deleting again is 400 rest_invalid_param on id', async () => {
      const tag = await createTerm(t, 'tags', { name: 'Jazz' });
      assert.equal((await t.request('DELETE', `${NS}/tags/${tag.id}`, { as: 'editor' })).status, 200);
      const again = await t.request('DELETE', `${NS}/tags/${tag.id}`, { as: 'editor' });
      assert.equal(again.status, 400);
      assert.equal(again.body.code, 'rest_invalid_param');
      assert.deepEqual(Object.keys(again.body.data.params), ['id']);
    });

    test('force is ignored: deletion is always permanent', async () => {
      const tag = await createTerm(t, 'tags', { name: 'Jazz' });
      const res = await t.request('DELETE', `${NS}/tags/${tag.id}?force=false`, { as: 'editor' });
      assert.equal(res.status, 200);
      const list = await t.request('GET', `${NS}/tags?hide_empty=0`);
      assert.equal(list.body.total, 0);
    });

    test('child categories move up to the deleted category\'s parent', async () => {
      const arts = await createTerm(t, 'categories', { name: 'Arts' });
      const music = await createTerm(t, 'categories', { name: 'Music', parent: arts.id });
      const jazz = await createTerm(t, 'categories', { name: 'Jazz', parent: music.id });
      const rock = await createTerm(t, 'categories', { name: 'Rock', parent: music.id });
      await t.request('DELETE', `${NS}/categories/${music.id}`, { as: 'author' });
      const children = await t.request('GET', `${NS}/categories?hide_empty=0&parent=${arts.id}`);
      assert.deepEqual(ids(children.body.categories), [jazz.id, rock.id]);
      assert.equal((await t.request('GET', `${NS}/categories/${jazz.id}`)).body.url, 'http://calendar.test/events/category/arts/jazz/');
      await t.request('DELETE', `${NS}/categories/${arts.id}`, { as: 'author' });
      assert.equal((await t.request('GET', `${NS}/categories/${rock.id}`)).body.parent, 0);
    });

    test('events lose the deleted term and keep the others', async () => {
      const jazz = await createTerm(t, 'tags', { name: 'Jazz' });
      const free = await createTerm(t, 'tags', { name: 'Free' });
      const event = await insertEvent(t, [jazz.id, free.id]);
      await t.request('DELETE', `${NS}/tags/${jazz.id}`, { as: 'editor' });
      const links = await t.storage.db.selectFrom('event_terms').select('term_id').where('event_id', '=', event).execute();
      assert.deepEqual(links.map((row) => row.term_id), [free.id]);
      const res = await t.request('GET', `${NS}/tags?event=${event}`);
      assert.deepEqual(ids(res.body.tags), [free.id]);
    });
  });
}
