import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { DIALECTS, freshDatabase, skipReason, type FreshDatabase } from '../helpers/databases.ts';
import { startBundle, type StartedService } from './bundle-process.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const browserRequired = process.env.TEST_BROWSER_REQUIRED === '1';
const noBrowser = !existsSync(CHROMIUM) && !browserRequired ? `no ${CHROMIUM} (apt-get install -y chromium); TEST_BROWSER_REQUIRED=1 makes this a failure` : false;
const PASSWORD = 'a long smoke-test sign-in password';

/** `calendar users set-password LOGIN` with the password on stdin (a pipe: one line), as 100 §3.3 reads it. */
async function setPassword(databaseUrl: string, login: string, password: string): Promise<string> {
  const child = spawn(process.execPath, [join(ROOT, 'bin/calendar.js'), 'users', 'set-password', login], { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl } });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  child.stdin.end(`${password}\n`);
  const [code] = await once(child, 'exit');
  assert.equal(code, 0, output);
  return output;
}

/**
 * 100 §17 item 14: the `npm start` bundle on each database — a sign-in password set with the CLI,
 * sign-in in Chromium, an event created by form (JavaScript off, as the plain form posts it),
 * then seen at its public `url`.
 */
describe('the back office in the started bundle', { skip: noBrowser }, () => {
  let browser: Browser;
  before(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  });
  after(async () => {
    await browser?.close();
  });

  for (const dialect of DIALECTS) {
    describe(dialect, { skip: skipReason(dialect) }, () => {
      let database: FreshDatabase;
      let service: StartedService;
      let uploads = '';

      before(async () => {
        database = await freshDatabase(dialect);
        uploads = mkdtempSync(join(tmpdir(), 'calendar-admin-smoke-'));
        service = await startBundle(database.url, uploads);
      });
      after(async () => {
        await service?.stop();
        await database?.dispose();
        if (uploads) rmSync(uploads, { recursive: true, force: true });
      });

      test('set a password with the CLI, sign in, create an event by form, see it at its public url', async () => {
        assert.match(await setPassword(database.url, 'admin', PASSWORD), /sign-in password set for "admin"/);
        const context = await browser.newContext({ javaScriptEnabled: false });
        const page = await context.newPage();
        await page.goto(`${service.origin}/admin/login`);
        await page.fill('#field-login', 'admin');
        await page.fill('#field-password', PASSWORD);
        await page.click('button[type=submit]');
        await page.waitForURL(/\/admin\/$/);

        const day = `${new Date().getUTCFullYear() + 1}-03-15`;
        await page.goto(`${service.origin}/admin/events/new`);
        await page.fill('#field-title', 'Smoke concert');
        await page.fill('#field-start_date', day);
        await page.fill('#field-start_time', '19:30');
        await page.fill('#field-end_time', '21:00');
        await page.click('button[name=action][value=publish]');
        await page.waitForURL(/\/admin\/events\/\d+\/\?message=event_published$/);
        const id = /events\/(\d+)\//.exec(page.url())![1];

        const event = await (await fetch(`${service.origin}/calendar/events/v1/events/${id}`)).json();
        assert.equal(event.title, 'Smoke concert');
        const publicPage = await page.goto(event.url);
        assert.equal(publicPage?.status(), 200);
        assert.match(await page.content(), /Smoke concert/);
        await context.close();
      });
    });
  }
});
