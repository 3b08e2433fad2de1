import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { axeViolationLines, launchChromium, SCREENSHOTS, skip } from '../../helpers/browser.ts';
import { EDITION_PREFIXES, LANGUAGES, translate } from '../../../src/i18n/catalog.ts';
import type { TestApp } from '../../helpers/test-app.ts';
import { createSigninUser, signInBrowser, startAdminApp, type SigninUser } from '../helpers.ts';

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
    browser = await launchChromium();
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
          assert.deepEqual(await axeViolationLines(page, !javaScriptEnabled), [], `sign-in ${language}`);
          await signInBrowser(page, base, user, lang);
          assert.equal(await page.locator('h1').textContent(), translate(language, 'admin_dashboard_title'));
          assert.deepEqual(await axeViolationLines(page, !javaScriptEnabled), [], `dashboard ${language}`);
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
      assert.deepEqual(await axeViolationLines(page, false), []);
    } finally {
      await context.close();
    }
  });
});
