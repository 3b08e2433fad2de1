import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { DIALECTS, skipReason } from '../helpers/databases.ts';
import { NS, startTestApp, type TestApp, type TestResponse } from '../helpers/test-app.ts';

/**
 * Issue 8, privacy of credentials: no response, log line or error carries an application
 * password or its stored hash (nor the installation's hashing key), on success or failure, except
 * the one response that hands a new password out.
 */

const ADMIN = '/calendar/admin/v1';
const basic = (login: string, secret: string) => `Basic ${Buffer.from(`${login}:${secret}`).toString('base64')}`;

for (const dialect of DIALECTS) {
  describe(`application passwords never leak [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    const logs: string[] = [];
    const responses: Array<{ what: string; res: TestResponse }> = [];
    /** Secrets handed out by the API during the test (each appears in exactly its own creation response). */
    const handedOut = new Map<string, string>();

    before(async () => {
      t = await startTestApp(dialect, {
        env: { LOG_LEVEL: 'trace', CALENDAR_AUTH_FAILURE_LIMIT: '3' },
        loggerStream: { write: (line: string) => void logs.push(line) },
      });
    });
    after(() => t.close());

    /** Every secret there is now: the test users' passwords, those handed out, the stored hashes, the key. */
    async function secrets(): Promise<string[]> {
      const hashes = await t.storage.db.selectFrom('app_passwords').select('hash').execute();
      const key = await t.storage.db.selectFrom('settings').select('value').where('key', '=', 'app_password_hash_key').execute();
      const users = [...Object.values(t.users), ...Object.values(t.others)];
      return [
        ...users.map((user) => user.password),
        // As they travel in a Basic header.
        ...users.map((user) => Buffer.from(`${user.login}:${user.password}`).toString('base64')),
        ...handedOut.keys(),
        ...hashes.map((row) => row.hash),
        ...key.map((row) => row.value),
      ];
    }

    async function call(what: string, method: string, url: string, options: Parameters<TestApp['request']>[2] = {}): Promise<TestResponse> {
      const res = await t.request(method, url, options);
      responses.push({ what, res });
      return res;
    }

    test('sign-ins that succeed and that fail, with Basic and Bearer', async () => {
      const editor = t.users.editor;
      assert.equal((await call('basic', 'GET', `${ADMIN}/me`, { headers: { authorization: basic(editor.login, editor.password) } })).status, 200);
      assert.equal((await call('bearer', 'GET', `${NS}/events`, { headers: { authorization: `Bearer ${editor.password}` } })).status, 200);
      assert.equal((await call('spaced', 'GET', `${ADMIN}/me`, { headers: { authorization: basic(editor.login, editor.password.replace(/(.{4})/g, '$1 ')) } })).status, 200);
      // Someone else's secret under the wrong login, a wrong secret, an unknown login: all 401, no secret echoed.
      const crossed = await call('crossed', 'GET', `${ADMIN}/me`, { headers: { authorization: basic('author', editor.password) }, remoteAddress: '10.9.0.1' });
      assert.equal(crossed.status, 401);
      assert.equal((await call('wrong bearer', 'GET', `${ADMIN}/me`, { headers: { authorization: `Bearer ${editor.password}x` }, remoteAddress: '10.9.0.2' })).status, 401);
      assert.equal((await call('unknown login', 'GET', `${ADMIN}/me`, { headers: { authorization: basic('nobody', editor.password) }, remoteAddress: '10.9.0.3' })).status, 401);
      for (let attempt = 0; attempt < 4; attempt++) await call('throttled', 'GET', `${ADMIN}/me`, { headers: { authorization: basic('contributor', 'guess') }, remoteAddress: '10.9.0.4' });
      assert.equal(responses.at(-1)!.res.status, 429);
    });

    test('user management hands a password out once and never shows it, or its hash, again', async () => {
      const created = await call('create user', 'POST', `${ADMIN}/users`, { as: 'administrator', body: { login: 'newcomer', role: 'author' } });
      assert.equal(created.status, 201);
      handedOut.set(created.body.application_password, 'create user');
      const renewed = await call('new password', 'POST', `${ADMIN}/users/${created.body.id}/application-passwords`, { as: 'administrator' });
      assert.equal(renewed.status, 201);
      handedOut.set(renewed.body.application_password, 'new password');
      for (const [what, path] of [['list users', '/users'], ['one user', `/users/${created.body.id}`], ['me', '/me']]) {
        const res = await call(what, 'GET', `${ADMIN}${path}`, { as: 'administrator' });
        assert.equal(res.status, 200);
        assert.ok(!/application_password|hash/.test(res.text), `${what} names a secret field`);
      }
      assert.equal((await call('new user signs in', 'GET', `${ADMIN}/me`, { headers: { authorization: `Bearer ${renewed.body.application_password}` } })).status, 200);
      const deleted = await call('delete user', 'DELETE', `${ADMIN}/users/${created.body.id}`, { as: 'administrator' });
      assert.equal(deleted.status, 200);
      assert.equal((await call('deleted user', 'GET', `${ADMIN}/me`, { headers: { authorization: `Bearer ${renewed.body.application_password}` }, remoteAddress: '10.9.0.5' })).status, 401);
    });

    test('a server error while signed in logs the failure, not the credentials', async () => {
      // Break the storage under the app: the next read fails inside the handler.
      await sql`alter table venues rename to venues_gone`.execute(t.storage.db);
      const res = await call('server error', 'GET', `${NS}/venues`, { as: 'editor' });
      assert.equal(res.status, 500);
      const bearer = await call('server error (bearer)', 'GET', `${NS}/venues`, { headers: { authorization: `Bearer ${t.users.administrator.password}` } });
      assert.equal(bearer.status, 500);
      assert.ok(logs.some((line) => line.includes('"level":50')), 'the error is logged');
    });

    test('no response and no log line contains a secret, other than the response that handed it out', async () => {
      const all = await secrets();
      assert.ok(logs.length > 10, 'the app logged the requests');
      for (const secret of all) {
        for (const line of logs) assert.ok(!line.includes(secret), `a log line contains a secret: ${line.slice(0, 300)}`);
        for (const { what, res } of responses) {
          if (handedOut.get(secret) === what) continue;
          assert.ok(!res.text.includes(secret), `the response to "${what}" contains a secret`);
          assert.ok(!JSON.stringify(res.headers).includes(secret), `the headers of "${what}" contain a secret`);
        }
      }
    });
  });
}
