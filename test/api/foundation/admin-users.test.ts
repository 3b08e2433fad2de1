import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';

const ADMIN = '/calendar/admin/v1';

for (const dialect of DIALECTS) {
  describe(`users API [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect);
    });
    after(() => t.close());

    test('an administrator creates a user who can then authenticate', async () => {
      const res = await t.request('POST', `${ADMIN}/users`, { as: 'administrator', body: { login: 'maria', role: 'author', email: 'maria@example.org' } });
      assert.equal(res.status, 201);
      assert.equal(res.body.login, 'maria');
      assert.equal(res.body.role, 'author');
      assert.equal(res.body.email, 'maria@example.org');
      assert.equal(typeof res.body.application_password, 'string');
      assert.ok(res.body.application_password.length >= 24);
      const me = await t.request('GET', `${ADMIN}/me`, { headers: { authorization: `Bearer ${res.body.application_password}` } });
      assert.equal(me.status, 200);
      assert.equal(me.body.id, res.body.id);
      const listed = await t.request('GET', `${ADMIN}/users`, { as: 'administrator' });
      assert.equal(listed.status, 200);
      const entry = listed.body.find((user: { id: number }) => user.id === res.body.id);
      assert.deepEqual(entry, { id: res.body.id, login: 'maria', role: 'author', email: 'maria@example.org' });
      assert.ok(!JSON.stringify(listed.body).includes(res.body.application_password));
    });

    test('the secret is stored only as a hash', async () => {
      const res = await t.request('POST', `${ADMIN}/users`, { as: 'administrator', body: { login: 'hashcheck', role: 'subscriber' } });
      const rows = await t.storage.db.selectFrom('app_passwords').select('hash').where('user_id', '=', res.body.id).execute();
      assert.equal(rows.length, 1);
      assert.notEqual(rows[0].hash, res.body.application_password);
      assert.match(rows[0].hash, /^[0-9a-f]{64}$/);
    });

    test('form-encoded bodies work as well as JSON', async () => {
      const res = await t.request('POST', `${ADMIN}/users`, {
        as: 'administrator',
        body: 'login=formuser&role=editor',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(res.status, 201);
      assert.equal(res.body.role, 'editor');
    });

    test('multipart bodies work as well', async () => {
      const boundary = '----calendarboundary';
      const body = [`--${boundary}`, 'Content-Disposition: form-data; name="login"', '', 'multipartuser', `--${boundary}`, 'Content-Disposition: form-data; name="role"', '', 'contributor', `--${boundary}--`, ''].join('\r\n');
      const res = await t.request('POST', `${ADMIN}/users`, { as: 'administrator', body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
      assert.equal(res.status, 201);
      assert.equal(res.body.login, 'multipartuser');
    });

    test('validation: missing, invalid and duplicate', async () => {
      const missing = await t.request('POST', `${ADMIN}/users`, { as: 'administrator', body: {} });
      assert.equal(missing.status, 400);
      assert.equal(missing.body.code, 'rest_missing_callback_param');
      assert.deepEqual(missing.body.data.params, ['login', 'role']);
      const badRole = await t.request('POST', `${ADMIN}/users`, { as: 'administrator', body: { login: 'x1', role: 'king' } });
      assert.equal(badRole.status, 400);
      assert.equal(badRole.body.code, 'rest_invalid_param');
      assert.ok('role' in badRole.body.data.params);
      const badLogin = await t.request('POST', `${ADMIN}/users`, { as: 'administrator', body: { login: '<script>', role: 'editor' } });
      assert.equal(badLogin.status, 400);
      assert.ok('login' in badLogin.body.data.params);
      const badEmail = await t.request('POST', `${ADMIN}/users`, { as: 'administrator', body: { login: 'x2', role: 'editor', email: 'not-an-email' } });
      assert.equal(badEmail.status, 400);
      assert.ok('email' in badEmail.body.data.params);
      const duplicate = await t.request('POST', `${ADMIN}/users`, { as: 'administrator', body: { login: 'editor', role: 'editor' } });
      assert.equal(duplicate.status, 400);
      assert.equal(duplicate.body.code, 'existing_user_login');
    });

    test('only administrators manage users: visitor 401, other roles 403', async () => {
      for (const role of ['editor', 'author', 'contributor', 'subscriber'] as const) {
        for (const [method, path] of [['GET', '/users'], ['POST', '/users'], ['GET', `/users/${t.users.editor.id}`], ['DELETE', `/users/${t.users.subscriber.id}`], ['POST', `/users/${t.users.editor.id}/application-passwords`]] as const) {
          const res = await t.request(method, `${ADMIN}${path}`, { as: role, body: method === 'POST' && path === '/users' ? { login: 'zz', role: 'editor' } : undefined });
          assert.equal(res.status, 403, `${role} ${method} ${path}`);
          assert.equal(res.body.code, 'rest_forbidden');
        }
      }
      const visitor = await t.request('GET', `${ADMIN}/users`);
      assert.equal(visitor.status, 401);
      assert.equal(visitor.body.code, 'rest_forbidden');
    });

    test('read one, unknown id is 404, non-numeric id is rest_no_route', async () => {
      const one = await t.request('GET', `${ADMIN}/users/${t.users.author.id}`, { as: 'administrator' });
      assert.equal(one.status, 200);
      assert.equal(one.body.login, 'author');
      const unknown = await t.request('GET', `${ADMIN}/users/999999`, { as: 'administrator' });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.code, 'rest_user_invalid_id');
      const word = await t.request('GET', `${ADMIN}/users/abc`, { as: 'administrator' });
      assert.equal(word.status, 404);
      assert.equal(word.body.code, 'rest_no_route');
    });

    test('a new application password keeps the old one working', async () => {
      const res = await t.request('POST', `${ADMIN}/users/${t.users.contributor.id}/application-passwords`, { as: 'administrator' });
      assert.equal(res.status, 201);
      const fresh = await t.request('GET', `${ADMIN}/me`, { headers: { authorization: `Bearer ${res.body.application_password}` } });
      assert.equal(fresh.body.login, 'contributor');
      const old = await t.request('GET', `${ADMIN}/me`, { as: 'contributor' });
      assert.equal(old.status, 200);
    });

    test('deleting a user revokes their credentials; the last administrator stays', async () => {
      const created = await t.request('POST', `${ADMIN}/users`, { as: 'administrator', body: { login: 'shortlived', role: 'editor' } });
      const removed = await t.request('DELETE', `${ADMIN}/users/${created.body.id}`, { as: 'administrator' });
      assert.equal(removed.status, 200);
      assert.deepEqual(removed.body, { deleted: true, previous: { id: created.body.id, login: 'shortlived', role: 'editor', email: '' } });
      const gone = await t.request('GET', `${ADMIN}/me`, { headers: { authorization: `Bearer ${created.body.application_password}` } });
      assert.equal(gone.status, 401);
      await t.request('DELETE', `${ADMIN}/users/${t.others.administrator.id}`, { as: 'administrator' });
      const last = await t.request('DELETE', `${ADMIN}/users/${t.users.administrator.id}`, { as: 'administrator' });
      assert.equal(last.status, 400);
      assert.equal(last.body.code, 'rest_cannot_delete_last_admin');
    });
  });
}
