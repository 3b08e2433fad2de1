import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { newToken, tokenHash } from '../../../src/domain/signin/tokens.ts';
import { hashSigninPassword } from '../../../src/services/signin/password-hash.ts';
import { SigninService } from '../../../src/services/signin/signin-service.ts';
import { builtInSubmitterId } from '../../../src/services/submissions/submission-key.ts';
import { SessionsRepository } from '../../../src/storage/repositories/sessions-repository.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import type { TestApp } from '../../helpers/test-app.ts';
import { adminGet, createSigninUser, form, postLogin, signIn, startAdminApp, TEST_HASH_COST, type AdminSession } from '../../admin/helpers.ts';

const ADMIN = '/calendar/admin/v1';

// 120 §7: the built-in user `submissions` is no person; one rule in the services refuses every way in.
for (const dialect of DIALECTS) {
  describe(`the built-in user submissions [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let id: number;
    let admin: AdminSession;
    before(async () => {
      t = await startAdminApp(dialect);
      id = await builtInSubmitterId(t.storage.db);
      admin = await signIn(t, await createSigninUser(t, 'administrator'));
    });
    after(() => t.close());

    const builtInRow = () => t.storage.db.selectFrom('users').select(['login', 'role', 'email']).where('id', '=', id).executeTakeFirstOrThrow();

    test('admin API: no role change, no e-mail, no deletion, no application password, no sign-in link (400 rest_user_builtin)', async () => {
      for (const [method, path, body] of [
        ['PATCH', `/users/${id}`, { role: 'editor' }],
        ['PATCH', `/users/${id}`, { email: 'someone@example.org' }],
        ['DELETE', `/users/${id}`, undefined],
        ['POST', `/users/${id}/application-passwords`, { name: 'script' }],
        ['POST', `/users/${id}/sign-in-link`, {}],
        ['POST', `/users/${id}/sign-in-link`, { reset: true }],
      ] as const) {
        const res = await t.request(method, ADMIN + path, { as: 'administrator', body });
        assert.deepEqual([res.status, res.body?.code], [400, 'rest_user_builtin'], `${method} ${path} ${JSON.stringify(body)}: ${res.text}`);
      }
      // Saving what it already is changes nothing and is no error (the users page sends both fields).
      const same = await t.request('PATCH', `${ADMIN}/users/${id}`, { as: 'administrator', body: { role: 'contributor', email: '' } });
      assert.equal(same.status, 200, same.text);
      assert.deepEqual(await builtInRow(), { login: 'submissions', role: 'contributor', email: '' });
      assert.equal((await t.storage.db.selectFrom('app_passwords').select('id').where('user_id', '=', id).execute()).length, 0);
      assert.equal((await t.storage.db.selectFrom('signin_links').select('id').where('user_id', '=', id).execute()).length, 0);
      // Other users are unaffected.
      const other = await t.request('PATCH', `${ADMIN}/users/${t.others.author.id}`, { as: 'administrator', body: { role: 'editor' } });
      assert.equal(other.status, 200);
    });

    test('the back-office users pages offer it none of the refused actions, with a note; a normal user keeps them', async () => {
      const refused = ['save', 'reset_signin', 'new_app_password', 'delete'];
      const offered = (html: string) => refused.filter((action) => html.includes(`name="action" value="${action}"`));
      const page = await adminGet(t, admin, `/users/${id}/`);
      assert.equal(page.status, 200);
      assert.deepEqual(offered(page.text), []);
      assert.match(page.text, /Built-in account used for visitor submissions; it cannot sign in or be changed\./);
      assert.doesNotMatch(page.text, /name="(email|role|confirm_delete|app_password_name)"/);
      const normal = await adminGet(t, admin, `/users/${t.others.author.id}/`);
      assert.deepEqual(offered(normal.text), refused);
      assert.doesNotMatch(normal.text, /Built-in account/);
      // The note in the edition's language.
      assert.match((await t.request('GET', `/da/admin/users/${id}/`, { headers: { cookie: admin.cookie } })).text, /Indbygget konto til besøgendes indsendelser/);
      const list = await adminGet(t, admin, '/users/');
      assert.match(list.text, new RegExp(`<a href="[^"]*/users/${id}/">submissions</a> \\(built-in\\)`));
      assert.doesNotMatch(list.text, new RegExp(`/users/${t.others.author.id}/">[^<]+</a> \\(built-in`));
    });

    test('the back-office users page goes through the same endpoints: each action refused with rest_user_builtin', async () => {
      assert.equal((await adminGet(t, admin, `/users/${id}/`)).status, 200);
      for (const fields of <Record<string, string>[]>[
        { action: 'save', role: 'administrator', email: '' },
        { action: 'delete', confirm_delete: '1' },
        { action: 'new_app_password', app_password_name: 'Feed reader' },
        { action: 'reset_signin' },
      ]) {
        const res = await form(t, admin, `/users/${id}/`, fields);
        assert.equal(res.headers['x-calendar-error'], 'rest_user_builtin', `${fields.action}: ${res.status}`);
        assert.ok(res.status >= 400, `${fields.action}: ${res.status}`);
      }
      assert.deepEqual(await builtInRow(), { login: 'submissions', role: 'contributor', email: '' });
    });

    test('no sign-in: a password or a link planted in the database opens nothing; the service sets neither', async () => {
      const password = 'a planted password for the built-in user';
      const repo = new SessionsRepository(t.storage.db);
      await repo.setSigninHash(id, await hashSigninPassword(password, Number(TEST_HASH_COST)), '2030-01-01 00:00:00');
      const answer = await postLogin(t, { login: 'submissions', password });
      assert.notEqual(answer.status, 303);
      assert.equal(String(answer.headers['set-cookie'] ?? '').includes('cal_session='), false);

      const token = newToken();
      await repo.insertLink({ user_id: id, token_hash: tokenHash(token), purpose: 'invite', created_utc: '2030-01-01 00:00:00', expires_utc: '2999-01-01 00:00:00', used_utc: null });
      const signin = new SigninService(t.storage, Number(TEST_HASH_COST), () => new Date());
      assert.equal(await signin.liveLink(token), null);
      await assert.rejects(signin.setPassword({ id, login: 'submissions', email: '' }, 'another long enough password'), { code: 'rest_user_builtin' });
      await assert.rejects(signin.createLink(id, 'invite'), { code: 'rest_user_builtin' });
    });

    test('command line: each command that would give it a password or a link, or remove it, exits 1 with one line', () => {
      const cli = (...args: string[]) => spawnSync(process.execPath, ['bin/calendar.js', ...args], { env: { ...process.env, DATABASE_URL: t.databaseUrl }, encoding: 'utf8', input: 'a long enough password\n' });
      for (const args of [['users', 'new-password', 'submissions'], ['users', 'set-password', 'submissions'], ['users', 'invite', 'submissions'], ['users', 'remove', 'submissions']]) {
        const result = cli(...args);
        assert.equal(result.status, 1, `${args.join(' ')}: ${result.stdout}${result.stderr}`);
        assert.equal(result.stdout, '');
        assert.match(result.stderr, /^calendar: This is a built-in user of the service[^\n]*\n$/);
      }
    });
  });
}
