import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import type { TestApp, TestResponse } from '../../helpers/test-app.ts';
import { adminGet, createSigninUser, form, ORIGIN, signIn, startAdminApp, type AdminSession, type SigninUser } from '../helpers.ts';

const ADMIN = '/calendar/admin/v1';

/** The one secret shown in a 201 page. */
function shownSecret(page: TestResponse): string {
  const match = /<code class="secret">([^<]+)<\/code>/.exec(page.text);
  assert.ok(match, 'no secret on the page');
  return match[1].replaceAll('&amp;', '&');
}

function multipart(token: string, fields: [string, string][], file?: { name: string; type: string; content: string }): { body: string; type: string } {
  const boundary = '----records-test-boundary';
  const parts = [['_token', token] as [string, string], ...fields].map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  if (file) parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n${file.content}\r\n`);
  return { body: `${parts.join('')}--${boundary}--\r\n`, type: `multipart/form-data; boundary=${boundary}` };
}

const ICS = [
  'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//records//EN',
  'BEGIN:VEVENT', 'UID:records-1@test', 'DTSTAMP:20300101T000000Z', 'DTSTART:20300601T180000Z', 'DTEND:20300601T200000Z', 'SUMMARY:Imported concert', 'END:VEVENT',
  'END:VCALENDAR', '',
].join('\r\n');

for (const dialect of DIALECTS) {
  describe(`users, profile, webhooks and imports pages drive the admin API (100 §10) [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let adminUser: SigninUser;
    let admin: AdminSession;
    before(async () => {
      t = await startAdminApp(dialect, { env: { CALENDAR_WEBHOOKS_ALLOW_INSECURE: '1' } });
      adminUser = await createSigninUser(t, 'administrator');
      admin = await signIn(t, adminUser);
    });
    after(() => t.close());

    test('/me credential routes answer a session cookie + nonce only; an application password gets 403', async () => {
      const basic = await t.request('GET', `${ADMIN}/me/application-passwords`, { as: 'administrator' });
      assert.deepEqual([basic.status, basic.body.code], [403, 'rest_cookie_auth_required']);
      const minted = await t.request('POST', `${ADMIN}/me/application-passwords`, { as: 'editor', body: { name: 'x' } });
      assert.equal(minted.status, 403);
      const headers = { cookie: admin.cookie, 'x-wp-nonce': admin.token };
      const listed = await t.request('GET', `${ADMIN}/me/sessions`, { headers });
      assert.equal(listed.status, 200);
      assert.equal(listed.body.filter((session: any) => session.current).length, 1);
      assert.deepEqual(Object.keys(listed.body[0]).sort(), ['created', 'current', 'expires', 'id', 'ip', 'last_seen', 'remember', 'user_agent']);
      const made = await t.request('POST', `${ADMIN}/me/application-passwords`, { headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'script' }) });
      assert.equal(made.status, 201);
      const mine = await t.request('GET', `${ADMIN}/me/application-passwords`, { headers });
      assert.ok(mine.body.some((item: any) => item.name === 'script'));
      assert.ok(!mine.text.includes(made.body.application_password));
      const second = await signIn(t, adminUser);
      const revoked = await t.request('DELETE', `${ADMIN}/me/sessions`, { headers });
      assert.deepEqual(revoked.body, { revoked: 1 });
      assert.equal((await adminGet(t, second, '/')).status, 303);
      assert.equal((await adminGet(t, admin, '/')).status, 200);
    });

    test('admin API: sessions of a user, sign-in link (reset ends the sessions), invite on POST /users', async () => {
      const editor = await createSigninUser(t, 'editor');
      await signIn(t, editor);
      const sessions = await t.request('GET', `${ADMIN}/users/${editor.id}/sessions`, { as: 'administrator' });
      assert.equal(sessions.body.length, 1);
      const one = await t.request('DELETE', `${ADMIN}/users/${editor.id}/sessions/${sessions.body[0].id}`, { as: 'administrator' });
      assert.deepEqual(one.body, { revoked: 1 });
      assert.equal((await t.request('DELETE', `${ADMIN}/users/${editor.id}/sessions/${sessions.body[0].id}`, { as: 'administrator' })).status, 404);
      await signIn(t, editor);
      const link = await t.request('POST', `${ADMIN}/users/${editor.id}/sign-in-link`, { as: 'administrator', body: { reset: true } });
      assert.equal(link.status, 201);
      assert.match(link.body.url, /^http:\/\/calendar\.test\/admin\/invite\/[\w-]+$/);
      assert.deepEqual((await t.request('GET', `${ADMIN}/users/${editor.id}/sessions`, { as: 'administrator' })).body, []);
      const invited = await t.request('POST', `${ADMIN}/users`, { as: 'administrator', body: { login: 'invited-api', role: 'author', application_password: false, invite: true } });
      assert.equal(invited.status, 201);
      assert.equal(invited.body.application_password, undefined);
      const page = await t.request('GET', new URL(invited.body.invitation_url).pathname);
      assert.equal(page.status, 200);
    });

    test('users pages: invite once, save, app passwords shown once, reset, delete with confirmation; secrets in no URL or later page', async () => {
      const list = await adminGet(t, admin, '/users/');
      assert.equal(list.status, 200);
      assert.match(list.text, new RegExp(adminUser.login));
      const created = await form(t, admin, '/users/new', { login: 'newcomer', email: 'new@example.test', role: 'editor', action: 'create' });
      assert.equal(created.status, 201);
      assert.match(String(created.headers['cache-control']), /no-store/);
      const link = shownSecret(created);
      assert.match(link, /\/admin\/invite\//);
      const id = (await t.request('GET', `${ADMIN}/users`, { as: 'administrator' })).body.find((user: any) => user.login === 'newcomer').id;
      const duplicate = await form(t, admin, '/users/new', { login: 'newcomer', email: '', role: 'editor', action: 'create' });
      assert.equal(duplicate.status, 422);
      assert.match(duplicate.text, /value="newcomer"/);

      const saved = await form(t, admin, `/users/${id}/`, { action: 'save', role: 'author', email: 'changed@example.test' });
      assert.equal(saved.status, 303);
      assert.equal((await t.request('GET', `${ADMIN}/users/${id}`, { as: 'administrator' })).body.role, 'author');
      const badEmail = await form(t, admin, `/users/${id}/`, { action: 'save', role: 'author', email: 'nope' });
      assert.equal(badEmail.status, 422);
      assert.match(badEmail.text, /href="#field-email"/);

      const password = await form(t, admin, `/users/${id}/`, { action: 'new_app_password', app_password_name: 'Feed reader' });
      assert.equal(password.status, 201);
      const secret = shownSecret(password);
      const detail = await adminGet(t, admin, `/users/${id}/`);
      assert.match(detail.text, /Feed reader/);
      const pid = /name="app_password_id" value="(\d+)"/.exec(detail.text)![1];
      const revoked = await form(t, admin, `/users/${id}/`, { action: 'revoke_app_password', app_password_id: pid });
      assert.equal(revoked.status, 303);
      const reset = await form(t, admin, `/users/${id}/`, { action: 'reset_signin' });
      assert.equal(reset.status, 201);
      const resetLink = shownSecret(reset);
      assert.notEqual(resetLink, link);

      const unconfirmed = await form(t, admin, `/users/${id}/`, { action: 'delete' });
      assert.equal(unconfirmed.status, 422);
      for (const page of [list, detail, saved, revoked, await adminGet(t, admin, '/users/'), await adminGet(t, admin, `/users/${id}/`)]) {
        for (const value of [secret, link, resetLink]) {
          assert.ok(!page.text.includes(value), 'a secret in a later page');
          assert.ok(!String(page.headers.location ?? '').includes(value), 'a secret in an address');
        }
      }
      const deleted = await form(t, admin, `/users/${id}/`, { action: 'delete', confirm_delete: '1' });
      assert.equal(deleted.status, 303);
      assert.match(String(deleted.headers.location), /\/admin\/users\/\?message=rec_user_deleted$/);
    });

    test('the last administrator cannot lose the role or be deleted (422); other roles may not open the users pages', async () => {
      for (const other of [t.others.administrator, t.users.administrator]) {
        const demoted = await t.request('PATCH', `${ADMIN}/users/${other.id}`, { as: 'administrator', body: { role: 'editor' } });
        assert.equal(demoted.status, 200);
      }
      const demote = await form(t, admin, `/users/${adminUser.id}/`, { action: 'save', role: 'editor', email: adminUser.email });
      assert.equal(demote.status, 422);
      assert.equal(demote.headers['x-calendar-error'], 'rest_cannot_demote_last_admin');
      const remove = await form(t, admin, `/users/${adminUser.id}/`, { action: 'delete', confirm_delete: '1' });
      assert.equal(remove.status, 422);
      assert.equal(remove.headers['x-calendar-error'], 'rest_cannot_delete_last_admin');
      const editor = await signIn(t, await createSigninUser(t, 'editor'));
      assert.equal((await adminGet(t, editor, '/users/')).status, 403);
      assert.equal((await adminGet(t, editor, '/webhooks/')).status, 403);
      assert.equal((await adminGet(t, editor, '/profile/')).status, 200);
    });

    test('profile: own app passwords once, sessions, a wrong current password is 422 and counted; a change ends the other sessions', async () => {
      const user = await createSigninUser(t, 'author');
      const session = await signIn(t, user);
      const elsewhere = await signIn(t, user);
      const made = await form(t, session, '/profile/', { action: 'new_app_password', app_password_name: 'Laptop' });
      assert.equal(made.status, 201);
      const secret = shownSecret(made);
      const profile = await adminGet(t, session, '/profile/');
      assert.match(profile.text, /Laptop/);
      assert.match(profile.text, /This session/);
      assert.ok(!profile.text.includes(secret));
      const wrong = await form(t, session, '/profile/', { action: 'change_password', current_password: 'not it', new_password: 'a brand new passphrase 42', new_password_confirm: 'a brand new passphrase 42' });
      assert.equal(wrong.status, 422);
      assert.equal(wrong.headers['x-calendar-error'], 'admin_signin_failed');
      assert.match(wrong.text, /href="#field-current_password"/);
      const changed = await form(t, session, '/profile/', { action: 'change_password', current_password: user.password, new_password: 'a brand new passphrase 42', new_password_confirm: 'a brand new passphrase 42' });
      assert.equal(changed.status, 303);
      assert.match(String(changed.headers['set-cookie']), /cal_session=/);
      assert.equal((await adminGet(t, elsewhere, '/')).status, 303);
      const rotated = { ...session, cookie: /cal_session=[^;]+/.exec(String(changed.headers['set-cookie']))![0] };
      assert.equal((await adminGet(t, rotated, '/profile/')).status, 200);
      const again = await signIn(t, { login: user.login, password: 'a brand new passphrase 42' });
      const other = await form(t, again, '/profile/', { action: 'revoke_other_sessions' });
      assert.equal(other.status, 303);
      assert.equal((await adminGet(t, rotated, '/')).status, 303);
    });

    test('webhooks pages: create shows the secret once, save, rotate (201), ping, deliveries, delete', async () => {
      const created = await form(t, admin, '/webhooks/new', { url: 'http://127.0.0.1:9/hook', description: 'Test hook', types: 'event.*\n*.delete', visibility: 'public', active: '1', action: 'create' });
      assert.equal(created.status, 201);
      const secret = shownSecret(created);
      const id = (await t.request('GET', `${ADMIN}/webhooks`, { headers: { cookie: admin.cookie, 'x-wp-nonce': admin.token } })).body[0].id;
      const page = await adminGet(t, admin, `/webhooks/${id}/`);
      assert.equal(page.status, 200);
      assert.ok(!page.text.includes(secret));
      assert.match(page.text, /event\.\*\n\*\.delete/);
      const refused = await form(t, admin, '/webhooks/new', { url: 'not a url', types: '*', visibility: 'public', action: 'create' });
      assert.equal(refused.status, 422);
      assert.match(refused.text, /href="#field-url"/);
      const saved = await form(t, admin, `/webhooks/${id}/`, { action: 'save', url: 'http://127.0.0.1:9/hook2', types: '*', visibility: 'full', description: '' });
      assert.equal(saved.status, 303);
      const stored = (await t.request('GET', `${ADMIN}/webhooks/${id}`, { headers: { cookie: admin.cookie, 'x-wp-nonce': admin.token } })).body;
      assert.deepEqual([stored.url, stored.types, stored.visibility, stored.active], ['http://127.0.0.1:9/hook2', ['*'], 'full', false]);
      const rotated = await form(t, admin, `/webhooks/${id}/`, { action: 'rotate_secret' });
      assert.equal(rotated.status, 201);
      assert.notEqual(shownSecret(rotated), secret);
      assert.equal((await form(t, admin, `/webhooks/${id}/`, { action: 'ping' })).status, 303);
      assert.equal((await adminGet(t, admin, `/webhooks/${id}/?status=failed`)).status, 200);
      const deliveries = await adminGet(t, admin, `/webhooks/${id}/`);
      const messageId = /name="message_id" value="(\d+)"/.exec(deliveries.text)?.[1];
      assert.ok(messageId, 'the ping is listed');
      // A delivery still pending is refused by the API (409), as a page with its code; a finished one is queued again.
      const redeliver = await form(t, admin, `/webhooks/${id}/`, { action: 'redeliver', message_id: messageId! });
      assert.ok(redeliver.status === 303 || (redeliver.status === 409 && redeliver.headers['x-calendar-error'] !== undefined), String(redeliver.status));
      assert.equal((await form(t, admin, `/webhooks/${id}/`, { action: 'delete' })).status, 303);
      assert.equal((await adminGet(t, admin, `/webhooks/${id}/`)).status, 404);
    });

    test('imports page: multipart iCalendar import (dry run, then for real), a parse error as a page, CSV export links with the nonce', async () => {
      const page = await adminGet(t, admin, '/imports/');
      assert.equal(page.status, 200);
      assert.match(page.text, new RegExp(`/calendar/admin/v1/exports/events\\.csv\\?_wpnonce=${admin.token}`));
      const post = (fields: [string, string][], file?: { name: string; type: string; content: string }) => {
        const { body, type } = multipart(admin.token, fields, file);
        return t.request('POST', `${admin.prefix}/imports/`, { body, headers: { 'content-type': type, cookie: admin.cookie, origin: ORIGIN } });
      };
      const dry = await post([['dry_run', '1'], ['status', 'draft']], { name: 'events.ics', type: 'text/calendar', content: ICS });
      assert.equal(dry.status, 200);
      assert.match(dry.text, /Dry run: nothing was written/);
      assert.match(dry.text, /Imported concert/);
      const real = await post([['status', 'draft']], { name: 'events.ics', type: 'text/calendar', content: ICS });
      assert.equal(real.status, 200);
      assert.match(real.text, /href="\/admin\/events\/\d+\/"/);
      const broken = await post([], { name: 'broken.ics', type: 'text/calendar', content: 'BEGIN:VCALENDAR\r\nthis is not\r\n' });
      assert.equal(broken.status, 400);
      assert.equal(broken.headers['x-calendar-error'], 'ical-parse-error');
      const csv = await post([['kind', 'venues'], ['dry_run', '1']], { name: 'venues.csv', type: 'text/csv', content: 'Venue Name,City\nHall,Aarhus\n' });
      assert.equal(csv.status, 200);
      const nothing = await post([]);
      assert.equal(nothing.status, 400);
      const exported = await t.request('GET', `${ADMIN}/exports/venues.csv?_wpnonce=${admin.token}`, { headers: { cookie: admin.cookie } });
      assert.equal(exported.status, 200);
    });
  });
}
