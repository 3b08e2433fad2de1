import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { buildApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { openStorage } from '../../../src/storage/database.ts';
import { UsersService } from '../../../src/services/users-service.ts';
import { DIALECTS, freshDatabase, skipReason } from '../../helpers/databases.ts';
import { NS } from '../../helpers/test-app.ts';

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** Starts `src/server.ts` as a real process and waits for the address it prints. */
function startServer(env: Record<string, string>): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 20000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1], output: () => output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('process lifecycle [sqlite]', () => {
  const dir = mkdtempSync(join(tmpdir(), 'calendar-life-'));
  const databaseUrl = `sqlite:${join(dir, 'nested', 'calendar.db')}`;
  after(() => rmSync(dir, { recursive: true, force: true }));
  let adminSecret = '';

  test('first start on an empty database creates the administrator and prints the password once', async () => {
    const server = await startServer({ DATABASE_URL: databaseUrl, CALENDAR_ADMIN_LOGIN: 'boss' });
    const match = /application password: (\S+)/.exec(server.output());
    assert.ok(match, server.output());
    adminSecret = match[1];
    const me = await fetch(`${server.url.replace(NS, '')}/calendar/admin/v1/me`, { headers: { authorization: `Bearer ${match[1]}` } });
    assert.equal(me.status, 200);
    assert.equal((await me.json()).login, 'boss');
    const root = await fetch(server.url);
    assert.equal(root.status, 200);
    assert.equal((await root.json()).namespace, 'calendar/events/v1');
    const health = await fetch(`${server.url.replace(NS, '')}/healthz`);
    assert.equal(health.status, 200);
    server.child.kill('SIGTERM');
    assert.equal(await exited(server.child), 0);
  });

  test('a restart on the existing database keeps its users and prints no password', async () => {
    const server = await startServer({ DATABASE_URL: databaseUrl, CALENDAR_ADMIN_LOGIN: 'boss' });
    assert.doesNotMatch(server.output(), /application password/);
    server.child.kill('SIGINT');
    assert.equal(await exited(server.child), 0);
  });

  test('a configured administrator password is used and never printed', async () => {
    const other = `sqlite:${join(dir, 'configured.db')}`;
    const server = await startServer({ DATABASE_URL: other, CALENDAR_ADMIN_PASSWORD: 'configured-secret-123456' });
    assert.doesNotMatch(server.output(), /configured-secret/);
    const me = await fetch(`${server.url.replace(NS, '')}/calendar/admin/v1/me`, { headers: { authorization: `Basic ${Buffer.from('admin:configured-secret-123456').toString('base64')}` } });
    assert.equal(me.status, 200);
    server.child.kill('SIGTERM');
    await exited(server.child);
  });

  test('SIGTERM lets a request in flight finish before the process stops', async () => {
    const server = await startServer({ DATABASE_URL: databaseUrl });
    const target = new URL(`${server.url.replace(NS, '')}/calendar/admin/v1/users`);
    const body = JSON.stringify({ login: 'latecomer', role: 'editor' });
    const status = new Promise<number>((resolve, reject) => {
      const req = request(target, { method: 'POST', headers: { authorization: `Bearer ${adminSecret}`, 'content-type': 'application/json', 'content-length': String(body.length) } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      // The headers are in before the signal; the rest of the body only after it.
      req.write(body.slice(0, 5));
      setTimeout(() => {
        server.child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(5)), 300);
      }, 300);
    });
    assert.equal(await status, 201);
    assert.equal(await exited(server.child), 0);
  });

  test('a bad configuration stops the start with a clear message', async () => {
    await assert.rejects(startServer({ DATABASE_URL: 'mysql://nope' }), /DATABASE_URL must start with sqlite: or postgres:\/\//);
    await assert.rejects(startServer({ DATABASE_URL: databaseUrl, CALENDAR_TIMEZONE: 'Mars/Olympus' }), /CALENDAR_TIMEZONE/);
  });
});

for (const dialect of DIALECTS) {
  describe(`storage and health [${dialect}]`, { skip: skipReason(dialect) }, () => {
    test('migrations run on an empty database and again, harmlessly, on an existing one', async () => {
      const database = await freshDatabase(dialect);
      try {
        const first = await openStorage(database.url);
        const created = await new UsersService(first, () => new Date()).create({ login: 'keeper', role: 'editor' });
        await first.close();
        const second = await openStorage(database.url);
        const users = await new UsersService(second, () => new Date()).list();
        // The migrations' built-in submitter (120 §7) once, the user made between the two runs kept.
        assert.deepEqual(users.map((user) => user.login), ['submissions', 'keeper']);
        const migrations = await second.db.selectFrom('kysely_migration' as any).select('name' as any).execute();
        assert.ok(migrations.length >= 1);
        const auth = await new UsersService(second, () => new Date()).authenticateBearer(created.password);
        assert.ok('user' in auth);
        await second.close();
      } finally {
        await database.dispose();
      }
    });

    test('healthz is 503 and other requests a JSON 500 without internals when the database is gone', async () => {
      const database = await freshDatabase(dialect);
      const config = loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent' });
      const storage = await openStorage(config.databaseUrl);
      const app = await buildApp({ config, storage, logger: false });
      try {
        assert.equal((await app.inject({ url: '/healthz' })).statusCode, 200);
        await storage.close();
        const health = await app.inject({ url: '/healthz' });
        assert.equal(health.statusCode, 503);
        assert.equal(health.json().code, 'rest_service_unavailable');
        const broken = await app.inject({ url: NS, headers: { authorization: 'Bearer whatever' } });
        assert.equal(broken.statusCode, 500);
        assert.deepEqual(broken.json(), { code: 'rest_internal_error', message: 'The server could not complete the request because of an internal error.', data: { status: 500 } });
      } finally {
        await app.close();
        await database.dispose();
      }
    });
  });
}
