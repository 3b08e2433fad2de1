import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axeViolationLines, launchChromium, SCREENSHOTS, skip } from '../../helpers/browser.ts';
import { NS, type TestApp } from '../../helpers/test-app.ts';
import { signedInContexts, startBrowserAdminApp } from '../browser-session.ts';
import { createSigninUser, signInBrowser, type SigninUser } from '../helpers.ts';
import { translate, type Language } from '../../../src/i18n/catalog.ts';

/**
 * The event editor in Chromium (100 §17 item 12, the editor's part): a weekly series with a new
 * venue by form with JavaScript off, the live preview and the unsaved-changes warning with it on,
 * axe-core on every editor state in English and Danish with JavaScript off and on, 320 px reflow;
 * in Italian and Spanish the event list and the editor's states with JavaScript off and on.
 */
describe('event editor in a browser', { skip }, () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let user: SigninUser;
  const contexts: Record<string, BrowserContext> = {};
  let seriesId = 0;

  before(async () => {
    ({ t, origin } = await startBrowserAdminApp());
    user = await createSigninUser(t, 'editor');
    await t.request('POST', `${NS}/venues`, { as: 'editor', body: { venue: 'Concert hall', status: 'publish' } });
    await t.request('POST', `${NS}/venues`, { as: 'editor', body: { venue: 'Harbour stage', status: 'publish' } });
    browser = await launchChromium();
    const shapes = [['off', false, 1280], ['on', true, 1280], ['narrow', true, 320], ['narrowOff', false, 320]] as const;
    const signedIn = await signedInContexts(browser, origin, user, shapes.map(([, javaScriptEnabled, width]) => ({ javaScriptEnabled, viewport: { width, height: 900 } })));
    shapes.forEach(([name], index) => (contexts[name] = signedIn[index]));
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const open = async (context: string, path: string): Promise<Page> => {
    const page = await contexts[context].newPage();
    const response = await page.goto(`${origin}${path}`);
    assert.ok(response !== null && response.status() < 500, path);
    return page;
  };

  test('JavaScript off: sign in, create a weekly series with a new venue by form', async () => {
    const fresh = await browser.newContext({ javaScriptEnabled: false });
    const page = await fresh.newPage();
    await signInBrowser(page, origin, user);
    await page.goto(`${origin}/admin/events/new`);
    await page.fill('#field-title', 'Thursday folk');
    await page.fill('#field-start_date', '2027-04-01');
    await page.fill('#field-start_time', '19:00');
    await page.fill('#field-end_time', '21:30');
    await page.selectOption('#field-timezone', 'Europe/Copenhagen');
    await page.selectOption('#field-venue', 'new');
    await page.fill('#field-venue_new-venue', 'Folk house');
    await page.fill('#field-venue_new-city', 'Odense');
    await page.selectOption('#field-recurrence_pattern', 'weekly');
    await page.check('#field-recurrence_weekdays-TH');
    await page.check('#field-recurrence_end-count');
    await page.fill('#field-recurrence_count', '8');
    await page.click('button[name=action][value=preview_dates]');
    assert.equal(await page.locator('#preview-dates time').count(), 8);
    await page.click('button[name=action][value=publish]');
    await page.waitForURL(/\/admin\/events\/\d+\/\?message=event_published$/);
    seriesId = Number(/events\/(\d+)\//.exec(page.url())![1]);
    const api = (await t.request('GET', `${NS}/events/${seriesId}`, { as: 'editor' })).body;
    assert.equal(api.recurrence.rrule, 'FREQ=WEEKLY;BYDAY=TH;COUNT=8');
    assert.equal(api.venue.venue, 'Folk house');
    assert.equal(await page.inputValue('#field-recurrence_count'), '8');
    await fresh.close();
  });

  test('JavaScript on: live preview, venue search, unsaved-changes warning', async () => {
    const page = await open('on', `/admin/events/${seriesId}/`);
    await page.fill('#field-recurrence_count', '3');
    await page.waitForFunction(() => document.querySelectorAll('#preview-dates time').length === 3, undefined, { timeout: 10_000 });
    await page.waitForFunction(() => (document.getElementById('preview-status')?.textContent ?? '') !== '', undefined, { timeout: 5_000 });

    await page.fill('#venue-search', 'harbour');
    await page.waitForFunction(() => {
      const select = document.getElementById('field-venue') as HTMLSelectElement;
      const shown = [...select.options].filter((option) => !option.hidden).map((option) => option.text);
      return shown.some((text) => text.startsWith('Harbour')) && !shown.some((text) => text.startsWith('Concert'));
    }, undefined, { timeout: 10_000 });

    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.type());
      void dialog.dismiss();
    });
    await page.close({ runBeforeUnload: true });
    for (let waited = 0; dialogs.length === 0 && waited < 5000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(dialogs, ['beforeunload']);
  });

  test('axe: no violations on the editor (new, existing, 422, 409) in English and Danish, JavaScript off and on; 320 px reflow', async () => {
    const problems: string[] = [];
    for (const lang of ['', '/da']) {
      for (const context of ['off', 'on', 'narrow']) {
        const check = async (label: string, page: Page) => {
          const violations = await axeViolationLines(page, context === 'off');
          if (violations.length > 0) problems.push(`${lang || '/en'} ${context} ${label}: ${violations.join('; ')}`);
          if (context === 'narrow') {
            const width = await page.evaluate(() => document.documentElement.scrollWidth);
            if (width > 320) problems.push(`${lang || '/en'} ${label}: page is ${width}px wide at 320px`);
          }
        };
        await check('new', await open(context, `${lang}/admin/events/new`));
        const existing = await open(context, `${lang}/admin/events/${seriesId}/`);
        await check('existing', existing);

        // 422: a website the API refuses.
        await existing.fill('#field-website', 'not a url');
        await existing.click('button[name=action][value=save]');
        await existing.waitForSelector('#error-summary');
        if (context !== 'off') assert.equal(await existing.evaluate(() => document.activeElement?.id), 'error-summary');
        await check('422', existing);

        // 409: saved elsewhere meanwhile.
        const stale = await open(context, `${lang}/admin/events/${seriesId}/`);
        await t.request('POST', `${NS}/events/${seriesId}`, { as: 'editor', body: { excerpt: `elsewhere ${lang}${context}` } });
        await stale.fill('#field-cost', '15');
        await stale.click('button[name=action][value=save]');
        await stale.waitForSelector('#error-summary');
        await check('409', stale);
        if (lang === '' && context === 'narrow') {
          mkdirSync(SCREENSHOTS, { recursive: true });
          await existing.screenshot({ path: join(SCREENSHOTS, 'admin-editor-320.png'), fullPage: true });
        }
      }
    }
    const shot = await open('on', `/admin/events/${seriesId}/`);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await shot.screenshot({ path: join(SCREENSHOTS, 'admin-editor.png'), fullPage: true });
    assert.deepEqual(problems, []);
  });

  // The other editions share the markup: their own texts (lengths, lang attributes) are what can
  // break it. One page per edition and JavaScript setting, so the added run stays short.
  test('axe: no violations on the event list and the editor (existing, 422) in Italian and Spanish, JavaScript off and on', async () => {
    const problems: string[] = [];
    for (const language of ['it', 'es'] as Language[]) {
      for (const context of ['off', 'on']) {
        const page = await contexts[context].newPage();
        const check = async (label: string, heading: string) => {
          assert.equal(await page.locator('h1').textContent(), heading, `${language} ${label}`);
          const violations = await axeViolationLines(page, context === 'off');
          if (violations.length > 0) problems.push(`${language} ${context} ${label}: ${violations.join('; ')}`);
        };
        assert.equal((await page.goto(`${origin}/${language}/admin/events/`))?.status(), 200);
        await check('list', translate(language, 'admin_lists_events'));
        assert.equal((await page.goto(`${origin}/${language}/admin/events/${seriesId}/`))?.status(), 200);
        await check('existing', translate(language, 'admin_editor_title_edit'));
        await page.fill('#field-website', 'not a url');
        await page.click('button[name=action][value=save]');
        await page.waitForSelector('#error-summary');
        await check('422', translate(language, 'admin_editor_title_edit'));
        await page.close();
      }
    }
    assert.deepEqual(problems, []);
  });
});
