import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, type TestApp } from '../../helpers/test-app.ts';
import { adminGet, createSigninUser, form, signIn, startAdminApp, type AdminSession, type SigninUser } from '../helpers.ts';

for (const dialect of DIALECTS) {
  describe(`REST cookie authentication, 100 §6.2 (${dialect})`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let editor: SigninUser;
    let session: AdminSession;
    let draft: number;
    before(async () => {
      t = await startAdminApp(dialect, { env: { CALENDAR_NAMESPACE_ALIASES: 'tribe/events/v1' } });
      editor = await createSigninUser(t, 'editor');
      session = await signIn(t, editor);
      const created = await t.request('POST', `${NS}/events`, { as: 'administrator', body: { title: 'Draft', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00', status: 'draft' } });
      assert.equal(created.status, 201);
      draft = created.body.id;
    });
    after(() => t?.close());

    it('a cookie without a nonce is a visitor', async () => {
      const answer = await t.request('GET', `${NS}/events/${draft}`, { headers: { cookie: session.cookie } });
      assert.notEqual(answer.status, 200);
      assert.equal(answer.headers['x-wp-nonce'], undefined);
    });

    it('cookie + X-WP-Nonce is the user, on every namespace, alias and edition, with private answers', async () => {
      for (const path of [`${NS}/events/${draft}`, `/da${NS}/events/${draft}`, `/tribe/events/v1/events/${draft}`]) {
        const answer = await t.request('GET', path, { headers: { cookie: session.cookie, 'x-wp-nonce': session.token } });
        assert.equal(answer.status, 200, path);
        assert.equal(answer.headers['x-wp-nonce'], session.token);
        assert.equal(answer.headers['cache-control'], 'private, no-store');
      }
      const byParam = await t.request('GET', `${NS}/events/${draft}?_wpnonce=${encodeURIComponent(session.token)}`, { headers: { cookie: session.cookie } });
      assert.equal(byParam.status, 200);
      // The admin namespace answers the user too (an editor may not list users: 403, not 401).
      const users = await t.request('GET', '/calendar/admin/v1/users', { headers: { cookie: session.cookie, 'x-wp-nonce': session.token } });
      assert.equal(users.status, 403);
    });

    it('writes work with cookie + nonce for every method', async () => {
      const updated = await t.request('POST', `${NS}/events/${draft}`, { body: { title: 'Renamed' }, headers: { cookie: session.cookie, 'x-wp-nonce': session.token } });
      assert.equal(updated.status, 200);
      assert.equal(updated.body.title, 'Renamed');
    });

    it('a wrong nonce, or a nonce without a live cookie, is 403 rest_cookie_invalid_nonce', async () => {
      const wrong = await t.request('GET', `${NS}/events`, { headers: { cookie: session.cookie, 'x-wp-nonce': 'x'.repeat(43) } });
      assert.equal(wrong.status, 403);
      assert.equal(wrong.body.code, 'rest_cookie_invalid_nonce');
      assert.equal(wrong.body.message, 'Cookie check failed');
      const noCookie = await t.request('GET', `${NS}/events`, { headers: { 'x-wp-nonce': session.token } });
      assert.equal(noCookie.body.code, 'rest_cookie_invalid_nonce');
      const other = await signIn(t, editor);
      assert.equal((await form(t, other, '/logout', {})).status, 303);
      const dead = await t.request('GET', `${NS}/events`, { headers: { cookie: other.cookie, 'x-wp-nonce': other.token } });
      assert.equal(dead.status, 403);
      assert.equal(dead.body.code, 'rest_cookie_invalid_nonce');
    });

    it('the Authorization header decides when present', async () => {
      const answer = await t.request('GET', `${NS}/events/${draft}`, { as: 'subscriber', headers: { cookie: session.cookie, 'x-wp-nonce': 'wrong' } });
      assert.notEqual(answer.status, 200);
      assert.notEqual(answer.body.code, 'rest_cookie_invalid_nonce');
    });

    it('CORS answers never allow credentials', async () => {
      const answer = await t.request('GET', `${NS}/events`, { headers: { origin: 'https://other.example' } });
      assert.equal(answer.headers['access-control-allow-credentials'], undefined);
    });

    it('every back office page carries the nonce for scripts', async () => {
      const page = await adminGet(t, session, '/');
      assert.match(page.text, new RegExp(`<meta name="calendar-rest-nonce" content="${session.token}"`));
    });
  });
}

describe('REST cookie requests and the replay of visitors\' answers (over HTTP)', () => {
  let t: TestApp;
  let session: AdminSession;
  before(async () => {
    t = await startAdminApp('sqlite', { overHttp: true });
    session = await signIn(t, await createSigninUser(t, 'editor'));
  });
  after(() => t?.close());

  it('a cookie + nonce request is never answered from a visitor\'s recording', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await t.request('GET', `${NS}/events`)).status, 200);
    const answer = await t.request('GET', `${NS}/events`, { headers: { cookie: session.cookie, 'x-wp-nonce': session.token } });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['x-wp-nonce'], session.token);
    assert.equal(answer.headers['cache-control'], 'private, no-store');
  });

  it('a user\'s `_wpnonce` answer is never replayed to a visitor', async () => {
    const url = `${NS}/events?_wpnonce=${encodeURIComponent(session.token)}`;
    for (let i = 0; i < 2; i++) assert.equal((await t.request('GET', url, { headers: { cookie: session.cookie } })).status, 200);
    const visitor = await t.request('GET', url);
    assert.equal(visitor.status, 403);
    assert.equal(visitor.body.code, 'rest_cookie_invalid_nonce');
  });
});
