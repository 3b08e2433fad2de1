import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compilePath, registeredPages } from '../../../src/http/admin/router.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import type { TestApp } from '../../helpers/test-app.ts';
import { assertUnchanged, snapshotDatabase } from '../../reliability/db-snapshot.ts';
import { adminGet, createSigninUser, form, ORIGIN, signIn, startAdminApp, urlencoded, type AdminSession } from '../helpers.ts';

const HEADERS: Record<string, string | RegExp> = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'self'; img-src 'self' https: data:; script-src 'self'; style-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-robots-tag': 'noindex',
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
};

/** A concrete address of a page path: each parameter gets a value its pattern takes. */
function concrete(path: string): string {
  return path.replace(/:(\w+)(\((?:[^()]|\([^()]*\))*\))?/g, (_whole, _name, pattern?: string) => {
    const regex = pattern ? new RegExp(`^(?:${pattern.slice(1, -1).replace(/^\^/, '').replace(/\$$/, '')})$`) : /^[^/]+$/;
    return ['1', 'x', 'a'.repeat(43)].find((value) => regex.test(value)) ?? '1';
  });
}

function assertAdminHeaders(answer: { headers: Record<string, unknown> }, what: string): void {
  for (const [name, value] of Object.entries(HEADERS)) assert.equal(answer.headers[name], value, `${what}: ${name}`);
}

