import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { EDITION_PREFIXES } from '../../src/i18n/catalog.ts';
import { axeViolationLines, browserSkip, launchChromium, SCREENSHOTS } from '../helpers/browser.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createSigninUser, signInOverHttp, startAdminApp } from '../admin/helpers.ts';

/** A day next month (the real clock runs). */
function nextMonth(): string {
  return new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Members' own submissions in headless Chromium (120 §9, §12): the list and the edit page pass
 * axe-core with JavaScript off and on, in every edition (en, da, it, es), at 1280 and 320 px without sideways
 * scrolling; a save through the browser lands back on the list. One app on SQLite (the HTTP suite
 * covers both databases).
 */
describe('members\' own submissions in a browser', { skip: browserSkip }, () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let cookie: string;
  let eventId: number;

  before(async () => {
    t = await startAdminApp('sqlite', { env: { CALENDAR_PUBLIC_URL: '', CALENDAR_SUBMISSIONS: 'members', CALENDAR_SUBMISSIONS_MIN_SECONDS: '0', CALENDAR_SUBMISSIONS_POW: 'off', CALENDAR_SUBMISSIONS_PER_HOUR: '1000' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
    const member = await createSigninUser(t, 'subscriber');
    cookie = (await signInOverHttp(origin, member)).value;
    const { page, close } = await open(false);
    await page.goto(`${origin}/events/community/add/`);
    await page.fill('[name="title"]', 'Browser choir');
    await page.fill('[name="start_date"]', nextMonth());
    await page.fill('[name="start_time"]', '19:00');
    await page.selectOption('[name="venue"]', 'new');
    await page.fill('[name="venue_new[venue]"]', 'Church hall');
    await Promise.all([page.waitForURL(`${origin}/events/community/thanks/`), page.click('form.submission-form button[type="submit"]')]);
    await close();
    eventId = (await t.storage.db.selectFrom('submissions').select('event_id').executeTakeFirstOrThrow()).event_id;
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  async function open(javaScriptEnabled: boolean, width = 1280) {
    const context = await browser.newContext({ javaScriptEnabled, viewport: { width, height: 900 } });
    await context.addCookies([{ name: 'cal_session', value: cookie, url: origin }]);
    const page = await context.newPage();
    return { page, close: () => context.close() };
  }

  const overflow = (page: Page) => page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');

  test('axe-core: list and edit pages, scripts off and on, every edition, 1280 and 320 px without sideways scroll', async () => {
    for (const scripts of [false, true]) {
      for (const [lang, edition] of Object.entries(EDITION_PREFIXES)) {
        for (const width of [1280, 320]) {
          const { page, close } = await open(scripts, width);
          for (const path of ['/events/community/list/', `/events/community/edit/${eventId}/`]) {
            const what = `${edition || 'en'}${path} scripts ${scripts} ${width}px`;
            const answer = await page.goto(`${origin}${edition}${path}`);
            assert.equal(answer?.status(), 200, what);
            assert.equal(await page.getAttribute('html', 'lang'), lang, what);
            assert.deepEqual(await axeViolationLines(page, !scripts), [], what);
            assert.equal(await overflow(page), 0, `no sideways scroll: ${what}`);
          }
          if (width === 320 && !scripts && edition === '') {
            await page.goto(`${origin}/events/community/list/`);
            await page.screenshot({ path: join(SCREENSHOTS, 'own-submissions-320.png'), fullPage: true });
          }
          await close();
        }
      }
    }
  });

  test('a save in the browser goes back to the list with its notice, scripts off and on', async () => {
    for (const scripts of [false, true]) {
      const { page, close } = await open(scripts);
      await page.goto(`${origin}/da/events/community/edit/${eventId}/`);
      await page.fill('[name="title"]', `Browser choir ${scripts}`);
      await Promise.all([page.waitForURL(`${origin}/da/events/community/list/?message=saved`), page.click('form.submission-form button[value="save"]')]);
      assert.match(await page.locator('[role="status"]').innerText(), /Dine ændringer er gemt/);
      assert.ok((await page.locator('main').innerText()).includes(`Browser choir ${scripts}`));
      assert.deepEqual(await axeViolationLines(page, !scripts), [], `list with notice, scripts ${scripts}`);
      await close();
    }
    const row = await t.storage.db.selectFrom('events').select(['title', 'status']).where('id', '=', eventId).executeTakeFirstOrThrow();
    assert.deepEqual(row, { title: 'Browser choir true', status: 'pending' });
  });
});
