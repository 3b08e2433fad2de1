import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { clearTerms, createTerm } from './fixtures.ts';

// 30 §1.6: POST {ns}/categories and POST {ns}/tags.
for (const dialect of DIALECTS) {
  describe(`create categories and tags [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect);
    });
    after(() => t.close());
    beforeEach(() => clearTerms(t));

    test('201 with the term and a Location header pointing at the new term', async () => {
      for (const collection of ['categories', 'tags'] as const) {
        const res = await t.request('POST', `${NS}/${collection}`, { as: 'editor', body: { name: 'Live Music', description: 'Loud' } });
        assert.equal(res.status, 201);
        assert.equal(res.body.name, 'Live Music');
        assert.equal(res.body.slug, 'live-music');
        assert.equal(res.body.description, 'Loud');
        assert.equal(res.body.count, 0);
        assert.equal(res.headers.location, `http://calendar.test${NS}/${collection}/${res.body.id}`);
        const read = await t.request('GET', `${NS}/${collection}/${res.body.id}`);
        assert.deepEqual(read.body, res.body);
      }
    });

    test('fields may come in the query string, as form data or as JSON', async () => {
      const query = await t.request('POST', `${NS}/tags?name=Jazz`, { as: 'editor' });
      assert.equal(query.status, 201);
      assert.equal(query.body.name, 'Jazz');
      const form = await t.request('POST', `${NS}/tags`, { as: 'editor', body: 'name=Blues&slug=blue', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      assert.equal(form.status, 201);
      assert.deepEqual([form.body.name, form.body.slug], ['Blues', 'blue']);
    });

    test('a missing name is 400 rest_missing_callback_param, even for a visitor', async () => {
      for (const as of ['visitor', 'editor'] as const) {
        const res = await t.request('POST', `${NS}/categories`, { as, body: { description: 'x' } });
        assert.equal(res.status, 400);
        assert.equal(res.body.code, 'rest_missing_callback_param');
        assert.deepEqual(res.body.data.params, ['name']);
      }
    });

    test('name, description and slug must be non-empty strings', async () => {
      for (const body of [{ name: '' }, { name: 12 }, { name: ['a'] }, { name: 'A', description: '' }, { name: 'A', slug: '' }]) {
        const res = await t.request('POST', `${NS}/categories`, { as: 'editor', body });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.code, 'rest_invalid_param');
        const field = Object.keys(body).find((key) => (body as Record<string, unknown>)[key] === '' || typeof (body as Record<string, unknown>)[key] !== 'string');
        assert.ok(field && field in res.body.data.params, JSON.stringify(res.body.data.params));
      }
    });

    test('parent must be an existing category: 0, unknown ids, tag ids and slugs are 400', async () => {
      const music = await createTerm(t, 'categories', { name: 'Music' });
      const tag = await createTerm(t, 'tags', { name: 'Free' });
      for (const parent of [0, 999999, tag.id, 'music']) {
        const res = await t.request('POST', `${NS}/categories`, { as: 'editor', body: { name: 'Jazz', parent } });
        assert.equal(res.status, 400, String(parent));
        assert.equal(res.body.code, 'rest_invalid_param');
        assert.ok('parent' in res.body.data.params);
      }
      const child = await createTerm(t, 'categories', { name: 'Jazz', parent: music.id });
      assert.equal(child.parent, music.id);
    });

    test('a parent on a tag is 400 rest_taxonomy_not_hierarchical and creates nothing', async () => {
      const music = await createTerm(t, 'categories', { name: 'Music' });
      const res = await t.request('POST', `${NS}/tags`, { as: 'editor', body: { name: 'Jazz', parent: music.id } });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'rest_taxonomy_not_hierarchical');
      const list = await t.request('GET', `${NS}/tags?hide_empty=0`);
      assert.equal(list.body.total, 0);
    });

    test('names lose tags and repeated spaces; &, <, > come back as entities (not double-encoded)', async () => {
      const res = await createTerm(t, 'categories', { name: '  <b>Jazz</b> &   Blues\n<i>x</i> > &amp; ' });
      assert.equal(res.name, 'Jazz &amp; Blues x &gt; &amp;');
      assert.equal(res.slug, 'jazz-blues-x');
    });

    test('a name that is only whitespace or markup is 400 empty_term_name', async () => {
      for (const name of ['   ', '<b></b>', '\n\t']) {
        const res = await t.request('POST', `${NS}/categories`, { as: 'editor', body: { name } });
        assert.equal(res.status, 400, JSON.stringify(name));
        assert.equal(res.body.code, 'empty_term_name');
        assert.equal(res.body.data.status, 400);
      }
    });

    test('a given slug is normalised; without one the slug comes from the sanitised name', async () => {
      const given = await createTerm(t, 'tags', { name: 'Whatever', slug: ' Über Café & Bar!' });
      assert.equal(given.slug, 'uber-cafe-bar');
      const derived = await createTerm(t, 'tags', { name: 'Jazz & Blues' });
      assert.equal(derived.slug, 'jazz-blues');
      const nonLatin = await createTerm(t, 'tags', { name: 'Музыка' });
      assert.equal(nonLatin.slug, '%d0%bc%d1%83%d0%b7%d1%8b%d0%ba%d0%b0');
    });

    test('a name without any slug character gets its id as slug', async () => {
      const res = await createTerm(t, 'tags', { name: '!!!' });
      assert.equal(res.slug, String(res.id));
    });

    test('a taken slug with a different name is made unique with -2, -3, no error', async () => {
      const first = await createTerm(t, 'tags', { name: 'Rock' });
      const second = await createTerm(t, 'tags', { name: 'Other', slug: 'rock' });
      const third = await createTerm(t, 'tags', { name: 'Rock!' });
      assert.deepEqual([first.slug, second.slug, third.slug], ['rock', 'rock-2', 'rock-3']);
    });

    test('slugs are unique per taxonomy only', async () => {
      const category = await createTerm(t, 'categories', { name: 'Jazz' });
      const tag = await createTerm(t, 'tags', { name: 'Jazz' });
      assert.equal(category.slug, 'jazz');
      assert.equal(tag.slug, 'jazz');
    });

    test('same tag name without a slug is 400 term_exists with data.term_id', async () => {
      const jazz = await createTerm(t, 'tags', { name: 'Jazz' });
      for (const body of [{ name: 'jazz' }, { name: 'JAZZ', slug: 'jazz' }]) {
        const res = await t.request('POST', `${NS}/tags`, { as: 'editor', body });
        assert.equal(res.status, 400);
        assert.equal(res.body.code, 'term_exists');
        assert.deepEqual(res.body.data, { status: 400, term_id: jazz.id });
        assert.equal(res.body.message, 'A term with the name provided already exists in this taxonomy.');
      }
    });

    test('same tag name with a slug used by another tag is term_exists; with a new slug it is created', async () => {
      const jazz = await createTerm(t, 'tags', { name: 'Jazz' });
      await createTerm(t, 'tags', { name: 'Swing', slug: 'swing' });
      const taken = await t.request('POST', `${NS}/tags`, { as: 'editor', body: { name: 'Jazz', slug: 'swing' } });
      assert.equal(taken.status, 400);
      assert.equal(taken.body.code, 'term_exists');
      assert.equal(taken.body.data.term_id, jazz.id);
      const fresh = await createTerm(t, 'tags', { name: 'Jazz', slug: 'jazz-two' });
      assert.deepEqual([fresh.name, fresh.slug], ['Jazz', 'jazz-two']);
    });

    test('categories: the duplicate check looks at siblings only', async () => {
      const music = await createTerm(t, 'categories', { name: 'Music' });
      const jazz = await createTerm(t, 'categories', { name: 'Jazz', parent: music.id });
      const sibling = await t.request('POST', `${NS}/categories`, { as: 'editor', body: { name: 'jazz', parent: music.id } });
      assert.equal(sibling.status, 400);
      assert.equal(sibling.body.code, 'term_exists');
      assert.equal(sibling.body.data.term_id, jazz.id);
      assert.equal(sibling.body.message, 'A term with the name provided already exists with this parent.');
      // Same name at the top level: created, and its slug is free there.
      const top = await createTerm(t, 'categories', { name: 'Jazz' });
      assert.equal(top.parent, 0);
      assert.equal(jazz.slug, 'jazz');
      assert.equal(top.slug, 'jazz-2');
    });

    test('categories: a slug used by a sibling is term_exists, by a non-sibling it is made unique', async () => {
      const music = await createTerm(t, 'categories', { name: 'Music' });
      const art = await createTerm(t, 'categories', { name: 'Art' });
      await createTerm(t, 'categories', { name: 'Jazz', parent: music.id });
      const blues = await createTerm(t, 'categories', { name: 'Blues', parent: music.id, slug: 'blues' });
      const bySibling = await t.request('POST', `${NS}/categories`, { as: 'editor', body: { name: 'Jazz', parent: music.id, slug: 'blues' } });
      assert.equal(bySibling.status, 400);
      assert.equal(bySibling.body.code, 'term_exists');
      assert.equal(bySibling.body.data.term_id, blues.id);
      const elsewhere = await createTerm(t, 'categories', { name: 'Painting', slug: 'blues' });
      assert.equal(elsewhere.slug, 'blues-2');
      const underArt = await createTerm(t, 'categories', { name: 'Jazz', parent: art.id, slug: 'blues' });
      assert.equal(underArt.slug, 'blues-art');
      // Same name under the same parent with a slug nobody uses: created, two terms share the name.
      const twin = await createTerm(t, 'categories', { name: 'Jazz', parent: music.id, slug: 'jazz-twin' });
      assert.deepEqual([twin.name, twin.slug], ['Jazz', 'jazz-twin']);
    });

    test('a child category with a taken slug first takes its parent slugs as suffix, then numbers', async () => {
      const arts = await createTerm(t, 'categories', { name: 'Arts' });
      const music = await createTerm(t, 'categories', { name: 'Music', parent: arts.id });
      await createTerm(t, 'categories', { name: 'Jazz' });
      const first = await createTerm(t, 'categories', { name: 'Jazz', parent: music.id });
      assert.equal(first.slug, 'jazz-music');
      const second = await createTerm(t, 'categories', { name: 'Jazz club', slug: 'jazz', parent: music.id });
      assert.equal(second.slug, 'jazz-music-arts');
      const third = await createTerm(t, 'categories', { name: 'Jazz bar', slug: 'jazz', parent: music.id });
      assert.equal(third.slug, 'jazz-music-arts-2');
      assert.equal(third.url, 'http://calendar.test/events/category/arts/music/jazz-music-arts-2/');
    });

    test('authors may create categories; their descriptions lose unsafe markup, editors keep theirs', async () => {
      const byAuthor = await createTerm(t, 'categories', { name: 'A', description: '<p>Hi<script>x()</script></p><iframe src="x"></iframe>' }, 'author');
      assert.equal(byAuthor.description, '<p>Hi</p>');
      const byEditor = await createTerm(t, 'categories', { name: 'B', description: '<iframe src="x"></iframe>' }, 'editor');
      assert.equal(byEditor.description, '<iframe src="x"></iframe>');
    });

    test('a failing create writes nothing', async () => {
      await createTerm(t, 'tags', { name: 'Jazz' });
      await t.request('POST', `${NS}/tags`, { as: 'editor', body: { name: 'jazz' } });
      const list = await t.request('GET', `${NS}/tags?hide_empty=false`);
      assert.equal(list.body.total, 1);
    });
  });
}
