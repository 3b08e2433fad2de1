import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';

for (const dialect of DIALECTS) {
  describe(`namespace root [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect);
    });
    after(() => t.close());

    test('GET {ns} lists the namespace and its routes in registration order', async () => {
      const res = await t.request('GET', NS);
      assert.equal(res.status, 200);
      assert.equal(res.body.namespace, 'calendar/events/v1');
      const keys = Object.keys(res.body.routes);
      assert.equal(keys[0], '/calendar/events/v1');
      const root = res.body.routes['/calendar/events/v1'];
      assert.deepEqual(root.methods, ['GET']);
      assert.deepEqual(root.endpoints[0].args.namespace, { default: 'calendar/events/v1', description: 'The namespace to describe.', required: false });
      assert.deepEqual(root._links, { self: [{ href: 'http://calendar.test/calendar/events/v1' }] });
      assert.deepEqual(res.body._links, { up: [{ href: 'http://calendar.test/' }] });
      assert.match(String(res.headers['content-type']), /^application\/json; charset=UTF-8/i);
    });

    test('a trailing slash reaches the same route', async () => {
      const res = await t.request('GET', `${NS}/`);
      assert.equal(res.status, 200);
      assert.equal(res.body.namespace, 'calendar/events/v1');
    });

    test('another namespace is 404 rest_invalid_namespace', async () => {
      const res = await t.request('GET', `${NS}?namespace=wp/v2`);
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'rest_invalid_namespace');
    });

    test('POST {ns} is 404 rest_no_route', async () => {
      const res = await t.request('POST', NS);
      assert.equal(res.status, 404);
      assert.deepEqual(res.body, { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
    });

    test('editions keep their prefix in links and translate messages', async () => {
      const res = await t.request('GET', `/it${NS}`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body._links, { up: [{ href: 'http://calendar.test/it/' }] });
      const missing = await t.request('GET', `/da${NS}/nowhere`);
      assert.equal(missing.status, 404);
      assert.equal(missing.body.code, 'rest_no_route');
      assert.equal(missing.body.message, 'Der blev ikke fundet nogen rute, der matcher URL-adressen og anmodningsmetoden.');
      const spanish = await t.request('POST', `/es${NS}`);
      assert.match(spanish.body.message, /No se ha encontrado ninguna ruta/);
    });
  });
}
