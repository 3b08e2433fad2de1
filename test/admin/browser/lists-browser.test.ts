import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { axeViolationLines, launchChromium, SCREENSHOTS, skip } from '../../helpers/browser.ts';
import { NS, type TestApp } from '../../helpers/test-app.ts';
import { signedInContexts, startBrowserAdminApp } from '../browser-session.ts';
import { createSigninUser } from '../helpers.ts';

// 100 §12, §17.12 for the dashboard and lists: axe with JavaScript off and on, English and Danish; 320 px reflow; screenshots.
describe('back office dashboard and lists in a browser', { skip }, () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let contexts: { name: string; context: BrowserContext; scripts: boolean }[];
  let narrow: BrowserContext;
  let refusedId = 0;
  let trashedId = 0;

  before(async () => {
    ({ t, origin: base } = await startBrowserAdminApp());
    const editor = await createSigninUser(t, 'editor');
    const category = await t.request('POST', `${NS}/categories`, { as: 'editor', body: { name: 'Concerts', description: 'Music on stage' } });
    await t.request('POST', `${NS}/tags`, { as: 'editor', body: { name: 'outdoors' } });
    const soon = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    for (let i = 0; i < 6; i++) {
      const res = await t.request('POST', `${NS}/events`, {
        as: 'editor',
        body: { title: `Harbour concert with a rather long title number ${i}`, start_date: `${soon} ${10 + i}:00:00`, end_date: `${soon} ${11 + i}:00:00`, categories: [category.body.id], venue: { venue: 'Harbour stage', city: 'Aarhus' }, ...(i === 1 ? { status: 'draft' } : {}), ...(i === 2 ? { recurrence: { rrule: 'FREQ=WEEKLY;COUNT=4' } } : {}) },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      if (i === 0) refusedId = res.body.id;
      if (i === 5) trashedId = res.body.id;
    }
    browser = await launchChromium();
    const wide = { width: 1280, height: 900 };
    const [off, on, small] = await signedInContexts(browser, base, editor, [{ javaScriptEnabled: false, viewport: wide }, { javaScriptEnabled: true, viewport: wide }, { javaScriptEnabled: true, viewport: { width: 320, height: 640 } }]);
    contexts = [{ name: 'JavaScript off', context: off, scripts: false }, { name: 'JavaScript on', context: on, scripts: true }];
    narrow = small;
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const pages = () => ({
    dashboard: '/admin/',
    events: `/admin/events/?message=bulk&done=1&refused=${refusedId}:rest_forbidden&undo=${trashedId}`,
    categories: '/admin/categories/',
  });

  test('axe: no violations on the dashboard, the event list with a bulk result and a term list (JS off and on, en and da)', async () => {
    const problems: string[] = [];
    for (const { name, context, scripts } of contexts) {
      const page = await context.newPage();
      for (const edition of ['', '/da']) {
        for (const [kind, path] of Object.entries(pages())) {
          const response = await page.goto(`${base}${edition}${path}`);
          assert.equal(response?.status(), 200, `${edition}${path}`);
          assert.equal(await page.locator('h1').count(), 1);
          for (const violation of await axeViolationLines(page, !scripts)) problems.push(`${name} ${edition || '/en'} ${kind}: ${violation}`);
        }
      }
      await page.close();
    }
    assert.deepEqual(problems, []);
  });

  test('320 px: no page-level horizontal scrolling; the table scrolls inside its region', async () => {
    const page = await narrow.newPage();
    for (const [kind, path] of Object.entries(pages())) {
      await page.goto(`${base}${path}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.equal(overflow, 0, kind);
    }
    await page.goto(`${base}/admin/events/`);
    const region = await page.evaluate(() => {
      const element = document.querySelector('.table-region')!;
      return { scrolls: element.scrollWidth > element.clientWidth, overflowX: getComputedStyle(element).overflowX };
    });
    assert.equal(region.overflowX, 'auto');
    assert.ok(region.scrolls);
    await page.close();
  });

  test('screenshots of the dashboard and the event list; a bulk trash with Undo works without JavaScript', async () => {
    const { context } = contexts[0];
    const page = await context.newPage();
    await page.goto(`${base}/admin/`);
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-dashboard.png'), fullPage: true });
    await page.goto(`${base}/admin/events/`);
    await page.check(`#select-${trashedId}`);
    await page.selectOption('#bulk-action', 'trash');
    await page.click('.bulk-controls button[name=bulk_apply]');
    await page.waitForURL(/message=bulk/);
    assert.match(await page.locator('.bulk-result').innerText(), /1 updated/);
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-events.png'), fullPage: true });
    await page.click('.undo button');
    await page.waitForURL(/message=bulk&done=1$/);
    const restored = await t.storage.db.selectFrom('events').select('status').where('id', '=', trashedId).executeTakeFirst();
    assert.equal(restored?.status, 'publish');
    await page.close();
  });
});
