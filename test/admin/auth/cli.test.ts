import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SigninService } from '../../../src/services/signin/signin-service.ts';
import { UsersService } from '../../../src/services/users-service.ts';
import { openStorage, type Storage } from '../../../src/storage/database.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { formToken, setCookies, TEST_HASH_COST, urlencoded, ORIGIN } from '../helpers.ts';

const ENV = { CALENDAR_SIGNIN_HASH_COST: TEST_HASH_COST, CALENDAR_PUBLIC_URL: 'https://cal.example.org', LOG_LEVEL: 'silent' };

describe('calendar users set-password | invite | sign-out (100 §3.3)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'calendar-signin-cli-'));
  const databaseUrl = `sqlite:${join(dir, 'cli.db')}`;
  let storage: Storage;
  const cli = (args: string[], input?: string) =>
    spawnSync(process.execPath, ['bin/calendar.js', 'users', ...args], { env: { ...process.env, ...ENV, DATABASE_URL: databaseUrl }, input, encoding: 'utf8' });
  const verifies = (login: string, password: string) => new SigninService(storage, 14, () => new Date()).verify(login, password);

  before(async () => {
    storage = await openStorage(databaseUrl);
    await new UsersService(storage, () => new Date()).create({ login: 'maja', role: 'editor', email: 'maja@example.org' });
  });
  after(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('set-password reads one line from a pipe (CR dropped, the rest ignored)', async () => {
    const result = cli(['set-password', 'maja'], 'a long enough secret\r\nsecond line\n');
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout.trim(), 'sign-in password set for "maja"; 0 sessions signed out');
    assert.equal((await verifies('maja', 'a long enough secret'))?.login, 'maja');
    assert.equal(await verifies('maja', 'a long enough secret\r'), null);
  });

  it('set-password by id, and the policy and usage failures with their exit codes', async () => {
    const id = (await new UsersService(storage, () => new Date()).findByLogin('maja'))!.id;
    assert.equal(cli(['set-password', String(id)], 'another good secret\n').status, 0);
    const short = cli(['set-password', 'maja'], 'short\n');
    assert.equal(short.status, 1);
    assert.equal(short.stderr.trim(), 'calendar: password must be at least 12 characters long.');
    const asLogin = cli(['set-password', 'maja'], 'MAJA@example.org\n');
    assert.equal(asLogin.status, 1);
    assert.match(asLogin.stderr, /must not be your login or e-mail address/);
    assert.equal(cli(['set-password', 'nobody'], 'a long enough secret\n').status, 1);
    assert.equal(cli(['set-password', 'maja'], '').status, 2);
    assert.equal(cli(['set-password'], 'a long enough secret\n').status, 2);
    assert.equal((await verifies('maja', 'another good secret'))?.login, 'maja');
  });

  it('set-password on a terminal asks twice without echo', { skip: existsSync('/usr/bin/script') ? false : 'no script(1) (util-linux) for a pseudo-terminal' }, async () => {
    const command = `${process.execPath} bin/calendar.js users set-password maja`;
    const child = spawn('script', ['-qec', command, '/dev/null'], { env: { ...process.env, ...ENV, DATABASE_URL: databaseUrl }, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    const waitFor = (text: string) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "${text}" in ${JSON.stringify(output)}`)), 20_000);
        const check = () => {
          if (output.includes(text)) {
            clearTimeout(timer);
            child.stdout.off('data', check);
            resolve();
          }
        };
        child.stdout.on('data', (chunk) => {
          output += chunk.toString();
          check();
        });
        check();
      });
    await waitFor('New sign-in password:');
    child.stdin.write('typed on a terminal\r');
    await waitFor('Again:');
    child.stdin.write('typed on a terminal\r');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 0, output);
    assert.match(output, /sign-in password set for "maja"/);
    assert.doesNotMatch(output, /typed on a terminal/);
    assert.equal((await verifies('maja', 'typed on a terminal'))?.login, 'maja');
  });

  it('invite prints a link with the public origin (or --origin, or the path alone with a note)', () => {
    const result = cli(['invite', 'maja']);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^https:\/\/cal\.example\.org\/admin\/invite\/[A-Za-z0-9_-]{43}$/m);
    const other = cli(['invite', 'maja', '--origin', 'http://localhost:8080/anything']);
    assert.match(other.stdout, /^http:\/\/localhost:8080\/admin\/invite\/[A-Za-z0-9_-]{43}$/m);
    const bare = spawnSync(process.execPath, ['bin/calendar.js', 'users', 'invite', 'maja'], { env: { ...process.env, ...ENV, CALENDAR_PUBLIC_URL: '', DATABASE_URL: databaseUrl }, encoding: 'utf8' });
    assert.match(bare.stdout, /^\/admin\/invite\/[A-Za-z0-9_-]{43}$/m);
    assert.match(bare.stdout, /CALENDAR_PUBLIC_URL/);
    assert.equal(cli(['invite', 'nobody']).status, 1);
  });

  it('sign-out prints the number of sessions ended', () => {
    const result = cli(['sign-out', 'maja']);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^\d+ sessions signed out for "maja"$/m);
  });
});

describe('one-time links through the back office (100 §3.4)', () => {
  let now = new Date('2030-03-01T10:00:00Z');
  let t: TestApp;
  let signin: SigninService;
  let userId: number;
  before(async () => {
    t = await startTestApp('sqlite', { clock: () => now, env: { CALENDAR_SIGNIN_HASH_COST: TEST_HASH_COST } });
    signin = new SigninService(t.storage, 14, () => now);
    userId = (await new UsersService(t.storage, () => now).create({ login: 'nils', role: 'author', email: 'nils@example.org' })).user.id;
  });
  after(() => t?.close());

  const open = async (token: string) => t.request('GET', `/admin/invite/${token}`);
  const accept = async (token: string, password: string, confirm = password) => {
    const page = await open(token);
    const cookie = `cal_login=${setCookies(page.headers).cal_login.value}`;
    return t.request('POST', `/admin/invite/${token}`, {
      body: urlencoded({ _token: formToken(page.text), password, password_confirm: confirm }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, cookie },
    });
  };

  it('works once: policy and confirmation first (422), then a session and 303 to the dashboard', async () => {
    const { token } = await signin.createLink(userId, 'invite');
    assert.equal((await open(token)).status, 200);
    const short = await accept(token, 'short');
    assert.equal(short.status, 422);
    assert.match(short.text, /id="field-password-error"/);
    const differ = await accept(token, 'a fine long password', 'another long password');
    assert.equal(differ.status, 422);
    assert.match(differ.text, /id="field-password_confirm-error"/);
    const done = await accept(token, 'a fine long password');
    assert.equal(done.status, 303);
    assert.equal(done.headers.location, '/admin/?message=password_set');
    assert.ok(setCookies(done.headers).cal_session.value);
    assert.equal((await signin.verify('nils', 'a fine long password'))?.id, userId);
    const again = await open(token);
    assert.equal(again.status, 410);
    assert.equal(again.headers['x-calendar-error'], 'admin_link_expired');
    assert.equal((await accept(token, 'yet another password').catch(() => ({ status: 410 }))).status, 410);
  });

  it('expires after 7 days and a second invitation kills the first', async () => {
    const first = await signin.createLink(userId, 'invite');
    const second = await signin.createLink(userId, 'invite');
    assert.equal((await open(first.token)).status, 410);
    assert.equal((await open(second.token)).status, 200);
    now = new Date(now.getTime() + 7 * 24 * 3600_000 - 1000);
    assert.equal((await open(second.token)).status, 200);
    now = new Date(now.getTime() + 1000);
    assert.equal((await open(second.token)).status, 410);
    assert.equal((await open('x'.repeat(43))).status, 410);
  });
});

describe('first start (100 §3.2)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'calendar-first-start-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Starts the service until it listens, then stops it; what it printed. */
  async function start(env: Record<string, string>): Promise<{ stdout: string; stderr: string; code: number | null }> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: { ...process.env, ...ENV, CALENDAR_PUBLIC_URL: '', PORT: '0', DATABASE_URL: `sqlite:${join(dir, 'first.db')}`, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (stdout.includes('listening on')) setTimeout(() => child.kill('SIGTERM'), 200);
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { stdout, stderr, code };
  }

  it('prints the application and sign-in passwords once; later starts print neither', async () => {
    const first = await start({});
    assert.match(first.stdout, /with application password: \S+/);
    const signinLine = /Sign-in password for the back office \(http:\/\/127\.0\.0\.1:\d+\/admin\/\): (\S{20})$/m.exec(first.stdout);
    assert.ok(signinLine, first.stdout + first.stderr);
    const storage = await openStorage(`sqlite:${join(dir, 'first.db')}`);
    try {
      assert.equal((await new SigninService(storage, 14, () => new Date()).verify('admin', signinLine[1]))?.login, 'admin');
    } finally {
      await storage.close();
    }
    const second = await start({});
    assert.doesNotMatch(second.stdout, /password/);
  });

  it('refuses to start with an invalid CALENDAR_ADMIN_SIGNIN_PASSWORD, in one line', async () => {
    const refused = await start({ CALENDAR_ADMIN_SIGNIN_PASSWORD: 'admin', DATABASE_URL: `sqlite:${join(dir, 'other.db')}` });
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr.trim(), 'calendar: cannot start: CALENDAR_ADMIN_SIGNIN_PASSWORD must be at least 12 characters long.');
  });

  it('says so when no administrator can sign in', async () => {
    const url = `sqlite:${join(dir, 'nobody.db')}`;
    await start({ DATABASE_URL: url, CALENDAR_BACK_OFFICE: 'off' });
    const later = await start({ DATABASE_URL: url });
    assert.match(later.stdout, /^No administrator can sign in to the back office yet: run calendar users set-password LOGIN$/m);
  });
});
