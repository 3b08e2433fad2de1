import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';

const LIST_ARGS = ['page', 'per_page', 'search', 'exclude', 'include', 'order', 'orderby', 'hide_empty', 'parent', 'post', 'event', 'slug'];

function shape(args: Record<string, any>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).map(([name, arg]) => {
    const { description, ...rest } = arg;
    assert.equal(typeof description, 'string', name);
    return [name, rest];
  }));
}

// 30 §2: the term routes in the namespace index, with the argument declarations of the reference.
for (const dialect of DIALECTS) {
  describe(`term routes in the namespace index [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let routes: Record<string, any>;
    before(async () => {
      t = await startTestApp(dialect);
      routes = (await t.request('GET', NS)).body.routes;
    });
    after(() => t.close());

    test('four routes in the reference order, with their methods', () => {
      const keys = Object.keys(routes).filter((key) => /categories|tags/.test(key));
      assert.deepEqual(keys, [`${NS}/categories`, `${NS}/categories/(?P<id>\\d+)`, `${NS}/tags`, `${NS}/tags/(?P<id>\\d+)`]);
      assert.deepEqual(routes[`${NS}/categories`].methods, ['GET', 'POST']);
      assert.deepEqual(routes[`${NS}/categories/(?P<id>\\d+)`].methods, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
      assert.deepEqual(routes[`${NS}/tags/(?P<id>\\d+)`].endpoints.map((e: any) => e.methods), [['GET'], ['POST', 'PUT', 'PATCH'], ['DELETE']]);
      assert.deepEqual(routes[`${NS}/tags`]._links, { self: [{ href: `http://calendar.test${NS}/tags` }] });
      assert.equal('_links' in routes[`${NS}/tags/(?P<id>\\d+)`], false);
    });

    test('list arguments: defaults keep their JSON types, include/exclude have items and no type', () => {
      const args = routes[`${NS}/categories`].endpoints[0].args;
      assert.deepEqual(Object.keys(args), LIST_ARGS);
      assert.deepEqual(shape(args), {
        page: { default: 1, type: 'integer', required: false },
        per_page: { default: '10', type: 'integer', required: false },
        search: { type: 'string', required: false },
        exclude: { items: { type: 'integer' }, required: false },
        include: { items: { type: 'integer' }, required: false },
        order: { type: 'string', required: false },
        orderby: { type: 'string', required: false },
        hide_empty: { default: '1', type: 'boolean', required: false },
        parent: { type: 'integer', required: false },
        post: { type: 'integer', required: false },
        event: { type: 'integer', required: false },
        slug: { type: 'string', required: false },
      });
      assert.deepEqual(Object.keys(routes[`${NS}/tags`].endpoints[0].args), LIST_ARGS.filter((name) => name !== 'parent'));
    });

    test('write arguments: name required on create only; parent for categories only', () => {
      assert.deepEqual(shape(routes[`${NS}/categories`].endpoints[1].args), {
        name: { type: 'string', required: true },
        description: { type: 'string', required: false },
        slug: { type: 'string', required: false },
        parent: { type: 'integer', required: false },
      });
      assert.deepEqual(Object.keys(routes[`${NS}/tags`].endpoints[1].args), ['name', 'description', 'slug']);
      const [read, update, remove] = routes[`${NS}/categories/(?P<id>\\d+)`].endpoints;
      assert.deepEqual(shape(read.args), { id: { type: 'integer', required: true } });
      assert.deepEqual(shape(remove.args), { id: { type: 'integer', required: true } });
      assert.deepEqual(shape(update.args), {
        id: { type: 'integer', required: true },
        name: { type: 'string', required: false },
        description: { type: 'string', required: false },
        slug: { type: 'string', required: false },
        parent: { type: 'integer', required: false },
      });
      assert.deepEqual(Object.keys(routes[`${NS}/tags/(?P<id>\\d+)`].endpoints[1].args), ['id', 'name', 'description', 'slug']);
    });
  });
}
