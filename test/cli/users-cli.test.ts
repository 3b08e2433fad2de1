import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { UsersService } from '../../src/services/users-service.ts';
import { openStorage } from '../../src/storage/database.ts';

describe('calendar users (command line)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'calendar-cli-'));
  const databaseUrl = `sqlite:${join(dir, 'cli.db')}`;
  after(() => rmSync(dir, { recursive: true, force: true }));
  const cli = (...args: string[]) => spawnSync(process.execPath, ['bin/calendar.js', ...args], { env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: 'utf8' });
  const authenticates = async (secret: string) => {
    const storage = await openStorage(databaseUrl);
    try {
      const outcome = await new UsersService(storage, () => new Date()).authenticateBearer(secret);
      return 'user' in outcome ? outcome.user.login : null;
    } finally {
      await storage.close();
    }
  };

  test('add creates a user whose printed password authenticates', async () => {
    const result = cli('users', 'add', 'lena', '--role', 'editor', '--email', 'lena@example.org');
    assert.equal(result.status, 0, result.stderr);
    const secret = /application password: (\S+)/.exec(result.stdout)![1];
    assert.equal(await authenticates(secret), 'lena');
  });

  test('list shows the users', () => {
    const result = cli('users', 'list');
    assert.equal(result.status, 0);
    assert.match(result.stdout, /^\d+\tlena\teditor\tlena@example\.org$/m);
  });

  test('new-password prints a working password and keeps the old one', async () => {
    const result = cli('users', 'new-password', 'lena');
    assert.equal(result.status, 0, result.stderr);
    const secret = /new application password for "lena": (\S+)/.exec(result.stdout)![1];
    assert.equal(await authenticates(secret), 'lena');
  });

  test('errors: duplicate login, bad role, unknown user, bad usage', () => {
    const duplicate = cli('users', 'add', 'lena', '--role', 'editor');
    assert.equal(duplicate.status, 1);
    assert.match(duplicate.stderr, /already exists/);
    const badRole = cli('users', 'add', 'x', '--role', 'king');
    assert.equal(badRole.status, 2);
    assert.match(badRole.stderr, /--role must be one of/);
    assert.equal(cli('users', 'remove', 'ghost').status, 1);
    assert.equal(cli('frobnicate').status, 2);
  });

  test('remove deletes the user', () => {
    const result = cli('users', 'remove', 'lena');
    assert.equal(result.status, 0, result.stderr);
    assert.doesNotMatch(cli('users', 'list').stdout, /lena/);
  });
});
