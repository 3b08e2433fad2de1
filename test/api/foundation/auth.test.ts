import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ROLES } from '../../../src/domain/auth/capabilities.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';

const ME = '/calendar/admin/v1/me';

for (const dialect of DIALECTS) {
  describe(`authentication [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect);
    });
    after(() => t.close());

    for (const role of ROLES) {
      test(`a ${role} authenticates with Basic and with Bearer`, async () => {
        const basic = await t.request('GET', ME, { as: role });
        assert.equal(basic.status, 200);
        assert.deepEqual(basic.body, { id: t.users[role].id, login: role, role, email: '' });
        const bearer = await t.request('GET', ME, { headers: { authorization: `Bearer ${t.users[role].password}` } });
        assert.equal(bearer.status, 200);
        assert.equal(bearer.body.role, role);
        assert.equal(bearer.headers['cache-control'], 'no-cache, must-revalidate, max-age=0, no-store, private');
      });
    }

    test('a visitor asking for /me gets 401 rest_not_logged_in', async () => {
      const res = await t.request('GET', ME);
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 'rest_not_logged_in');
    });

    const badCredentials: Array<[string, string, string]> = [
      ['unknown login', `Basic ${Buffer.from('nobody:whatever').toString('base64')}`, 'invalid_username'],
      ['wrong secret', `Basic ${Buffer.from('editor:wrong-secret').toString('base64')}`, 'incorrect_password'],
      ['wrong bearer secret', 'Bearer not-a-real-secret', 'incorrect_password'],
      ['Basic without colon', `Basic ${Buffer.from('editor').toString('base64')}`, 'incorrect_password'],
      ['empty Basic', 'Basic ', 'incorrect_password'],
      ['unsupported scheme', 'Digest abc', 'incorrect_password'],
      ['garbage', 'x', 'incorrect_password'],
    ];
    for (const [name, header, code] of badCredentials) {
      test(`${name} is 401 ${code}, even on a public route`, async () => {
        const res = await t.request('GET', NS, { headers: { authorization: header } });
        assert.equal(res.status, 401);
        assert.equal(res.body.code, code);
        assert.equal(res.body.data.status, 401);
      });
    }

    test('credentials are checked before routing: bad header on an unknown path is 401', async () => {
      const res = await t.request('GET', `${NS}/nowhere`, { headers: { authorization: 'Bearer nope' } });
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 'incorrect_password');
    });

    test('one user\'s secret does not authenticate another login', async () => {
      const header = `Basic ${Buffer.from(`editor:${t.users.administrator.password}`).toString('base64')}`;
      const res = await t.request('GET', ME, { headers: { authorization: header } });
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 'incorrect_password');
    });

    test('the 401 message is translated in an edition', async () => {
      const res = await t.request('GET', `/it${ME}`, { headers: { authorization: 'Bearer nope' } });
      assert.equal(res.status, 401);
      assert.equal(res.body.message, 'La password fornita non è una password per le applicazioni valida.');
    });
  });
}
