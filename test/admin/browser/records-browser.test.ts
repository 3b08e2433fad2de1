import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { TestApp } from '../../helpers/test-app.ts';
import { createSigninUser, signInOverHttp, startAdminApp } from '../helpers.ts';

const CHROMIUM = '/usr/bin/chromium';
const required = process.env.TEST_BROWSER_REQUIRED === '1';
const skip = !existsSync(CHROMIUM) && !required ? `no ${CHROMIUM} (apt-get install -y chromium); TEST_BROWSER_REQUIRED=1 makes this a failure` : false;
const SCREENSHOTS = join(process.cwd(), 'test-output', 'screenshots');
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** axe-core in the page; with scripts disabled its timers are stood in for by promises (as test/web/pages-browser.test.ts). */
async function axe(page: Page, scriptsDisabled: boolean): Promise<{ id: string; targets: string[] }[]> {
  if (scriptsDisabled) {
    await page.evaluate('let timer = 0; globalThis.setTimeout = (callback) => { void Promise.resolve().then(callback); return ++timer; }; globalThis.clearTimeout = () => {};');
  }
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    const result = await (globalThis as any).axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v: any) => ({ id: v.id, targets: v.nodes.map((n: any) => n.target.join(' ')) }));
  }, AXE_TAGS);
}

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
    paths.push(`/venues/${venue.id}/`, '/venues/new', `/categories/${category.id}/`, '/tags/new', '/users/', `/users/${admin.id}/`, '/users/new', '/profile/', '/webhooks/', `/webhooks/${webhook.id}/`, '/imports/');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    for (const [scripts, narrow] of [[false, false], [true, false], [false, true], [true, true]] as const) {
      const context = await browser.newContext({ javaScriptEnabled: scripts, viewport: narrow ? { width: 320, height: 640 } : { width: 1280, height: 900 } });
      await context.addCookies([{ name: 'cal_session', value: session.value, url: origin }]);
      contexts.push({ name: `${scripts ? 'JS on' : 'JS off'} ${narrow ? '320px' : '1280px'}`, context, scripts, narrow });
    }
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
          for (const violation of await axe(page, !scripts)) problems.push(`${name} ${lang}${path}: ${violation.id} at ${violation.targets.join(', ')}`);
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
