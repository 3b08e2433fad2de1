import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type Caller, type TestApp } from '../../helpers/test-app.ts';

const ADMIN = '/calendar/admin/v1';
const KEY = Buffer.alloc(32, 7).toString('base64');

for (const dialect of DIALECTS) {
  describe(`webhook administration [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let secure: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { env: { CALENDAR_WEBHOOKS_ALLOW_INSECURE: '1', CALENDAR_WEBHOOKS_MAX: '3', CALENDAR_SECRET_KEY: KEY } });
      secure = await startTestApp(dialect);
    });
    after(async () => {
      await t.close();
      await secure.close();
    });

    test('only administrators manage webhooks: 401 for visitors, 403 for every other role', async () => {
      const cases: Array<[Caller, number]> = [['visitor', 401], ['subscriber', 403], ['contributor', 403], ['author', 403], ['editor', 403]];
      for (const [as, status] of cases) {
        assert.equal((await t.request('GET', `${ADMIN}/webhooks`, { as })).status, status, as);
        const created = await t.request('POST', `${ADMIN}/webhooks`, { as, body: { url: 'http://127.0.0.1:9/hook' } });
        assert.equal(created.status, status, as);
        assert.equal(created.body.code, 'rest_forbidden');
      }
      assert.equal((await t.request('GET', `${ADMIN}/webhooks`, { as: 'administrator' })).status, 200);
    });

    test('the secret is shown at creation and rotation only, and stored encrypted', async () => {
      const created = await t.request('POST', `${ADMIN}/webhooks`, { as: 'administrator', body: { url: 'http://127.0.0.1:9/hook', types: ['event.*', '*.delete'], description: 'crm' } });
      assert.equal(created.status, 201);
      assert.match(created.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.equal(Buffer.from(created.body.secret.slice(6), 'base64').length, 32);
      assert.deepEqual(
        { types: created.body.types, visibility: created.body.visibility, active: created.body.active, description: created.body.description },
        { types: ['event.*', '*.delete'], visibility: 'public', active: true, description: 'crm' },
      );
      const one = await t.request('GET', `${ADMIN}/webhooks/${created.body.id}`, { as: 'administrator' });
      assert.equal(one.status, 200);
      assert.equal(one.body.secret, `whsec_…${created.body.secret.slice(-4)}`);
      assert.deepEqual(
        { last_success_at: one.body.last_success_at, last_failure_at: one.body.last_failure_at, consecutive_failures: one.body.consecutive_failures, disabled_reason: one.body.disabled_reason },
        { last_success_at: null, last_failure_at: null, consecutive_failures: 0, disabled_reason: null },
      );
      const list = await t.request('GET', `${ADMIN}/webhooks`, { as: 'administrator' });
      assert.ok(!list.text.includes(created.body.secret.slice(6, 30)));
      const stored = await t.storage.db.selectFrom('webhooks').select('secret').where('id', '=', created.body.id).executeTakeFirstOrThrow();
      assert.ok(stored.secret.startsWith('aesgcm:'));
      assert.ok(!stored.secret.includes(created.body.secret.slice(6)));

      const rotated = await t.request('POST', `${ADMIN}/webhooks/${created.body.id}/rotate-secret`, { as: 'administrator' });
      assert.equal(rotated.status, 200);
      assert.match(rotated.body.secret, /^whsec_/);
      assert.notEqual(rotated.body.secret, created.body.secret);
      await t.request('DELETE', `${ADMIN}/webhooks/${created.body.id}`, { as: 'administrator' });
    });

    test('PATCH changes the fields sent; DELETE removes; unknown ids are 404', async () => {
      const created = await t.request('POST', `${ADMIN}/webhooks`, { as: 'administrator', body: { url: 'http://127.0.0.1:9/a' } });
      const patched = await t.request('PATCH', `${ADMIN}/webhooks/${created.body.id}`, { as: 'administrator', body: { active: false, visibility: 'full', types: 'venue.*,tag.create' } });
      assert.equal(patched.status, 200);
      assert.deepEqual([patched.body.url, patched.body.active, patched.body.visibility, patched.body.types], ['http://127.0.0.1:9/a', false, 'full', ['venue.*', 'tag.create']]);
      const deleted = await t.request('DELETE', `${ADMIN}/webhooks/${created.body.id}`, { as: 'administrator' });
      assert.equal(deleted.status, 200);
      assert.equal(deleted.body.deleted, true);
      for (const [method, path] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['POST', '/ping'], ['POST', '/rotate-secret'], ['GET', '/deliveries']]) {
        const res = await t.request(method!, `${ADMIN}/webhooks/${created.body.id}${path}`, { as: 'administrator', body: method === 'PATCH' ? { active: true } : undefined });
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.equal(res.body.code, 'webhook_invalid_id');
      }
    });

    test('bad subscriptions are refused with a reason per field, nothing stored', async () => {
      const bad: Array<[Record<string, unknown>, string, string]> = [
        [{ url: 'not a url' }, 'url', 'rest_invalid_webhook_url'],
        [{ url: 'ftp://example.org/x' }, 'url', 'rest_invalid_webhook_url'],
        [{ url: 'https://user:pw@example.org/x' }, 'url', 'rest_invalid_webhook_url'],
        [{ url: `https://example.org/${'x'.repeat(2050)}` }, 'url', 'rest_invalid_webhook_url'],
        [{ url: 'http://127.0.0.1:9/x', types: ['event.explode'] }, 'types', 'rest_invalid_webhook_types'],
        [{ url: 'http://127.0.0.1:9/x', types: ['meeting.*'] }, 'types', 'rest_invalid_webhook_types'],
        [{ url: 'http://127.0.0.1:9/x', visibility: 'secret' }, 'visibility', 'rest_not_in_enum'],
      ];
      const before = await t.storage.db.selectFrom('webhooks').select('id').execute();
      for (const [body, param, code] of bad) {
        const res = await t.request('POST', `${ADMIN}/webhooks`, { as: 'administrator', body, headers: { 'accept-language': 'da' } });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.code, 'rest_invalid_param');
        assert.equal(res.body.data.details[param].code, code, JSON.stringify(res.body));
      }
      assert.equal((await t.storage.db.selectFrom('webhooks').select('id').execute()).length, before.length);
    });

    test('outside insecure mode: plain http and private or loopback targets are refused', async () => {
      for (const url of ['http://example.org/hook', 'https://127.0.0.1/hook', 'https://localhost/hook', 'https://[::1]/hook', 'https://10.1.2.3/hook', 'https://169.254.169.254/latest']) {
        const res = await secure.request('POST', `${ADMIN}/webhooks`, { as: 'administrator', body: { url } });
        assert.equal(res.status, 400, url);
        assert.ok(['rest_invalid_webhook_url', 'rest_webhook_private_address'].includes(res.body.data.details.url.code), url);
      }
      const loop = await secure.request('POST', `${ADMIN}/webhooks`, { as: 'administrator', body: { url: 'https://127.0.0.1/hook' } });
      assert.equal(loop.body.data.details.url.code, 'rest_webhook_private_address');
      assert.equal((await secure.storage.db.selectFrom('webhooks').select('id').execute()).length, 0);
    });

    test('at most CALENDAR_WEBHOOKS_MAX subscriptions', async () => {
      const existing = (await t.request('GET', `${ADMIN}/webhooks`, { as: 'administrator' })).body.length;
      for (let i = existing; i < 3; i++) assert.equal((await t.request('POST', `${ADMIN}/webhooks`, { as: 'administrator', body: { url: `http://127.0.0.1:9/${i}` } })).status, 201);
      const over = await t.request('POST', `${ADMIN}/webhooks`, { as: 'administrator', body: { url: 'http://127.0.0.1:9/over' } });
      assert.equal(over.status, 400);
      assert.equal(over.body.code, 'webhook_limit_reached');
      assert.match(over.body.message, /3/);
    });
  });
}
