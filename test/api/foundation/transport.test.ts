import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';

const USERS = '/calendar/admin/v1/users';

for (const dialect of DIALECTS) {
  describe(`transport and error model [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { env: { CALENDAR_BODY_LIMIT: '65536' } });
    });
    after(() => t.close());

    test('unknown routes and unsupported methods are 404 rest_no_route', async () => {
      for (const [method, url] of [['GET', '/nowhere'], ['GET', `${NS}/nowhere`], ['DELETE', NS], ['PUT', NS], ['PATCH', USERS]] as const) {
        const res = await t.request(method, url);
        assert.equal(res.status, 404, `${method} ${url}`);
        assert.equal(res.body.code, 'rest_no_route');
        assert.deepEqual(res.body.data, { status: 404 });
      }
    });

    test('broken JSON is 400 rest_invalid_json', async () => {
      const res = await t.request('POST', USERS, { body: '{"login": "x",', headers: { 'content-type': 'application/json' } });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'rest_invalid_json');
      assert.equal(res.body.data.status, 400);
    });

    test('a JSON body that is not an object contributes no parameters', async () => {
      const res = await t.request('POST', USERS, { as: 'administrator', body: '["login","role"]', headers: { 'content-type': 'application/json' } });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'rest_missing_callback_param');
    });

    test('prototype-poisoning keys are dropped, not applied', async () => {
      const res = await t.request('POST', USERS, { as: 'administrator', body: '{"__proto__":{"role":"administrator"},"login":"proto1","role":"subscriber"}', headers: { 'content-type': 'application/json' } });
      assert.equal(res.status, 201);
      assert.equal(res.body.role, 'subscriber');
    });

    test('a body over the limit is 413 with a JSON error, and nothing is written', async () => {
      const before = (await t.request('GET', USERS, { as: 'administrator' })).body.length;
      const res = await t.request('POST', USERS, { as: 'administrator', body: JSON.stringify({ login: 'big', role: 'editor', email: 'x'.repeat(70000) }), headers: { 'content-type': 'application/json' } });
      assert.equal(res.status, 413);
      assert.equal(res.body.code, 'rest_request_too_large');
      assert.match(res.body.message, /65536/);
      const form = await t.request('POST', USERS, { as: 'administrator', body: `login=big&role=editor&email=${'x'.repeat(70000)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      assert.equal(form.status, 413);
      const after = (await t.request('GET', USERS, { as: 'administrator' })).body.length;
      assert.equal(after, before);
    });

    test('wrong parameter types are 400 rest_invalid_param naming the parameter and type', async () => {
      const res = await t.request('POST', USERS, { as: 'administrator', body: { login: 42, role: 'editor' } });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'rest_invalid_param');
      assert.deepEqual(res.body.data.params, { login: 'login is not of type string.' });
      assert.equal(res.body.message, 'Invalid parameter(s): login');
    });

    test('write parameters may come from the query string; path values win', async () => {
      const res = await t.request('POST', `${USERS}?login=fromquery&role=author`, { as: 'administrator' });
      assert.equal(res.status, 201);
      assert.equal(res.body.login, 'fromquery');
      const one = await t.request('GET', `/calendar/admin/v1/users/${t.users.editor.id}?id=${t.users.author.id}`, { as: 'administrator' });
      assert.equal(one.body.login, 'editor');
    });

    test('_method and X-HTTP-Method-Override change the method before routing', async () => {
      const created = await t.request('POST', USERS, { as: 'administrator', body: { login: 'overridden', role: 'editor' } });
      const viaQuery = await t.request('POST', `/calendar/admin/v1/users/${created.body.id}?_method=DELETE`, { as: 'administrator' });
      assert.equal(viaQuery.status, 200);
      assert.equal(viaQuery.body.deleted, true);
      const again = await t.request('POST', USERS, { as: 'administrator', body: { login: 'overridden2', role: 'editor' } });
      const viaHeader = await t.request('POST', `/calendar/admin/v1/users/${again.body.id}`, { as: 'administrator', headers: { 'x-http-method-override': 'DELETE' } });
      assert.equal(viaHeader.body.deleted, true);
    });

    test('_envelope answers 200 with status and headers inside the body', async () => {
      const res = await t.request('GET', `${NS}/nowhere?_envelope=1`);
      assert.equal(res.status, 200);
      assert.equal(res.body.status, 404);
      assert.equal(res.body.body.code, 'rest_no_route');
      assert.deepEqual(res.body.headers, []);
    });

    test('_fields keeps only the listed keys, dotted paths included', async () => {
      const res = await t.request('GET', `${NS}?_fields=namespace,_links.up`);
      assert.deepEqual(Object.keys(res.body), ['namespace', '_links']);
      assert.deepEqual(Object.keys(res.body._links), ['up']);
    });

    test('HEAD is served by GET without a body; OPTIONS describes the route', async () => {
      const head = await t.request('HEAD', NS);
      assert.equal(head.status, 200);
      assert.equal(head.text, '');
      const options = await t.request('OPTIONS', NS);
      assert.equal(options.status, 200);
      assert.equal(options.headers.allow, 'GET');
      assert.deepEqual(options.body.methods, ['GET']);
    });

    test('every response says nosniff', async () => {
      const res = await t.request('GET', NS);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
    });
  });
}
