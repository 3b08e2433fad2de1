import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startPageFixture, type PageFixture } from './fixture.ts';

const CHROMIUM = '/usr/bin/chromium';
const required = process.env.TEST_BROWSER_REQUIRED === '1';
const skip = !existsSync(CHROMIUM) && !required ? `no ${CHROMIUM} (apt-get install -y chromium); TEST_BROWSER_REQUIRED=1 makes this a failure` : false;
const SCREENSHOTS = join(process.cwd(), 'test-output', 'screenshots');
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const EDITIONS = ['', '/da', '/it', '/es'];

interface AxeSummary {
  violations: Array<{ id: string; nodes: Array<{ target: string[] }> }>;
}

/**
 * axe-core injected into the page. It schedules its work with timers, which do not run while page
 * scripts are disabled; evaluated code still runs and settles promises, so there a promise stands
 * in for the timer. Only violations are collected (the passes are not needed, and cost time).
 */
async function axe(page: Page, scriptsDisabled: boolean): Promise<AxeSummary> {
  if (scriptsDisabled) {
    // A string: the test's compiler would wrap named functions in a helper the page lacks.
    await page.evaluate('let timer = 0; globalThis.setTimeout = (callback) => { void Promise.resolve().then(callback); return ++timer; }; globalThis.clearTimeout = () => {};');
  }
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    const result = await (globalThis as any).axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return { violations: result.violations.map((v: any) => ({ id: v.id, nodes: v.nodes.map((n: any) => ({ target: n.target })) })) };
  }, AXE_TAGS);
}

/**
 * The pages in headless Chromium (55 §15): one browser for the whole file, four contexts reused
 * throughout — page scripts disabled and enabled, each at desktop width and at 320 × 640 — over
 * one fixture on SQLite (the HTTP suite covers both databases).
 */
