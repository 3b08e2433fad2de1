import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { RestContext } from '../../../src/http/rest/context.ts';
import { UrlBuilder } from '../../../src/render/urls.ts';
import { translate } from '../../../src/i18n/catalog.ts';
import { embeddedTermsRead } from '../../../src/read/term-models.ts';
import { resolveEventTerms, resolveTermFilter } from '../../../src/services/terms-service.ts';
import { read } from '../../../src/storage/reads-together.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { clearTerms, createTerm, insertEvent } from './fixtures.ts';
import type { Kysely } from 'kysely';
import type { Database, Taxonomy } from '../../../src/storage/schema.ts';

/** The terms input of one taxonomy, as an event write sending only that field resolves it. */
async function resolveOne(trx: Kysely<Database>, taxonomy: Taxonomy, input: unknown): Promise<number[]> {
  const [ids] = await resolveEventTerms(trx, [{ taxonomy, input }]);
  return ids;
}

const BASE = `http://calendar.test${NS}`;

function context(): RestContext {
  return { lang: 'en', user: null, urls: new UrlBuilder('http://calendar.test', '', 'en'), now: new Date(), t: (key, vars) => translate('en', key, vars) };
}

// What the events module uses: terms input on event writes (10-events §6.4), the list filters
// `categories`/`tags` (10-events §4.1, §4.3) and the terms embedded in events (10-events §3.6).
for (const dialect of DIALECTS) {
  describe(`terms of events [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect);
    });
    after(() => t.close());
    beforeEach(() => clearTerms(t));

    describe('resolveEventTerms', () => {
      test('ids, slugs and names of existing terms; unknown texts create terms; deduplicated in input order', async () => {
        const music = await createTerm(t, 'categories', { name: 'Music' });
        const jazz = await createTerm(t, 'categories', { name: 'Jazz & Blues', slug: 'jb' });
        const result = await t.storage.db.transaction().execute((trx) =>
          resolveOne(trx, 'tribe_events_cat', `Chamber, music,${jazz.id}, ,Jazz & Blues,jb,chamber,${music.id}`),
        );
        const chamber = (await t.request('GET', `${NS}/categories?hide_empty=0&slug=chamber`)).body.categories[0];
        assert.deepEqual(chamber && [chamber.name, chamber.parent], ['Chamber', 0]);
        assert.deepEqual(result, [chamber.id, music.id, jazz.id]);
      });

      test('arrays work too; unknown or non-positive numeric ids are skipped, never created', async () => {
        const free = await createTerm(t, 'tags', { name: 'Free' });
        const result = await t.storage.db.transaction().execute((trx) => resolveOne(trx, 'post_tag', [999999, '888888', 0, '-3', '1.5', free.id, 'free']));
        assert.deepEqual(result, [free.id]);
        const list = await t.request('GET', `${NS}/tags?hide_empty=0`);
        assert.equal(list.body.total, 1);
      });

      test('ids of the other taxonomy are skipped; a term object is read by its id', async () => {
        const music = await createTerm(t, 'categories', { name: 'Music' });
        const free = await createTerm(t, 'tags', { name: 'Free' });
        const result = await t.storage.db.transaction().execute((trx) => resolveOne(trx, 'post_tag', [music.id, { id: free.id, name: 'Free' }]));
        assert.deepEqual(result, [free.id]);
      });

      test('a text whose slug is taken names that term; a new term gets a sanitised name', async () => {
        const other = await createTerm(t, 'tags', { name: 'Other', slug: 'rock-roll' });
        assert.deepEqual(await t.storage.db.transaction().execute((trx) => resolveOne(trx, 'post_tag', 'Rock & Roll')), [other.id]);
        const [id] = await t.storage.db.transaction().execute((trx) => resolveOne(trx, 'post_tag', '<b>Rock</b> & Pop'));
        const tag = (await t.request('GET', `${NS}/tags/${id}`)).body;
        assert.deepEqual([tag.name, tag.slug], ['Rock &amp; Pop', 'rock-pop']);
      });

      test('empty input, blank entries and markup-only names give no terms', async () => {
        for (const input of [undefined, null, '', ' , ,', [], ['', '  '], '<i></i>']) {
          const result = await t.storage.db.transaction().execute((trx) => resolveOne(trx, 'post_tag', input));
          assert.deepEqual(result, [], JSON.stringify(input));
        }
      });

      test('categories and tags resolved together keep to their own taxonomy', async () => {
        const music = await createTerm(t, 'categories', { name: 'Music' });
        const musicTag = await createTerm(t, 'tags', { name: 'Music' });
        const [categories, tags] = await t.storage.db.transaction().execute((trx) =>
          resolveEventTerms(trx, [{ taxonomy: 'tribe_events_cat', input: ['music', musicTag.id] }, { taxonomy: 'post_tag', input: `Music,${music.id},New` }]),
        );
        const created = (await t.request('GET', `${NS}/tags?hide_empty=0&slug=new`)).body.tags[0];
        assert.deepEqual(categories, [music.id]);
        assert.deepEqual(tags, [musicTag.id, created.id]);
      });

      test('names match case-insensitively before anything is created', async () => {
        const jazz = await createTerm(t, 'tags', { name: 'Cool Jazz', slug: 'cj' });
        const result = await t.storage.db.transaction().execute((trx) => resolveOne(trx, 'post_tag', 'COOL JAZZ'));
        assert.deepEqual(result, [jazz.id]);
      });
    });

    describe('resolveTermFilter', () => {
      test('ids, slugs and names; categories bring their descendants', async () => {
        const arts = await createTerm(t, 'categories', { name: 'Arts' });
        const music = await createTerm(t, 'categories', { name: 'Music', parent: arts.id });
        const jazz = await createTerm(t, 'categories', { name: 'Jazz', parent: music.id });
        const sport = await createTerm(t, 'categories', { name: 'Sport' });
        const byId = await resolveTermFilter(t.storage.db, 'tribe_events_cat', [String(music.id)]);
        assert.deepEqual(byId?.sort((x, y) => x - y), [music.id, jazz.id]);
        const bySlugAndName = await resolveTermFilter(t.storage.db, 'tribe_events_cat', ['arts', 'Sport']);
        assert.deepEqual(bySlugAndName?.sort((x, y) => x - y), [arts.id, music.id, jazz.id, sport.id]);
      });

      test('the tree is read only below a category that has children', async () => {
        const parent = await createTerm(t, 'categories', { name: 'Theatre' });
        const leaf = await createTerm(t, 'categories', { name: 'Mime' });
        const statements = async (entries: string[]) => {
          const before = await t.queryCount();
          const ids = await resolveTermFilter(t.storage.db, 'tribe_events_cat', entries);
          return { ids, statements: (await t.queryCount()) - before };
        };
        assert.deepEqual(await statements([String(leaf.id)]), { ids: [leaf.id], statements: 1 });
        assert.deepEqual(await statements(['theatre']), { ids: [parent.id], statements: 1 });
        const child = await createTerm(t, 'categories', { name: 'Opera', parent: parent.id });
        const below = await statements(['theatre', String(leaf.id)]);
        assert.deepEqual({ ...below, ids: below.ids?.sort((x, y) => x - y) }, { ids: [parent.id, leaf.id, child.id].sort((x, y) => x - y), statements: 2 });
      });

      test('tags: no descendants; null when any entry matches nothing or is of the other taxonomy', async () => {
        const free = await createTerm(t, 'tags', { name: 'Free' });
        const music = await createTerm(t, 'categories', { name: 'Music' });
        assert.deepEqual(await resolveTermFilter(t.storage.db, 'post_tag', [free.id, 'free']), [free.id]);
        assert.equal(await resolveTermFilter(t.storage.db, 'post_tag', [free.id, 'nope']), null);
        assert.equal(await resolveTermFilter(t.storage.db, 'post_tag', [music.id]), null);
        assert.equal(await resolveTermFilter(t.storage.db, 'post_tag', ['']), null);
      });
    });

    describe('embeddedTermsRead', () => {
      test('the embedded shape, sorted by name, with counts and urls, for many events at once', async () => {
        const music = await createTerm(t, 'categories', { name: 'music' });
        const chamber = await createTerm(t, 'categories', { name: 'Chamber', parent: music.id, description: 'Small' });
        const free = await createTerm(t, 'tags', { name: 'Free' });
        const first = await insertEvent(t, [music.id, chamber.id, free.id]);
        const second = await insertEvent(t, [chamber.id], { status: 'draft' });
        const bare = await insertEvent(t, []);
        const map = await read(t.storage.db, embeddedTermsRead(t.storage.db, [first, second, bare], context()));
        const embedded = map.get(first)!;
        assert.deepEqual(embedded.categories.map((term) => term.name), ['Chamber', 'music']);
        assert.deepEqual(embedded.categories[0], {
          name: 'Chamber',
          slug: 'chamber',
          term_group: 0,
          term_taxonomy_id: chamber.id,
          taxonomy: 'tribe_events_cat',
          description: 'Small',
          parent: music.id,
          count: 1,
          filter: 'raw',
          id: chamber.id,
          urls: { self: `${BASE}/categories/${chamber.id}`, collection: `${BASE}/categories`, up: `${BASE}/categories/${music.id}` },
        });
        assert.deepEqual(embedded.tags.map((term) => [term.id, term.parent, term.taxonomy, Object.keys(term.urls as object)]), [[free.id, 0, 'post_tag', ['self', 'collection']]]);
        assert.deepEqual(map.get(second)!.categories.map((term) => term.id), [chamber.id]);
        assert.deepEqual(map.get(bare), { categories: [], tags: [] });
      });

      test('no events: an empty map', async () => {
        assert.equal((await read(t.storage.db, embeddedTermsRead(t.storage.db, [], context()))).size, 0);
      });
    });
  });
}
