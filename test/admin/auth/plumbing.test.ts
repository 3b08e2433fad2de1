import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import type { TestApp } from '../../helpers/test-app.ts';
import { adminGet, createSigninUser, form, postLogin, setCookies, signIn, startAdminApp, type SigninUser } from '../helpers.ts';

const ADMIN_HEADERS = {
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'x-robots-tag': 'noindex',
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
};

for (const dialect of DIALECTS) {
  describe(`back office plumbing (${dialect})`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let editor: SigninUser;
    before(async () => {
      t = await startAdminApp(dialect);
      editor = await createSigninUser(t, 'editor');
    });
    after(() => t?.close());

    it('sends a visitor to the sign-in page, keeping where they were going', async () => {
      const answer = await t.request('GET', '/admin/events/?when=past');
      assert.equal(answer.status, 303);
      assert.equal(answer.headers.location, `/admin/login?redirect_to=${encodeURIComponent('/admin/events/?when=past')}`);
      for (const [name, value] of Object.entries(ADMIN_HEADERS)) assert.equal(answer.headers[name], value, name);
    });

    it('signs in, shows the dashboard in the frame, and signs out', async () => {
      const session = await signIn(t, editor);
      const page = await adminGet(t, session, '/');
      assert.equal(page.status, 200);
      assert.match(page.text, /<h1>Dashboard<\/h1>/);
      assert.match(page.text, /<nav aria-label="Back office"/);
      assert.match(page.headers['content-security-policy'] as string, /frame-ancestors 'none'/);
      const out = await form(t, session, '/logout', {});
      assert.equal(out.status, 303);
      assert.equal(out.headers.location, '/admin/login?signed_out=1');
      const again = await adminGet(t, session, '/');
      assert.equal(again.status, 303);
    });

    it('refuses a wrong password with one message', async () => {
      const answer = await postLogin(t, { login: editor.login, password: 'not the password at all' });
      assert.equal(answer.status, 422);
      assert.equal(answer.headers['x-calendar-error'], 'admin_signin_failed');
      assert.equal(setCookies(answer.headers).cal_session, undefined);
    });

    it('refuses a post without the token and one from another origin', async () => {
      const session = await signIn(t, editor);
      const missing = await form(t, session, '/logout', {}, { token: null });
      assert.equal(missing.status, 403);
      assert.equal(missing.headers['x-calendar-error'], 'admin_token_invalid');
      const foreign = await form(t, session, '/logout', {}, { origin: 'https://evil.test' });
      assert.equal(foreign.status, 403);
      assert.equal(foreign.headers['x-calendar-error'], 'admin_origin_mismatch');
      assert.equal((await adminGet(t, session, '/')).status, 200);
    });

    it('answers 404 and 405 pages, and the slash rules', async () => {
      const session = await signIn(t, editor);
      const missing = await adminGet(t, session, '/nothing-here/');
      assert.equal(missing.status, 404);
      assert.equal(missing.headers['x-calendar-error'], 'admin_not_found');
      const put = await t.request('PUT', '/admin/', { headers: { cookie: session.cookie } });
      assert.equal(put.status, 405);
      assert.equal(put.headers.allow, 'GET, HEAD');
      assert.equal((await t.request('GET', '/admin?x=1')).headers.location, '/admin/?x=1');
      assert.equal((await t.request('GET', '/admin/login/')).headers.location, '/admin/login');
    });
  });
}
