import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, type TestApp } from '../../helpers/test-app.ts';
import { adminGet, createSigninUser, signIn, startAdminApp, type AdminSession } from '../../admin/helpers.ts';

const ADMIN = '/calendar/admin/v1';
const T0 = Date.parse('2030-05-01T08:00:00Z');
const SECOND = 1000;

/**
 * 100 §10: `last_used` of an application password is when it last authenticated a request,
 * recorded at most once a minute per password (like sessions' `last_seen`), whether the credential
 * was looked up or remembered, never for a refused one, and never at the cost of the request.
 */
for (const dialect of DIALECTS) {
  describe(`application passwords' last use [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let now = new Date(T0);
    let t: TestApp;
    let admin: AdminSession;
    const warnings: string[] = [];
    let user: { id: number; login: string; password: string };
    before(async () => {
      t = await startAdminApp(dialect, {
        clock: () => now,
        env: { LOG_LEVEL: 'warn' },
        loggerStream: { write: (line: string) => void warnings.push(line) },
      });
      admin = await signIn(t, await createSigninUser(t, 'administrator'));
      const created = await t.request('POST', `${ADMIN}/users`, { as: 'administrator', body: { login: 'feeder', role: 'editor' } });
      assert.equal(created.status, 201, created.text);
      user = { id: created.body.id, login: 'feeder', password: created.body.application_password };
    });
    after(() => t.close());

    const at = (seconds: number) => {
      now = new Date(T0 + seconds * SECOND);
    };
    const basic = (password: string) => ({ authorization: `Basic ${Buffer.from(`${user.login}:${password}`).toString('base64')}` });
    const me = async (password = user.password) => (await t.request('GET', `${ADMIN}/me`, { headers: basic(password) })).status;
    const listed = async () => {
      const res = await t.request('GET', `${ADMIN}/users/${user.id}/application-passwords`, { as: 'administrator' });
      assert.equal(res.status, 200);
      return res.body as { id: number; name: string; created: string; last_used: string | null }[];
    };
    /** Read from the table: the administrator's own requests would record their password's uses and disturb the counts. */
    const lastUsed = async () => {
      const row = await t.storage.db.selectFrom('app_passwords').select('last_used_utc').where('user_id', '=', user.id).executeTakeFirstOrThrow();
      return row.last_used_utc === null ? null : `${row.last_used_utc.replace(' ', 'T')}Z`;
    };
    /** Statements one request costs; PostgreSQL's notifications of earlier writes are in first. */
    const cost = async (request: () => Promise<number>) => {
      await new Promise(setImmediate);
      await t.storage.epochs.current();
      const before = await t.queryCount();
      assert.equal(await request(), 200);
      return (await t.queryCount()) - before;
    };

    test('null until used; a refused password or login records nothing', async () => {
      assert.deepEqual(await listed(), [{ id: (await listed())[0].id, name: '', created: '2030-05-01T08:00:00Z', last_used: null }]);
      assert.equal(await me('not-the-password'), 401);
      assert.equal((await t.request('GET', `${ADMIN}/me`, { headers: { authorization: `Bearer not-a-password` } })).status, 401);
      assert.equal(await lastUsed(), null);
      const page = await adminGet(t, admin, `/users/${user.id}/`);
      assert.match(page.text, /<td>Never<\/td>/);
      assert.match((await t.request('GET', `/da/admin/users/${user.id}/`, { headers: { cookie: admin.cookie } })).text, /<td>Aldrig<\/td>/);
    });

    test('the first use records it (UTC, as `created`); uses within the minute write nothing; a use a minute later records again', async () => {
      at(5);
      assert.equal(await me(), 200);
      assert.equal(await lastUsed(), '2030-05-01T08:00:05Z');
      at(30);
      const within = await cost(() => me());
      at(40);
      assert.equal(await cost(() => me()), within);
      at(64);
      assert.equal(await cost(() => me()), within, 'a remembered credential within the minute costs no write');
      assert.equal(await lastUsed(), '2030-05-01T08:00:05Z');
      at(65);
      assert.equal(await cost(() => me()), within + 1, 'a minute after the last record: one write');
      assert.equal(await lastUsed(), '2030-05-01T08:01:05Z');
      assert.equal((await listed())[0].last_used, '2030-05-01T08:01:05Z');
      // The write is no credential change (migration 0033): the next use is still remembered.
      at(70);
      assert.equal(await cost(() => me()), within, 'recording a use makes no instance look the credential up again');
      const page = await adminGet(t, admin, `/users/${user.id}/`);
      assert.match(page.text, /<td><time datetime="2030-05-01T08:01:05Z">2030-05-01 08:01 UTC<\/time><\/td>/);
    });

    test('a refused password a minute later leaves it; the password as a Bearer token records too', async () => {
      at(200);
      assert.equal(await me('still-not-the-password'), 401);
      assert.equal(await lastUsed(), '2030-05-01T08:01:05Z');
      const bearer = await t.request('GET', `${ADMIN}/me`, { headers: { authorization: `Bearer ${user.password}` } });
      assert.equal(bearer.status, 200);
      assert.equal(await lastUsed(), '2030-05-01T08:03:20Z');
    });

    test('concurrent creates with a use due: every create succeeds (no deadlock on PostgreSQL), the use is recorded', async () => {
      at(300);
      const creates = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          t.request('POST', `${NS}/events`, { headers: basic(user.password), body: { title: `Burst ${i}`, start_date: '2030-06-01 10:00:00', end_date: '2030-06-01 11:00:00', status: 'publish' } }),
        ),
      );
      assert.deepEqual(creates.map((res) => res.status), Array(12).fill(201));
      assert.equal(await lastUsed(), '2030-05-01T08:05:00Z');
    });

    test('a failed write fails no request: the use is answered, the failure logged, the value unchanged', async () => {
      const db = t.storage.db;
      if (dialect === 'sqlite') {
        await sql`create trigger refuse_password_update before update on app_passwords begin select raise(abort, 'refused by the test'); end`.execute(db);
      } else {
        await sql`create function refuse_password_update() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$`.execute(db);
        await sql`create trigger refuse_password_update before update on app_passwords for each row execute function refuse_password_update()`.execute(db);
      }
      try {
        at(400);
        warnings.length = 0;
        assert.equal(await me(), 200);
        assert.equal(await lastUsed(), '2030-05-01T08:05:00Z');
        assert.ok(warnings.some((line) => line.includes('the use of an application password was not recorded')), warnings.join('\n'));
      } finally {
        await sql`drop trigger refuse_password_update${dialect === 'postgres' ? sql` on app_passwords` : sql``}`.execute(db);
      }
    });
  });
}
