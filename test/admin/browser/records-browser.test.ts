import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { axeViolations, launchChromium, SCREENSHOTS, skip } from '../../helpers/browser.ts';
import type { TestApp } from '../../helpers/test-app.ts';
import { builtInSubmitterId } from '../../../src/services/submissions/submission-key.ts';
import { signedInContexts } from '../browser-session.ts';
import { createSigninUser, signInOverHttp, startAdminApp } from '../helpers.ts';

/**
 * The record editors and the people pages (100 §12, §17.12) in one Chromium: axe-core finds no
 * violation with JavaScript off and on, in English and Danish, and at 320 CSS px nothing scrolls
 * the page sideways.
 */
describe('back office record and people pages in a browser', { skip }, () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  const contexts: { name: string; context: BrowserContext; scripts: boolean; narrow: boolean }[] = [];
  const paths: string[] = [];

  before(async () => {
    t = await startAdminApp('sqlite', { overHttp: true, env: { CALENDAR_PUBLIC_URL: '', CALENDAR_WEBHOOKS_ALLOW_INSECURE: '1' } });
    const address = t.app.server.address() as { port: number };
    origin = `http://127.0.0.1:${address.port}`;
    const admin = await createSigninUser(t, 'administrator');
    const session = await signInOverHttp(origin, admin);
    const headers = { cookie: session.cookie, 'x-wp-nonce': session.token, 'content-type': 'application/json' };
    const api = (path: string, body: unknown) => fetch(`${origin}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }).then((res) => res.json() as Promise<any>);
    const venue = await api('/calendar/events/v1/venues', { venue: 'Concert hall with a rather long name', city: 'Aarhus', status: 'publish' });
    const category = await api('/calendar/events/v1/categories', { name: 'Music' });
    const webhook = await api('/calendar/admin/v1/webhooks', { url: 'http://127.0.0.1:9/receiver-with-a-long-path/for/wrapping', types: ['event.*'] });
    await api(`/calendar/admin/v1/users/${admin.id}/application-passwords`, { name: 'Feed reader' });
    paths.push(`/venues/${venue.id}/`, '/venues/new', `/categories/${category.id}/`, '/tags/new', '/users/', `/users/${admin.id}/`, `/users/${await builtInSubmitterId(t.storage.db)}/`, '/users/new', '/profile/', '/webhooks/', `/webhooks/${webhook.id}/`, '/imports/');
    browser = await launchChromium();
    const shapes = [[false, false], [true, false], [false, true], [true, true]] as const;
    const signedIn = await signedInContexts(browser, origin, admin, shapes.map(([scripts, narrow]) => ({ javaScriptEnabled: scripts, viewport: narrow ? { width: 320, height: 640 } : { width: 1280, height: 900 } })));
    shapes.forEach(([scripts, narrow], index) => contexts.push({ name: `${scripts ? 'JS on' : 'JS off'} ${narrow ? '320px' : '1280px'}`, context: signedIn[index], scripts, narrow }));
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  for (const lang of ['', '/da']) {
    test(`${lang || 'en'}: no axe violation, JavaScript off and on, and no sideways scrolling at 320 px`, async () => {
      const problems: string[] = [];
      for (const { name, context, scripts, narrow } of contexts) {
        const page = await context.newPage();
        for (const path of paths) {
          const response = await page.goto(`${origin}${lang}/admin${path}`);
          if (response?.status() !== 200) problems.push(`${name} ${lang}${path}: status ${response?.status()}`);
          for (const violation of await axeViolations(page, !scripts)) problems.push(`${name} ${lang}${path}: ${violation.id} at ${violation.nodes.map((target) => target.join(' ')).join(', ')}`);
          if (narrow) {
            const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
            if (overflow > 0) {
              const wide = await page.evaluate(() => [...document.querySelectorAll('main *')].filter((el) => el.getBoundingClientRect().right > 321).map((el) => `${el.tagName}.${el.className}#${el.id}`).slice(0, 4).join(' '));
              problems.push(`${name} ${lang}${path}: ${overflow}px sideways (${wide})`);
            }
          }
        }
        await page.close();
      }
      assert.deepEqual(problems, []);
    });
  }

  test('screenshot of the users page', async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const page = await contexts[1].context.newPage();
    await page.goto(`${origin}/admin/users/`);
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-users.png'), fullPage: true });
    await page.close();
    assert.ok(existsSync(join(SCREENSHOTS, 'admin-users.png')));
  });
});