for (const dialect of DIALECTS) {
  describe(`request protection of every back office POST (100 §6.1; ${dialect})`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let session: AdminSession;
    let posts: string[];
    before(async () => {
      t = await startAdminApp(dialect);
      session = await signIn(t, await createSigninUser(t, 'administrator'));
      posts = registeredPages(t.app).pages.filter((page) => page.post).map((page) => concrete(page.path));
      assert.ok(posts.includes('/logout'));
    });
    after(() => t?.close());

    it('refuses a missing or wrong _token, a foreign or null Origin, and no Origin with a foreign or missing Referer: 403, nothing written', async () => {
      const before = await snapshotDatabase(t.storage);
      for (const path of posts) {
        const cases: [string, Parameters<typeof form>[4], string][] = [
          ['no _token', { token: null }, 'admin_token_invalid'],
          ['wrong _token', { token: 'A'.repeat(43) }, 'admin_token_invalid'],
          ['foreign Origin', { origin: 'https://evil.example' }, 'admin_origin_mismatch'],
          ['Origin: null', { origin: 'null' }, 'admin_origin_mismatch'],
          ['no Origin, foreign Referer', { origin: null, referer: 'https://evil.example/admin/' }, 'admin_origin_mismatch'],
          ['no Origin, no Referer', { origin: null }, 'admin_origin_mismatch'],
        ];
        for (const [what, options, code] of cases) {
          const answer = await form(t, session, path, { action: 'delete', confirm_delete: '1', bulk_action: 'delete', 'ids[]': ['1'] }, options);
          assert.equal(answer.status, 403, `${path}: ${what}`);
          assert.equal(answer.headers['x-calendar-error'], code, `${path}: ${what}`);
          assertAdminHeaders(answer, `${path}: ${what}`);
        }
        const sameReferer = await form(t, session, path, {}, { origin: null, referer: `${ORIGIN}/admin/`, token: null });
        assert.equal(sameReferer.headers['x-calendar-error'], 'admin_token_invalid', `${path}: a same-origin Referer passes step 1`);
      }
      assertUnchanged(before, await snapshotDatabase(t.storage), 'refused posts');
      assert.equal((await adminGet(t, session, '/')).status, 200, 'the session is still live');
    });

    it('multipart posts refuse before the file is read when _token is not the first part', async () => {
      const multipart = registeredPages(t.app).pages.filter((page) => page.post && page.multipart);
      for (const page of multipart) {
        const boundary = 'xyz';
        const body = [`--${boundary}`, 'Content-Disposition: form-data; name="file"; filename="a.ics"', 'Content-Type: text/calendar', '', 'BEGIN:VCALENDAR', `--${boundary}`, 'Content-Disposition: form-data; name="_token"', '', session.token, `--${boundary}--`, ''].join('\r\n');
        const answer = await t.request('POST', session.prefix + concrete(page.path), { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, origin: ORIGIN, cookie: session.cookie } });
        assert.equal(answer.status, 403, page.path);
        assert.equal(answer.headers['x-calendar-error'], 'admin_token_invalid');
      }
    });

    it('a post without a session is sent to sign in (expired), nothing written', async () => {
      for (const path of posts) {
        const answer = await t.request('POST', session.prefix + path, { body: urlencoded({ _token: session.token }), headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN } });
        assert.equal(answer.status, 303, path);
        assert.match(String(answer.headers.location), /^\/admin\/login\?expired=1&redirect_to=/);
        assertAdminHeaders(answer, path);
      }
    });

    it('a body over the limit is a 413 page', async () => {
      const answer = await form(t, session, '/logout', { filler: 'x'.repeat(t.config.bodyLimit + 10) });
      assert.equal(answer.status, 413);
      assert.equal(answer.headers['x-calendar-error'], 'rest_request_too_large');
      assertAdminHeaders(answer, '413');
    });

    it('every GET of every page, and the error pages, carry the §12 headers; errors carry X-Calendar-Error', async () => {
      for (const page of registeredPages(t.app).pages.filter((p) => p.get)) {
        const answer = await adminGet(t, session, concrete(page.path));
        assertAdminHeaders(answer, page.path);
        if (answer.status >= 400) assert.ok(answer.headers['x-calendar-error'], `${page.path}: ${answer.status}`);
      }
      for (const path of ['/login', '/invite/' + 'a'.repeat(43), '/no-such-page/']) {
        const answer = await adminGet(t, session, path);
        assertAdminHeaders(answer, path);
        if (answer.status >= 400) assert.ok(answer.headers['x-calendar-error'], path);
      }
      const head = await t.request('HEAD', '/admin/', { headers: { cookie: session.cookie } });
      assert.equal(head.status, 200);
      assertAdminHeaders(head, 'HEAD');
      const patch = await t.request('PATCH', '/admin/', { headers: { cookie: session.cookie } });
      assert.equal(patch.headers['x-calendar-error'], 'admin_method_not_allowed');
    });

    it('pages a role may not open are 403 rest_forbidden; a subscriber has the dashboard', async () => {
      const subscriber = await signIn(t, await createSigninUser(t, 'subscriber'));
      assert.equal((await adminGet(t, subscriber, '/')).status, 200);
      for (const page of registeredPages(t.app).pages.filter((p) => p.get && p.access !== 'signed-in' && p.access !== 'read')) {
        const answer = await adminGet(t, subscriber, concrete(page.path));
        assert.equal(answer.status, 403, page.path);
        assert.equal(answer.headers['x-calendar-error'], 'rest_forbidden');
      }
    });

    it('editions keep their prefix; redirect_to is honoured only below the edition\'s /admin/', async () => {
      const answer = await t.request('GET', '/da/admin/events/');
      assert.equal(answer.headers.location, `/da/admin/login?redirect_to=${encodeURIComponent('/da/admin/events/')}`);
      assert.match((await t.request('GET', '/da/admin/login')).text, /<html lang="da">/);
      assert.ok(compilePath('/events/:id(^\\d+)/').test('/events/12/'));
    });
  });
}

describe('CALENDAR_BACK_OFFICE=off', () => {
  it('answers 404 under /admin/ and ignores cookie + nonce on the REST API', async () => {
    const t = await startAdminApp('sqlite', { env: { CALENDAR_BACK_OFFICE: 'off' } });
    try {
      assert.equal((await t.request('GET', '/admin/login')).status, 404);
      const api = await t.request('GET', '/calendar/events/v1/events', { headers: { cookie: `cal_session=${'a'.repeat(43)}`, 'x-wp-nonce': 'x' } });
      assert.equal(api.status, 200);
    } finally {
      await t.close();
    }
  });
});
