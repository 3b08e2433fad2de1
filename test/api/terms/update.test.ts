import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { clearTerms, createTerm, insertEvent } from './fixtures.ts';

// 30 §1.7: POST|PUT|PATCH {ns}/categories/{id} and {ns}/tags/{id}.
for (const dialect of DIALECTS) {
  describe(`update categories and tags [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect);
    });
    after(() => t.close());
    beforeEach(() => clearTerms(t));

    const update = (collection: string, id: number, body: unknown, as: 'editor' | 'author' = 'editor') =>
      t.request('PATCH', `${NS}/${collection}/${id}`, { as, body });

    test('only the sent fields change; the answer is 200 with the term and its _links', async () => {
      const tag = await createTerm(t, 'tags', { name: 'Jazz', description: 'Old' });
      await insertEvent(t, [tag.id]);
      const res = await update('tags', tag.id, { description: 'New' });
      assert.equal(res.status, 200);
      assert.deepEqual({ ...res.body }, { ...tag, description: 'New', count: 1 });
      assert.ok(res.body._links);
    });

    test('no fields: 200 with the unchanged term', async () => {
      const tag = await createTerm(t, 'tags', { name: 'Jazz' });
      const res = await update('tags', tag.id, {});
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, tag);
    });

    test('a new name is sanitised and does not change the slug; duplicate names are allowed', async () => {
      await createTerm(t, 'tags', { name: 'Blues' });
      const tag = await createTerm(t, 'tags', { name: 'Jazz' });
      const res = await update('tags', tag.id, { name: ' <b>Blues</b> & more ' });
      assert.equal(res.body.name, 'Blues &amp; more');
      assert.equal(res.body.slug, 'jazz');
      const same = await update('tags', tag.id, { name: 'Blues' });
      assert.equal(same.status, 200);
      assert.equal(same.body.name, 'Blues');
    });

    test('a blank name is 400 empty_term_name and changes nothing', async () => {
      const tag = await createTerm(t, 'tags', { name: 'Jazz' });
      const res = await update('tags', tag.id, { name: '  ', description: 'changed?' });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'empty_term_name');
      assert.equal((await t.request('GET', `${NS}/tags/${tag.id}`)).body.description, '');
    });

    test('an empty description clears it (00-conventions); an empty slug or name is rejected', async () => {
      const tag = await createTerm(t, 'tags', { name: 'Jazz', description: 'Keep' });
      for (const body of [{ slug: '' }, { name: '' }, { name: 5 }, { description: 5 }]) {
        const res = await update('tags', tag.id, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.code, 'rest_invalid_param');
      }
      assert.equal((await t.request('GET', `${NS}/tags/${tag.id}`)).body.description, 'Keep');
      const cleared = await update('tags', tag.id, { description: '' });
      assert.equal(cleared.status, 200);
      assert.equal(cleared.body.description, '');
    });

    test('a new slug is normalised; a slug held by another term of the taxonomy is 400 duplicate_term_slug', async () => {
      const jazz = await createTerm(t, 'tags', { name: 'Jazz' });
      await createTerm(t, 'tags', { name: 'Blues' });
      await createTerm(t, 'categories', { name: 'Swing' });
      const renamed = await update('tags', jazz.id, { slug: 'Cool Jazz' });
      assert.equal(renamed.body.slug, 'cool-jazz');
      const otherTaxonomy = await update('tags', jazz.id, { slug: 'swing' });
      assert.equal(otherTaxonomy.body.slug, 'swing');
      const own = await update('tags', jazz.id, { slug: 'swing' });
      assert.equal(own.status, 200, 'its own slug is fine');
      const taken = await update('tags', jazz.id, { slug: 'blues', name: 'Renamed' });
      assert.equal(taken.status, 400);
      assert.equal(taken.body.code, 'duplicate_term_slug');
      assert.equal(taken.body.data.status, 400);
      assert.equal(taken.body.message, 'The slug "blues" is already in use by another term.');
      assert.equal((await t.request('GET', `${NS}/tags/${jazz.id}`)).body.name, 'Jazz', 'nothing written');
    });

    test('a taken slug is made unique instead when the same request changes the parent', async () => {
      const music = await createTerm(t, 'categories', { name: 'Music' });
      await createTerm(t, 'categories', { name: 'Blues' });
      const jazz = await createTerm(t, 'categories', { name: 'Jazz' });
      const res = await update('categories', jazz.id, { slug: 'blues', parent: music.id });
      assert.equal(res.status, 200);
      assert.equal(res.body.slug, 'blues-music');
      assert.equal(res.body.parent, music.id);
      assert.equal(res.body.url, 'http://calendar.test/events/category/music/blues-music/');
    });

    test('parent moves a category; the term itself or a descendant as parent makes it top-level', async () => {
      const arts = await createTerm(t, 'categories', { name: 'Arts' });
      const music = await createTerm(t, 'categories', { name: 'Music', parent: arts.id });
      const jazz = await createTerm(t, 'categories', { name: 'Jazz', parent: music.id });
      const other = await createTerm(t, 'categories', { name: 'Other' });
      const moved = await update('categories', jazz.id, { parent: other.id });
      assert.equal(moved.body.parent, other.id);
      assert.equal(moved.body.urls.up, `http://calendar.test${NS}/categories/${other.id}`);
      const self = await update('categories', other.id, { parent: other.id });
      assert.equal(self.body.parent, 0);
      const loop = await update('categories', arts.id, { parent: music.id });
      assert.equal(loop.status, 200);
      assert.equal(loop.body.parent, 0);
      assert.equal((await t.request('GET', `${NS}/categories/${music.id}`)).body.parent, arts.id);
    });

    test('parent must be an existing category (0 rejected); on a tag it is 400 rest_taxonomy_not_hierarchical', async () => {
      const music = await createTerm(t, 'categories', { name: 'Music' });
      const tag = await createTerm(t, 'tags', { name: 'Jazz' });
      for (const parent of [0, 999999, tag.id]) {
        const res = await update('categories', music.id, { parent });
        assert.equal(res.status, 400, String(parent));
        assert.ok('parent' in res.body.data.params);
      }
      const flat = await update('tags', tag.id, { parent: music.id });
      assert.equal(flat.status, 400);
      assert.equal(flat.body.code, 'rest_taxonomy_not_hierarchical');
    });

    test('PUT and POST update as PATCH does; authors update categories with filtered descriptions', async () => {
      const cat = await createTerm(t, 'categories', { name: 'Music' });
      const put = await t.request('PUT', `${NS}/categories/${cat.id}`, { as: 'administrator', body: { name: 'Put' } });
      assert.equal(put.body.name, 'Put');
      const post = await t.request('POST', `${NS}/categories/${cat.id}?name=Posted`, { as: 'administrator' });
      assert.equal(post.body.name, 'Posted');
      const author = await update('categories', cat.id, { description: 'Hi<script>alert(1)</script>' }, 'author');
      assert.equal(author.body.description, 'Hi');
    });
  });
}
