import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';

const ME = '/calendar/admin/v1/me';
const basic = (login: string, secret: string) => `Basic ${Buffer.from(`${login}:${secret}`).toString('base64')}`;

describe('abuse protection [sqlite]', () => {
  describe('failed authentication is throttled per address and per login', () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp('sqlite', { env: { CALENDAR_AUTH_FAILURE_LIMIT: '3' } });
    });
    after(() => t.close());

    test('after the limit from one address: 429 with Retry-After, JSON, even for good credentials', async () => {
      for (let i = 0; i < 3; i++) {
        const res = await t.request('GET', ME, { headers: { authorization: basic('editor', 'wrong') }, remoteAddress: '10.0.0.1' });
        assert.equal(res.status, 401);
      }
      const blocked = await t.request('GET', ME, { headers: { authorization: basic('author', t.users.author.password) }, remoteAddress: '10.0.0.1' });
      assert.equal(blocked.status, 429);
      assert.equal(blocked.body.code, 'rest_too_many_requests');
      assert.equal(blocked.body.data.status, 429);
      assert.ok(Number(blocked.headers['retry-after']) > 0);
    });

    test('the guessed login is throttled from other addresses too; other logins are not', async () => {
      const sameLogin = await t.request('GET', ME, { headers: { authorization: basic('editor', t.users.editor.password) }, remoteAddress: '10.0.0.2' });
      assert.equal(sameLogin.status, 429);
      const otherLogin = await t.request('GET', ME, { headers: { authorization: basic('subscriber', t.users.subscriber.password) }, remoteAddress: '10.0.0.2' });
      assert.equal(otherLogin.status, 200);
    });

    test('requests without credentials are never throttled by it', async () => {
      const res = await t.request('GET', NS, { remoteAddress: '10.0.0.1' });
      assert.equal(res.status, 200);
    });
  });

  describe('the per-client request rate, off by default, on with CALENDAR_RATE_LIMIT', () => {
    let limited: TestApp;
    let open: TestApp;
    before(async () => {
      limited = await startTestApp('sqlite', { env: { CALENDAR_RATE_LIMIT: '5' } });
      open = await startTestApp('sqlite');
    });
    after(async () => {
      await limited.close();
      await open.close();
    });

    test('the request over the limit is 429 JSON with Retry-After', async () => {
      for (let i = 0; i < 5; i++) assert.equal((await limited.request('GET', NS)).status, 200);
      const res = await limited.request('GET', NS);
      assert.equal(res.status, 429);
      assert.equal(res.body.code, 'rest_too_many_requests');
      assert.ok(res.headers['retry-after']);
    });

    test('without the variable there is no limit', async () => {
      for (let i = 0; i < 30; i++) assert.equal((await open.request('GET', NS)).status, 200);
    });
  });

  describe('CORS and security headers', () => {
    let reflecting: TestApp;
    let restricted: TestApp;
    before(async () => {
      reflecting = await startTestApp('sqlite');
      restricted = await startTestApp('sqlite', { env: { CALENDAR_CORS_ORIGINS: 'https://app.example.org' } });
    });
    after(async () => {
      await reflecting.close();
      await restricted.close();
    });

    test('by default the request origin is allowed and the totals are exposed', async () => {
      const res = await reflecting.request('GET', NS, { headers: { origin: 'https://any.example' } });
      assert.equal(res.headers['access-control-allow-origin'], 'https://any.example');
      // 100 §6.2: never credentialed (the back office's cookie must not work from other sites).
      assert.equal(res.headers['access-control-allow-credentials'], undefined);
      assert.match(String(res.headers['access-control-expose-headers']), /X-TEC-Total, X-TEC-TotalPages/);
    });

    test('a configured list allows only its origins', async () => {
      const allowed = await restricted.request('GET', NS, { headers: { origin: 'https://app.example.org' } });
      assert.equal(allowed.headers['access-control-allow-origin'], 'https://app.example.org');
      const other = await restricted.request('GET', NS, { headers: { origin: 'https://evil.example' } });
      assert.equal(other.headers['access-control-allow-origin'], undefined);
    });

    test('a preflight is answered with the allowed methods and headers', async () => {
      const res = await reflecting.request('OPTIONS', `${NS}/events`, { headers: { origin: 'https://any.example', 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'authorization,content-type' } });
      assert.ok(res.status === 204 || res.status === 200);
      assert.match(String(res.headers['access-control-allow-methods']), /PATCH/);
      assert.match(String(res.headers['access-control-allow-headers']), /Authorization/);
    });

    test('JSON responses carry security headers', async () => {
      const res = await reflecting.request('GET', NS);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['x-frame-options'], 'DENY');
      assert.equal(res.headers['referrer-policy'], 'no-referrer');
      assert.equal(res.headers['content-security-policy'], "default-src 'none'; frame-ancestors 'none'");
    });
  });
});
