import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createTerm, ids, insertEvent, names } from './fixtures.ts';

// 30 §1.4 `order` and `orderby`: every value, case-insensitive text keys, ties by id.
for (const dialect of DIALECTS) {
  describe(`term list ordering [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let b: any, a: any, c: any, d: any;
    let tags: any[];
    let event: number;
    const list = async (query: string) => (await t.request('GET', `${NS}/categories?hide_empty=0&${query}`)).body.categories as any[];
    before(async () => {
      t = await startTestApp(dialect);
      // Created in this order, so ids ascend b < a < c < d.
      b = await createTerm(t, 'categories', { name: 'b', slug: 'zulu', description: 'Yellow' });
      a = await createTerm(t, 'categories', { name: 'A', slug: 'Mike', description: 'green' });
      c = await createTerm(t, 'categories', { name: 'C', slug: 'alpha', description: 'Blue', parent: b.id });
      d = await createTerm(t, 'categories', { name: 'b', slug: 'bravo', description: 'blue' });
      await insertEvent(t, [c.id, a.id]);
      await insertEvent(t, [c.id]);
      tags = [];
      for (const name of ['Tag three', 'Tag one', 'Tag two']) tags.push(await createTerm(t, 'tags', { name }));
      event = await insertEvent(t, [tags[2].id, tags[0].id, tags[1].id]);
    });
    after(() => t.close());

    test('default: by name ascending, case-insensitively, equal names by id', async () => {
      assert.deepEqual(ids(await list('')), [a.id, b.id, d.id, c.id]);
      assert.deepEqual(names(await list('')), ['A', 'b', 'b', 'C']);
    });

    test('order=asc in any case ascends; any other value descends (ties reversed too)', async () => {
      assert.deepEqual(ids(await list('order=ASC')), [a.id, b.id, d.id, c.id]);
      assert.deepEqual(ids(await list('order=desc')), [c.id, d.id, b.id, a.id]);
      assert.deepEqual(ids(await list('order=whatever')), [c.id, d.id, b.id, a.id]);
    });

    test('orderby=slug and description compare case-insensitively', async () => {
      assert.deepEqual(names(await list('orderby=slug')), ['C', 'b', 'A', 'b']);
      // description: Blue (c), blue (d), green (a), Yellow (b); Blue/blue tie broken by id.
      assert.deepEqual(ids(await list('orderby=description')), [c.id, d.id, a.id, b.id]);
    });

    test('orderby=id, term_id and term_taxonomy_id sort by id', async () => {
      for (const key of ['id', 'term_id', 'term_taxonomy_id', 'ID']) {
        assert.deepEqual(ids(await list(`orderby=${key}`)), [b.id, a.id, c.id, d.id], key);
      }
      assert.deepEqual(ids(await list('orderby=id&order=desc')), [d.id, c.id, a.id, b.id]);
    });

    test('orderby=count sorts by published events, ties by id', async () => {
      assert.deepEqual(ids(await list('orderby=count')), [b.id, d.id, a.id, c.id]);
      assert.deepEqual(ids(await list('orderby=count&order=desc')), [c.id, a.id, d.id, b.id]);
    });

    test('orderby=parent sorts by parent id, ties by id', async () => {
      assert.deepEqual(ids(await list('orderby=parent')), [b.id, a.id, d.id, c.id]);
    });

    test('orderby=term_group and taxonomy are equal for all terms: id order', async () => {
      assert.deepEqual(ids(await list('orderby=term_group')), [b.id, a.id, c.id, d.id]);
      assert.deepEqual(ids(await list('orderby=taxonomy&order=desc')), [d.id, c.id, a.id, b.id]);
    });

    test('orderby=include follows the include list; without include it sorts by name', async () => {
      assert.deepEqual(ids(await list(`orderby=include&include=${c.id},${a.id},${d.id}`)), [c.id, a.id, d.id]);
      assert.deepEqual(ids(await list(`orderby=include&order=desc&include=${c.id},${a.id},${d.id}`)), [d.id, a.id, c.id]);
      assert.deepEqual(ids(await list('orderby=include')), [a.id, b.id, d.id, c.id]);
    });

    test('orderby=none is storage (id) order and ignores order', async () => {
      assert.deepEqual(ids(await list('orderby=none')), [b.id, a.id, c.id, d.id]);
      assert.deepEqual(ids(await list('orderby=none&order=desc')), [b.id, a.id, c.id, d.id]);
    });

    test('orderby=term_order is the assignment order with post/event, else id', async () => {
      const res = await t.request('GET', `${NS}/tags?orderby=term_order&event=${event}`);
      assert.deepEqual(ids(res.body.tags), [tags[2].id, tags[0].id, tags[1].id]);
      const reversed = await t.request('GET', `${NS}/tags?orderby=term_order&order=desc&post=${event}`);
      assert.deepEqual(ids(reversed.body.tags), [tags[1].id, tags[0].id, tags[2].id]);
      assert.deepEqual(ids(await list('orderby=term_order')), [b.id, a.id, c.id, d.id]);
    });

    test('unknown orderby values (include_slugs too) sort by name', async () => {
      for (const key of ['include_slugs', 'nonsense', 'slug__in']) {
        assert.deepEqual(ids(await list(`orderby=${key}`)), [a.id, b.id, d.id, c.id], key);
      }
    });

    test('orderby values are case-insensitive', async () => {
      assert.deepEqual(ids(await list('orderby=COUNT&order=DESC')), [c.id, a.id, d.id, b.id]);
    });

    test('ordering applies before paging', async () => {
      const page2 = await list('orderby=count&order=desc&per_page=2&page=2');
      assert.deepEqual(ids(page2), [d.id, b.id]);
    });
  });
}
