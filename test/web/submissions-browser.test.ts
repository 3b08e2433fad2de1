import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axeViolationLines, browserSkip, launchChromium, SCREENSHOTS } from '../helpers/browser.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/** A day next month (the real clock runs: form tokens are judged by their age). */
function nextMonth(): string {
  const day = new Date(Date.now() + 30 * 86_400_000);
  return day.toISOString().slice(0, 10);
}

/**
 * The submission form in headless Chromium (120 §4–§6): without scripts the form posts and the
 * event waits unverified; with scripts the self-hosted ALTCHA widget solves the proof of work in
 * the page; a refused form answers in the visitor's language with its values; axe-core and 320 px.
 * One app on SQLite (the HTTP suites cover both databases).
 */
describe('submission form in a browser', { skip: browserSkip }, () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  const day = nextMonth();

  before(async () => {
    t = await startTestApp('sqlite', { env: { CALENDAR_PUBLIC_URL: '', CALENDAR_SUBMISSIONS: 'anyone', CALENDAR_SUBMISSIONS_MIN_SECONDS: '1', CALENDAR_SUBMISSIONS_POW: '1000', CALENDAR_SUBMISSIONS_PER_HOUR: '1000' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const open = async (javaScriptEnabled: boolean, width = 1280) => {
    const context = await browser.newContext({ javaScriptEnabled, viewport: { width, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    context.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    return { page, errors, requests, close: () => context.close() };
  };

  const fill = async (page: Page, title: string, endTime = '21:00') => {
    await page.fill('[name="title"]', title);
    await page.fill('[name="description"]', 'Songs and more');
    await page.fill('[name="start_date"]', day);
    await page.fill('[name="start_time"]', '19:00');
    await page.fill('[name="end_date"]', day);
    await page.fill('[name="end_time"]', endTime);
    await page.selectOption('[name="venue"]', 'new');
    await page.fill('[name="venue_new[venue]"]', 'Church hall');
    await page.fill('[name="submitter_name"]', 'Ada Submitter');
    await page.fill('[name="submitter_email"]', 'ada@example.org');
    // The minimum fill time (1 s) passes.
    await page.waitForTimeout(1200);
  };

  /** The stored submission of the event titled so, with its event's status. */
  const stored = async (title: string) => {
    const event = await t.storage.db.selectFrom('events').select(['id', 'status']).where('title', '=', title).executeTakeFirst();
    if (!event) return undefined;
    const submission = await t.storage.db.selectFrom('submissions').select(['flags']).where('event_id', '=', event.id).executeTakeFirstOrThrow();
    return { status: event.status, flags: submission.flags };
  };

  test('scripts off: the form posts, the event waits pending and unverified', async () => {
    const { page, close } = await open(false);
    await page.goto(`${origin}/events/community/add/`);
    await fill(page, 'No Script Choir');
    await Promise.all([page.waitForURL(`${origin}/events/community/thanks/`), page.click('form.submission-form button[type="submit"]')]);
    assert.match(await page.locator('h1').innerText(), /./);
    assert.deepEqual(await stored('No Script Choir'), { status: 'pending', flags: 'unverified' });
    await close();
  });

  test('scripts on: the ALTCHA widget solves the proof of work in the page, the submission is not flagged', async () => {
    const { page, errors, requests, close } = await open(true);
    await page.goto(`${origin}/events/community/add/`);
    await page.locator('altcha-widget').waitFor();
    await fill(page, 'Scripted Choir');
    await Promise.all([page.waitForURL(`${origin}/events/community/thanks/`, { timeout: 30_000 }), page.click('form.submission-form button[type="submit"]')]);
    assert.deepEqual(await stored('Scripted Choir'), { status: 'pending', flags: '' });
    assert.deepEqual(errors, []);
    assert.deepEqual(requests.filter((url) => !url.startsWith(`${origin}/`)), [], 'no third-party request');
    for (const path of ['/assets/submit.js', '/assets/altcha/altcha.js', '/assets/altcha/workers/pbkdf2.js']) assert.ok(requests.includes(origin + path), path);
    await close();
  });

  test('a refused form: the error summary in Danish, the values kept', async () => {
    for (const scripts of [false, true]) {
      const { page, close } = await open(scripts);
      await page.goto(`${origin}/da/events/community/add/`);
      await fill(page, `Kept Title ${scripts}`, '18:00');
      await Promise.all([page.waitForLoadState('load'), page.waitForResponse((r) => r.request().method() === 'POST', { timeout: 30_000 }), page.click('form.submission-form button[type="submit"]')]);
      await page.locator('#error-summary').waitFor();
      const summary = await page.locator('#error-summary').innerText();
      assert.ok(summary.includes('Begivenheden blev ikke sendt') && summary.includes('Slutningen ligger før starten.'), summary);
      assert.equal(await page.locator('html').getAttribute('lang'), 'da');
      assert.equal(await page.inputValue('[name="title"]'), `Kept Title ${scripts}`);
      assert.equal(await page.inputValue('[name="end_time"]'), '18:00');
      assert.equal(await stored(`Kept Title ${scripts}`), undefined);
      await close();
    }
  });

  test('axe-core: no violations, empty and refused, scripts off and on, English and Danish; no overflow at 320 px', async () => {
    for (const scripts of [false, true]) {
      for (const edition of ['', '/da']) {
        const { page, close } = await open(scripts);
        await page.goto(`${origin}${edition}/events/community/add/`);
        if (scripts) await page.locator('altcha-widget input[type="checkbox"]').waitFor();
        assert.deepEqual(await axeViolationLines(page, !scripts), [], `empty ${edition || 'en'} scripts ${scripts}`);
        await fill(page, `Axe ${edition} ${scripts}`, '18:00');
        await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST', { timeout: 30_000 }), page.click('form.submission-form button[type="submit"]')]);
        await page.waitForLoadState('load');
        if (scripts) await page.locator('altcha-widget input[type="checkbox"]').waitFor();
        assert.deepEqual(await axeViolationLines(page, !scripts), [], `422 ${edition || 'en'} scripts ${scripts}`);
        await close();
      }
    }
    const { page, close } = await open(true, 320);
    await page.goto(`${origin}/events/community/add/`);
    await page.locator('altcha-widget input[type="checkbox"]').waitFor();
    const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    assert.equal(overflow, 0, 'no horizontal scrolling at 320 px');
    await page.screenshot({ path: join(SCREENSHOTS, 'submission-form.png'), fullPage: true });
    await close();
  });
});