describe('public calendar pages in a browser', { skip }, () => {
  let f: PageFixture;
  let origin: string;
  let browser: Browser;
  let noScript: BrowserContext;
  let desktop: BrowserContext;
  let narrow: BrowserContext;
  let narrowNoScript: BrowserContext;
  const problems: string[] = [];
  const axeRuns: string[] = [];

  const pageTypes = () => ({
    month: '/events/2026-04/',
    list: '/events/list/',
    day: '/events/2026-04-20/',
    single: `/event/${f.slugs.concert}/`,
    venue: `/venue/${f.venueSlug}/`,
    organizer: `/organizer/${f.organizerSlug}/`,
    archive: '/events/category/music/jazz/',
  });

  before(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`TEST_BROWSER_REQUIRED=1 but ${CHROMIUM} is missing (apt-get install -y chromium)`);
    // Links from the request's Host, so that they point at this very server.
    f = await startPageFixture('sqlite', { CALENDAR_PUBLIC_URL: '' });
    await f.t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(f.t.app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    noScript = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    desktop = await browser.newContext({ javaScriptEnabled: true, viewport: { width: 1280, height: 900 } });
    narrow = await browser.newContext({ javaScriptEnabled: true, viewport: { width: 320, height: 640 } });
    narrowNoScript = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 320, height: 640 } });
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await f?.t.close();
    if (axeRuns.length > 0) console.log(`axe-core ${AXE_TAGS.join(',')}: ${axeRuns.length} runs (${new Set(axeRuns.map((run) => run.split(' ')[0])).size} pages × scripts off/on × 1280/320 px), 0 violations`);
  });

  /** One tab per context, reused: opening tabs is slow on a shared machine. */
  const tabs = new Map<BrowserContext, Page>();
  const open = async (context: BrowserContext, path: string): Promise<Page> => {
    let page = tabs.get(context);
    if (!page) {
      page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`${page!.url()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`${page!.url()}: ${error.message}`));
      tabs.set(context, page);
    }
    const response = await page.goto(origin + path);
    assert.equal(response?.status(), 200, path);
    return page;
  };

  const configurations = () => [
    { name: 'scripts off', context: noScript, scriptsDisabled: true, narrow: false },
    { name: 'scripts on', context: desktop, scriptsDisabled: false, narrow: false },
    { name: 'scripts off, 320px', context: narrowNoScript, scriptsDisabled: true, narrow: true },
    { name: 'scripts on, 320px', context: narrow, scriptsDisabled: false, narrow: true },
  ];

  test('axe: zero WCAG 2.2 AA violations on every page type in every edition, scripts off and on, at 1280 and 320 px; no sideways scrolling at 320 px; screenshots', async () => {
    for (const configuration of configurations()) {
      for (const edition of EDITIONS) {
        for (const [type, path] of Object.entries(pageTypes())) {
          const page = await open(configuration.context, edition + path);
          if (configuration.narrow) {
            const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
            assert.ok(overflow <= 0, `${edition}${path} scrolls sideways by ${overflow}px`);
          }
          const result = await axe(page, configuration.scriptsDisabled);
          assert.deepEqual(result.violations, [], `${edition}${path} (${configuration.name})`);
          axeRuns.push(`${edition}${path} ${configuration.name}`);
          // Every type in English, the month in every edition; desktop and narrow, scripts off.
          if (configuration.scriptsDisabled && (edition === '' || type === 'month')) {
            const file = `page-${type}-${edition.slice(1) || 'en'}${configuration.narrow ? '-320' : ''}.png`;
            await page.screenshot({ path: join(SCREENSHOTS, file), fullPage: true });
          }
        }
      }
    }
    assert.deepEqual(problems, [], 'no console errors');
  });

  test('the script: month navigation and the view switch in place, focus on the new h1, history; arrow keys in the grid', async () => {
    const page = await open(desktop, '/events/2026-04/');
    await page.evaluate(() => Object.assign(globalThis, { samePage: true }));
    await page.getByRole('link', { name: 'Next month: May' }).click();
    await page.waitForURL(/\/events\/2026-05\/$/);
    await page.locator('h1', { hasText: 'May 2026' }).waitFor();
    assert.equal(await page.evaluate(() => (globalThis as any).samePage), true, 'no page load');
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'H1');
    assert.equal(await page.title(), 'May 2026 – Town Calendar');
    assert.equal(await page.locator('[aria-live="polite"]').innerText(), 'May 2026');
    assert.equal(await page.inputValue('#bar-date'), '2026-05');
    await page.locator('nav[aria-label="Calendar views"]').getByRole('link', { name: 'List' }).click();
    await page.locator('h1', { hasText: 'Events from' }).waitFor();
    assert.equal(await page.getAttribute('#bar-date', 'type'), 'date');
    await page.goBack();
    await page.locator('h1', { hasText: 'May 2026' }).waitFor();
    await page.goBack();
    await page.locator('h1', { hasText: 'April 2026' }).waitFor();
    assert.equal(await page.evaluate(() => (globalThis as any).samePage), true, 'no page load');

    await page.locator('td a[href="/events/2026-04-12/"]').focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('href')), '/events/2026-04-14/', 'the next day with events');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('href')), '/events/2026-04-21/');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('href')), '/events/2026-04-20/');
    assert.deepEqual(problems, []);
  });

  test('keyboard: the skip link first, Enter moves to main, visible focus in reading order', async () => {
    const page = await open(narrow, '/events/list/');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.className), 'skip');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'main');
    // From the top again: Tab walks the whole page in reading order, each stop visibly focused.
    await page.goto(`${origin}/events/list/`);
    let stops = 0;
    for (; stops < 80; stops++) {
      await page.keyboard.press('Tab');
      const state = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement;
        if (element === document.body) return null;
        const previous = document.querySelector('[data-visited-last]');
        // A date field keeps focus while Tab moves through its parts.
        const after = previous === null || previous === element || (previous.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
        previous?.removeAttribute('data-visited-last');
        element.setAttribute('data-visited-last', '');
        const style = getComputedStyle(element);
        // On a date field's own picker button the focus sits inside the browser's shadow tree,
        // where Chromium draws its ring; the field itself is then not :focus.
        const native = element instanceof HTMLInputElement && !element.matches(':focus');
        return { after, native, outline: parseFloat(style.outlineWidth), style: style.outlineStyle, what: element.outerHTML.slice(0, 80) };
      });
      if (state === null) break; // past the last stop
      assert.ok(state.after, `focus went backwards at ${state.what}`);
      if (!state.native) assert.ok(state.style !== 'none' && state.outline >= 2, `no visible focus (${state.style} ${state.outline}) on ${state.what}`);
    }
    assert.ok(stops > 20 && stops < 80, `${stops} tab stops`);
  });

  test('search: a keyword and Enter filter all three views; the date field moves the month', async () => {
    const page = await open(noScript, '/events/month/');
    await page.fill('#bar-search', 'busy');
    await page.press('#bar-search', 'Enter');
    await page.waitForURL(/tribe-bar-search=busy/);
    assert.equal(await page.locator('h1').innerText(), 'April 2026');
    assert.equal(await page.locator('table.month a[href^="/event/"]').count(), 3);
    for (const view of ['List', 'Day']) {
      await page.locator('nav[aria-label="Calendar views"]').getByRole('link', { name: view }).click();
      assert.match(page.url(), /tribe-bar-search=busy/);
      const titles = await page.locator('main article h3').allInnerTexts();
      assert.ok(titles.every((title) => title.startsWith('Busy Day Talk')), `${view}: ${titles.join(', ')}`);
    }
    await page.goto(`${origin}/events/month/`);
    await page.fill('#bar-date', '2026-05');
    await page.press('#bar-date', 'Enter');
    await page.waitForURL(/tribe-bar-date=2026-05/);
    assert.equal(await page.locator('h1').innerText(), 'May 2026');
  });

  test('month: "+ 2 More" leads to the busy day; the Danish edition keeps its prefix on every link', async () => {
    const page = await open(noScript, '/events/2026-04/');
    await page.getByRole('link', { name: '+ 2 more events on Monday, April 20, 2026' }).click();
    assert.equal(new URL(page.url()).pathname, '/events/2026-04-20/');
    assert.equal(await page.locator('main article').count(), 6);
    await page.goto(`${origin}/da/events/`);
    assert.equal(await page.getAttribute('html', 'lang'), 'da');
    assert.equal(await page.locator('h1').innerText(), 'april 2026');
    const links = await page.locator('a[href^="/"]').evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')!));
    const english = links.filter((href) => !href.startsWith('/da/') && !href.startsWith('/it/') && !href.startsWith('/es/') && href !== '/events/' && !/^\/events\/\d/.test(href));
    assert.deepEqual(english, []);
  });
});
