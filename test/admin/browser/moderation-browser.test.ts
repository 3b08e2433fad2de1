import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { axeViolationLines, browserSkip, launchChromium, SCREENSHOTS } from '../../helpers/browser.ts';
import type { TestApp } from '../../helpers/test-app.ts';
import { submitForm, validFields } from '../../api/submissions/helpers.ts';
import { createSigninUser, signInOverHttp, startAdminApp } from '../helpers.ts';

/**
 * 120 §8.1 in Chromium: the pending list with submissions and the dashboard pass axe with
 * JavaScript off and on, in English and Danish, at 1280 and 320 px; a row's decision form (its
 * controls outside the form, joined by `form=`) and the bulk decisions work in the browser.
 * One app on SQLite (the HTTP suite covers both databases).
 */
describe('back office moderation in a browser', { skip: browserSkip }, () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let cookie: { name: string; value: string; url: string };
  const ids: number[] = [];
  const LIST = '/admin/events/?status=pending&submissions=1';

  before(async () => {
    t = await startAdminApp('sqlite', {
      env: { CALENDAR_PUBLIC_URL: '', CALENDAR_SUBMISSIONS: 'anyone', CALENDAR_SUBMISSIONS_MIN_SECONDS: '0', CALENDAR_SUBMISSIONS_PER_HOUR: '1000', CALENDAR_SMTP_URL: 'smtp://127.0.0.1:1', CALENDAR_MAIL_FROM: 'calendar@example.org' },
    });
    for (const [index, title] of ['Choir evening', 'Harbour walk', 'Free money'].entries()) {
      const fields = validFields({ title, 'venue_new[venue]': `${title} hall`, submitter_name: `Submitter ${index}`, submitter_email: `s${index}@example.org` });
      assert.equal((await submitForm(t, () => {}, fields, { remoteAddress: `192.0.2.${index + 1}`, wait: 0 })).status, 303);
      const row = await t.storage.db.selectFrom('events').select('id').where('title', '=', title).executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const session = await signInOverHttp(origin, await createSigninUser(t, 'administrator'));
    cookie = { name: 'cal_session', value: session.value, url: origin };
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const context = async (javaScriptEnabled: boolean, width = 1280): Promise<BrowserContext> => {
    const created = await browser.newContext({ javaScriptEnabled, viewport: { width, height: 900 } });
    await created.addCookies([cookie]);
    return created;
  };

  test('axe: no violations on the pending list with submissions and the dashboard (JS off and on, en and da, 1280 and 320 px)', async () => {
    const problems: string[] = [];
    for (const scripts of [false, true]) {
      for (const width of [1280, 320]) {
        const browsing = await context(scripts, width);
        const page = await browsing.newPage();
        for (const edition of ['', '/da']) {
          for (const path of [LIST, '/admin/']) {
            const response = await page.goto(`${origin}${edition}${path}`);
            assert.equal(response?.status(), 200, `${edition}${path}`);
            assert.equal(await page.locator('h1').count(), 1);
            const where = `${scripts ? 'JS on' : 'JS off'} ${width}px ${edition || '/en'}${path}`;
            for (const violation of await axeViolationLines(page, !scripts)) problems.push(`${where}: ${violation}`);
            const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
            if (overflow > 0) problems.push(`${where}: the page scrolls sideways by ${overflow} px`);
          }
        }
        if (width === 1280 && !scripts) {
          await page.goto(`${origin}${LIST}`);
          await page.screenshot({ path: join(SCREENSHOTS, 'admin-moderation-list.png'), fullPage: true });
        }
        await browsing.close();
      }
    }
    assert.deepEqual(problems, []);
  });

  test('without JavaScript a row rejects with a reason; with JavaScript the bulk control approves', async () => {
    const plain = await context(false);
    const page = await plain.newPage();
    await page.goto(`${origin}${LIST}`);
    await page.selectOption(`#field-decision-${ids[2]}`, 'reject');
    await page.fill(`#field-reason-${ids[2]}`, 'Not an event');
    await page.uncheck(`#field-notify-${ids[2]}`);
    await page.click(`button[form="moderate-${ids[2]}"]`);
    await page.waitForURL(/message=moderated_reject/);
    assert.match(await page.locator('.admin-status').innerText(), /The event was rejected\./);
    const rejected = await t.storage.db.selectFrom('submissions').select(['decision', 'reason']).where('event_id', '=', ids[2]).executeTakeFirstOrThrow();
    assert.deepEqual(rejected, { decision: 'rejected', reason: 'Not an event' });
    assert.equal((await t.storage.db.selectFrom('mail_messages').select('id').where('event_id', '=', ids[2]).execute()).length, 0, 'notify unchecked: no mail');
    await plain.close();

    const scripted = await context(true);
    const bulk = await scripted.newPage();
    await bulk.goto(`${origin}/da${LIST}`);
    await bulk.check(`#select-${ids[0]}`);
    await bulk.check(`#select-${ids[1]}`);
    await bulk.selectOption('#bulk-action', 'approve');
    await bulk.click('.bulk-controls button[name=bulk_apply]');
    await bulk.waitForURL(/message=bulk&done=2$/);
    const statuses = await t.storage.db.selectFrom('events').select('status').where('id', 'in', ids.slice(0, 2)).execute();
    assert.deepEqual(statuses.map((row) => row.status), ['publish', 'publish']);
    await scripted.close();
  });
});
