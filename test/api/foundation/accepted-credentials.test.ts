import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { UsersService } from '../../../src/services/users-service.ts';
import { openStorage } from '../../../src/storage/database.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';

const ADMIN = '/calendar/admin/v1';

/**
 * Credentials a client sends with every request are looked up once and then remembered, until
 * users or passwords change: through this instance, or through another process (SQLite) or
 * instance (PostgreSQL) on the same database.
 */
for (const dialect of DIALECTS) {
  describe(`remembered credentials [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect);
    });
    after(() => t.close());

    const newUser = async (login: string) => {
      const created = await t.request('POST', `${ADMIN}/users`, { as: 'administrator', body: { login, role: 'editor' } });
      assert.equal(created.status, 201);
      return { id: created.body.id as number, headers: { authorization: `Bearer ${created.body.application_password}` } };
    };

    test('an accepted credential is not looked up again', async () => {
      const { id, headers } = await newUser('repeater');
      // Used a moment ago, so no use is due to be recorded (app-password-last-used.test.ts): only lookups are counted.
      await t.storage.db.updateTable('app_passwords').set({ last_used_utc: new Date().toISOString().slice(0, 19).replace('T', ' ') }).where('user_id', '=', id).execute();
      await new Promise(setImmediate);
      await t.storage.epochs.current();
      const first = await t.queryCount();
      assert.equal((await t.request('GET', `${ADMIN}/me`, { headers })).status, 200);
      const second = await t.queryCount();
      assert.equal((await t.request('GET', `${ADMIN}/me`, { headers })).status, 200);
      assert.equal((await t.queryCount()) - second, second - first - 1);
    });

    test('deleting a user through this instance refuses their remembered credentials at once', async () => {
      const { id, headers } = await newUser('shortlived');
      assert.equal((await t.request('GET', `${ADMIN}/me`, { headers })).status, 200);
      assert.equal((await t.request('DELETE', `${ADMIN}/users/${id}`, { as: 'administrator' })).status, 200);
      assert.equal((await t.request('GET', `${ADMIN}/me`, { headers })).status, 401);
    });

    test(`a user deleted by another ${dialect === 'sqlite' ? 'process' : 'instance'} is refused`, async () => {
      const { id, headers } = await newUser('elsewhere');
      assert.equal((await t.request('GET', `${ADMIN}/me`, { headers })).status, 200);
      const other = await openStorage(t.databaseUrl);
      try {
        await new UsersService(other, () => new Date()).delete(id);
      } finally {
        await other.close();
      }
      // A request reaches the service in a later turn of the event loop than the deletion (one
      // SQLite reading serves the requests of one turn); PostgreSQL tells the other instances by a
      // notification: wait until this instance has received everything committed so far.
      await new Promise(setImmediate);
      await t.storage.epochs.current();
      assert.equal((await t.request('GET', `${ADMIN}/me`, { headers })).status, 401);
    });
  });
}
