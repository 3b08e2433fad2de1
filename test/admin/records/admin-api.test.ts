import { Validator } from '@seriousme/openapi-schema-validator';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EDITION_PREFIXES, LANGUAGES } from '../../../src/i18n/catalog.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';

const ADMIN = '/calendar/admin/v1';

for (const dialect of DIALECTS) {
  describe(`admin API additions of 100 §10 [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect);
    });
    after(() => t.close());

    test('POST /users with application_password=false creates a user without a secret; the default keeps today\'s answer', async () => {
      const plain = await t.request('POST', `${ADMIN}/users`, { as: 'administrator', body: { login: 'invitee', role: 'editor', application_password: false } });
      assert.equal(plain.status, 201);
      assert.equal(plain.body.application_password, undefined);
      const listed = await t.request('GET', `${ADMIN}/users/${plain.body.id}/application-passwords`, { as: 'administrator' });
      assert.deepEqual(listed.body, []);
      const usual = await t.request('POST', `${ADMIN}/users`, { as: 'administrator', body: { login: 'scripted', role: 'author' } });
      assert.equal(usual.status, 201);
      assert.equal(typeof usual.body.application_password, 'string');
    });

    test('PATCH /users/{id} changes role and e-mail; refuses a bad e-mail; non-administrators are refused', async () => {
      const created = await t.request('POST', `${ADMIN}/users`, { as: 'administrator', body: { login: 'patched', role: 'author' } });
      const changed = await t.request('PATCH', `${ADMIN}/users/${created.body.id}`, { as: 'administrator', body: { role: 'editor', email: 'p@example.org' } });
      assert.equal(changed.status, 200);
      assert.deepEqual(changed.body, { id: created.body.id, login: 'patched', role: 'editor', email: 'p@example.org' });
      // The role is read with the credentials: the new role applies at the next request.
      const asEditor = await t.request('GET', `${NS}/events?status=draft`, { headers: { authorization: `Basic ${Buffer.from(`patched:${created.body.application_password}`).toString('base64')}` } });
      assert.equal(asEditor.status, 200);
      const bad = await t.request('PATCH', `${ADMIN}/users/${created.body.id}`, { as: 'administrator', body: { email: 'not an address' } });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.code, 'rest_invalid_param');
      const refused = await t.request('PATCH', `${ADMIN}/users/${created.body.id}`, { as: 'editor', body: { role: 'administrator' } });
      assert.equal(refused.status, 403);
      assert.equal((await t.request('PATCH', `${ADMIN}/users/99999`, { as: 'administrator', body: { role: 'editor' } })).status, 404);
    });

    test('the last administrator cannot be demoted (400 rest_cannot_demote_last_admin); with two, one can', async () => {
      const second = t.others.administrator;
      const demoted = await t.request('PATCH', `${ADMIN}/users/${second.id}`, { as: 'administrator', body: { role: 'editor' } });
      assert.equal(demoted.status, 200);
      const last = await t.request('PATCH', `${ADMIN}/users/${t.users.administrator.id}`, { as: 'administrator', body: { role: 'subscriber' } });
      assert.equal(last.status, 400);
      assert.equal(last.body.code, 'rest_cannot_demote_last_admin');
      assert.equal((await t.request('GET', `${ADMIN}/users/${t.users.administrator.id}`, { as: 'administrator' })).body.role, 'administrator');
      const danish = await t.request('PATCH', `/da${ADMIN}/users/${t.users.administrator.id}`, { as: 'administrator', body: { role: 'subscriber' } });
      assert.equal(danish.body.message, 'Den sidste administrator kan ikke miste administratorrollen.');
      // Keeping the role is no demotion.
      assert.equal((await t.request('PATCH', `${ADMIN}/users/${t.users.administrator.id}`, { as: 'administrator', body: { role: 'administrator', email: 'a@example.org' } })).status, 200);
      assert.equal((await t.request('PATCH', `${ADMIN}/users/${second.id}`, { as: 'administrator', body: { role: 'administrator' } })).status, 200);
    });

    test('application passwords have a name, are listed without secrets, and are revoked one by one', async () => {
      const id = t.users.author.id;
      const made = await t.request('POST', `${ADMIN}/users/${id}/application-passwords`, { as: 'administrator', body: { name: 'Phone calendar' } });
      assert.equal(made.status, 201);
      const secret = made.body.application_password as string;
      const listed = await t.request('GET', `${ADMIN}/users/${id}/application-passwords`, { as: 'administrator' });
      assert.equal(listed.status, 200);
      assert.equal(listed.body.length, 2);
      const entry = listed.body.find((item: any) => item.name === 'Phone calendar');
      assert.deepEqual(Object.keys(entry).sort(), ['created', 'id', 'last_used', 'name']);
      assert.match(entry.created, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.ok(!listed.text.includes(secret));
      const bearer = { authorization: `Bearer ${secret}` };
      assert.equal((await t.request('GET', `${ADMIN}/me`, { headers: bearer })).status, 200);
      const deleted = await t.request('DELETE', `${ADMIN}/users/${id}/application-passwords/${entry.id}`, { as: 'administrator' });
      assert.deepEqual([deleted.status, deleted.body], [200, { deleted: true }]);
      assert.equal((await t.request('GET', `${ADMIN}/me`, { headers: bearer })).status, 401);
      const again = await t.request('DELETE', `${ADMIN}/users/${id}/application-passwords/${entry.id}`, { as: 'administrator' });
      assert.deepEqual([again.status, again.body.code], [404, 'application_password_not_found']);
      // Another user's password id is unknown under this user.
      const other = (await t.request('GET', `${ADMIN}/users/${t.users.editor.id}/application-passwords`, { as: 'administrator' })).body[0];
      assert.equal((await t.request('DELETE', `${ADMIN}/users/${id}/application-passwords/${other.id}`, { as: 'administrator' })).status, 404);
      const long = await t.request('POST', `${ADMIN}/users/${id}/application-passwords`, { as: 'administrator', body: { name: 'x'.repeat(101) } });
      assert.equal(long.status, 400);
      assert.equal((await t.request('GET', `${ADMIN}/users/${id}/application-passwords`, { as: 'author' })).status, 403);
    });
  });
}

describe('GET {api}/calendar/admin/v1/doc: the admin namespace\'s own OpenAPI document', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp('sqlite');
  });
  after(() => t.close());

  for (const lang of LANGUAGES) {
    test(`${lang}: validates against the OpenAPI 3.0 schema, every reference resolves`, async () => {
      const res = await t.request('GET', `${EDITION_PREFIXES[lang]}${ADMIN}/doc`);
      assert.equal(res.status, 200);
      const validator = new Validator();
      const result = await validator.validate(res.body);
      assert.deepEqual(result.errors, undefined, JSON.stringify(result.errors, null, 1));
      assert.doesNotThrow(() => validator.resolveRefs());
      assert.equal(res.body.servers[0].url, `http://calendar.test${EDITION_PREFIXES[lang]}${ADMIN}/`);
    });
  }

  test('it documents the admin routes (users, additions, webhooks, media, imports, exports), and {ns}/doc stays the events namespace', async () => {
    const admin = (await t.request('GET', `${ADMIN}/doc`)).body;
    for (const path of ['/users', '/users/{id}', '/users/{id}/application-passwords', '/users/{id}/application-passwords/{pid}', '/me', '/webhooks', '/media', '/imports', '/exports/{kind}.csv']) {
      assert.ok(path in admin.paths, path);
    }
    assert.ok(admin.paths['/users/{id}'].patch.requestBody);
    assert.ok(admin.paths['/users'].post.requestBody.content['application/json'].schema.properties.application_password);
    const events = (await t.request('GET', `${NS}/doc`)).body;
    assert.ok(!('/users' in events.paths));
    assert.ok('/events' in events.paths);
    assert.notEqual(admin.info.title, events.info.title);
    for (const doc of [admin, events]) {
      assert.match(JSON.stringify(doc.components.securitySchemes), /rest_cookie_invalid_nonce/);
      assert.deepEqual(doc.security.at(-1), { cookieAuth: [], nonceAuth: [] });
    }
  });

  test('the {base}/docs page offers both documents', async () => {
    const page = await t.request('GET', '/docs');
    assert.match(page.text, /data-document-url="\/calendar\/events\/v1\/doc"/);
    assert.match(page.text, /href="\/docs\?api=admin"/);
    const adminPage = await t.request('GET', '/da/docs?api=admin');
    assert.match(adminPage.text, /data-document-url="\/da\/calendar\/admin\/v1\/doc"/);
    assert.match(adminPage.text, /Administrations-API/);
  });
});
