import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { EDITION_PREFIXES, LANGUAGES, translate } from '../../../src/i18n/catalog.ts';
import type { TestApp } from '../../helpers/test-app.ts';
import { createSigninUser, signInBrowser, startAdminApp, type SigninUser } from '../helpers.ts';

const CHROMIUM = '/usr/bin/chromium';
const required = process.env.TEST_BROWSER_REQUIRED === '1';
const skip = !existsSync(CHROMIUM) && !required ? `no ${CHROMIUM} (apt-get install -y chromium); TEST_BROWSER_REQUIRED=1 makes this a failure` : false;
const SCREENSHOTS = join(process.cwd(), 'test-output', 'screenshots');
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'];

/** axe-core in the page; with scripts off its timers are replaced by promises (as in test/web/pages-browser.test.ts). */
async function violations(page: Page, scriptsDisabled: boolean): Promise<string[]> {
  if (scriptsDisabled) {
    await page.evaluate('let timer = 0; globalThis.setTimeout = (callback) => { void Promise.resolve().then(callback); return ++timer; }; globalThis.clearTimeout = () => {};');
  }
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    const result = await (globalThis as any).axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v: any) => `${v.id}: ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
  }, AXE_TAGS);
}

/** The back office's sign-in in headless Chromium (100 §17.12 for the sign-in page and the dashboard placeholder). */
describe('back office sign-in in a browser', { skip }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let user: SigninUser;
  before(async () => {
    t = await startAdminApp('sqlite', { overHttp: true, env: { CALENDAR_PUBLIC_URL: '' } });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    user = await createSigninUser(t, 'editor');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  for (const javaScriptEnabled of [false, true]) {
    test(`signs in and out with JavaScript ${javaScriptEnabled ? 'on' : 'off'}; axe finds nothing in any edition`, async () => {
      const context = await browser.newContext({ javaScriptEnabled });
      try {
        const page = await context.newPage();
        for (const language of LANGUAGES) {
          const lang = EDITION_PREFIXES[language];
          await page.goto(`${base}${lang}/admin/login`);
          assert.deepEqual(await violations(page, !javaScriptEnabled), [], `sign-in ${language}`);
          await signInBrowser(page, base, user, lang);
          assert.equal(await page.locator('h1').textContent(), translate(language, 'admin_dashboard_title'));
          assert.deepEqual(await violations(page, !javaScriptEnabled), [], `dashboard ${language}`);
          await page.click('.admin-signout button');
          await page.waitForURL(/signed_out=1/);
          assert.equal((await page.locator('[role=status]').textContent())?.trim(), translate(language, 'admin_signed_out'));
        }
      } finally {
        await context.close();
      }
    });
  }

  test('at 320 px nothing scrolls sideways; a wrong password keeps the login', async () => {
    const context = await browser.newContext({ viewport: { width: 320, height: 640 } });
    try {
      const page = await context.newPage();
      await page.goto(`${base}/admin/login`);
      await page.fill('#field-login', user.login);
      await page.fill('#field-password', 'not the right password');
      await page.click('button[type=submit]');
      assert.equal(await page.inputValue('#field-login'), user.login);
      assert.match((await page.locator('[role=alert]').textContent()) ?? '', /Unknown login or wrong password/);
      await page.screenshot({ path: join(SCREENSHOTS, 'admin-signin.png'), fullPage: true });
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'sign-in overflows at 320 px');
      await signInBrowser(page, base, user);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'dashboard overflows at 320 px');
      assert.deepEqual(await violations(page, false), []);
    } finally {
      await context.close();
    }
  });
});
