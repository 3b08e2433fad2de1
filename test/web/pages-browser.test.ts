import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { colord } from 'colord';
import { darkAccent, DEFAULT_ACCENT } from '../../src/web/theme/colours.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { AXE_TAGS, axeViolations, browserSkip, launchChromium, SCREENSHOTS } from '../helpers/browser.ts';
import { EDITIONS, NOW, SITE_ZONE, startPageFixture, type PageFixture } from './fixture.ts';

/** A configured accent just above the 4.5:1 floor: the hardest one the setting lets through. */
const BRAND_ACCENT = '#d6336c';
const LOGO_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="0 0 40 40"><circle cx="20" cy="20" r="18" fill="#d6336c"/><path d="M12 20h16M20 12v16" stroke="#fff" stroke-width="4"/></svg>';
const CUSTOM_CSS = '.site-footer{border-top-width:3px}';

/** `rgb(r, g, b)` as computed styles write a `#rrggbb` colour. */
function rgb(hex: string): string {
  const { r, g, b } = colord(hex).toRgb();
  return `rgb(${r}, ${g}, ${b})`;
}

/**
 * The pages in headless Chromium (55 §15): one browser for the whole file, four contexts reused
 * throughout — page scripts disabled and enabled, each at desktop width and at 320 × 640 — over
 * one fixture on SQLite (the HTTP suite covers both databases).
 */
describe('public calendar pages in a browser', { skip: browserSkip }, () => {
  let f: PageFixture;
  let origin: string;
  let browser: Browser;
  let noScript: BrowserContext;
  let desktop: BrowserContext;
  let narrow: BrowserContext;
  let narrowNoScript: BrowserContext;
  /** The brand settings' checks: their own tabs, since they switch the emulated media. */
  let themed: BrowserContext;
  let phone: BrowserContext;
  /** A second instance on the fixture's database with an accent, a logo and a custom stylesheet. */
  let brand: TestApp;
  let brandOrigin: string;
  let brandFiles: string;
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
    // Links from the request's Host, so that they point at this very server.
    f = await startPageFixture('sqlite', { CALENDAR_PUBLIC_URL: '' });
    await f.t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(f.t.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
    noScript = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    desktop = await browser.newContext({ javaScriptEnabled: true, viewport: { width: 1280, height: 900 } });
    narrow = await browser.newContext({ javaScriptEnabled: true, viewport: { width: 320, height: 640 } });
    narrowNoScript = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 320, height: 640 } });
    themed = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    phone = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    brandFiles = mkdtempSync(join(tmpdir(), 'calendar-brand-'));
    writeFileSync(join(brandFiles, 'logo.svg'), LOGO_SVG);
    writeFileSync(join(brandFiles, 'custom.css'), CUSTOM_CSS);
    brand = await startTestApp('sqlite', {
      sharing: f.t,
      clock: () => NOW,
      env: {
        CALENDAR_TIMEZONE: SITE_ZONE,
        CALENDAR_SITE_NAME: 'Town Calendar',
        CALENDAR_PUBLIC_URL: '',
        CALENDAR_ACCENT_COLOR: BRAND_ACCENT,
        CALENDAR_LOGO_FILE: join(brandFiles, 'logo.svg'),
        CALENDAR_CUSTOM_CSS: join(brandFiles, 'custom.css'),
      },
    });
    await brand.app.listen({ port: 0, host: '127.0.0.1' });
    brandOrigin = `http://127.0.0.1:${(brand.app.server.address() as AddressInfo).port}`;
  });

  after(async () => {
    await browser?.close();
    await brand?.close();
    await f?.t.close();
    if (brandFiles) rmSync(brandFiles, { recursive: true, force: true });
    if (axeRuns.length > 0) console.log(`axe-core ${AXE_TAGS.join(',')}: ${axeRuns.length} runs (${new Set(axeRuns.map((run) => run.split(' ')[0])).size} pages × scripts off/on × 1280/320 px), 0 violations`);
  });

  /** One tab per context, reused: opening tabs is slow on a shared machine. */
  const tabs = new Map<BrowserContext, Page>();
  /** In the given colour scheme from the start: switching after the load would show colours mid-transition. */
  const open = async (context: BrowserContext, path: string, server = origin, colorScheme?: 'light' | 'dark'): Promise<Page> => {
    let page = tabs.get(context);
    if (!page) {
      page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`${page!.url()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`${page!.url()}: ${error.message}`));
      tabs.set(context, page);
    }
    if (colorScheme) await page.emulateMedia({ colorScheme });
    const response = await page.goto(server + path);
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
          assert.deepEqual(await axeViolations(page, configuration.scriptsDisabled), [], `${edition}${path} (${configuration.name})`);
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
  const themePages = () => ({
    month: '/events/2026-04/',
    list: '/events/list/',
    single: `/event/${f.slugs.concert}/`,
    venue: `/venue/${f.venueSlug}/`,
  });

  test('themes: axe finds no violation (colour contrast included) in the light and the dark theme, with the default and a configured accent; screenshots at 1280 and 390 px', async () => {
    const runs: string[] = [];
    for (const [accent, server] of [[DEFAULT_ACCENT, origin], [BRAND_ACCENT, brandOrigin]] as const) {
      for (const colorScheme of ['light', 'dark'] as const) {
        for (const [type, path] of Object.entries(themePages())) {
          const page = await open(themed, path, server, colorScheme);
          assert.deepEqual(await axeViolations(page, true), [], `${path} (${colorScheme}, accent ${accent})`);
          runs.push(`${type} ${colorScheme} ${accent}`);
          if (server === brandOrigin && type !== 'venue') {
            await page.screenshot({ path: join(SCREENSHOTS, `theme-${type}-${colorScheme}-1280.png`), fullPage: true });
            const small = await open(phone, path, server, colorScheme);
            const overflow = await small.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
            assert.ok(overflow <= 0, `${path} scrolls sideways by ${overflow}px at 390 px`);
            await small.screenshot({ path: join(SCREENSHOTS, `theme-${type}-${colorScheme}-390.png`), fullPage: true });
          }
        }
      }
    }
    assert.equal(runs.length, 16);
  });

  test('the accent: links, the primary button and today carry it, its dark variant in the dark theme; the default is #0b57a4', async () => {
    const colours = async (server: string, colorScheme: 'light' | 'dark') => {
      const page = await open(themed, '/events/2026-04/', server, colorScheme);
      const style = (selector: string, property: 'color' | 'backgroundColor') => page.locator(selector).first().evaluate((element, name) => getComputedStyle(element)[name as 'color'], property);
      return {
        link: await style('a[href="/events/2026-04-12/"]', 'color'),
        button: await style('.bar button[type="submit"]', 'backgroundColor'),
        today: await style('td[aria-current="date"] .day-number > time', 'backgroundColor'),
        featured: await style('.featured-label', 'backgroundColor'),
      };
    };
    const every = (colour: string) => ({ link: colour, button: colour, today: colour, featured: colour });
    assert.deepEqual(await colours(brandOrigin, 'light'), every(rgb(BRAND_ACCENT)));
    assert.deepEqual(await colours(brandOrigin, 'dark'), every(rgb(darkAccent(BRAND_ACCENT))));
    assert.deepEqual(await colours(origin, 'light'), every(rgb(DEFAULT_ACCENT)));
    assert.notEqual(darkAccent(BRAND_ACCENT), BRAND_ACCENT, 'the dark theme needs a lighter variant');
  });

  test('the logo: in the header with the site name as alt, its own width and height, linking home, served from our origin under a hashed name', async () => {
    const page = await open(themed, '/events/list/', brandOrigin, 'light');
    const logo = page.locator('header img.site-logo');
    assert.equal(await logo.getAttribute('alt'), 'Town Calendar');
    assert.equal(await logo.getAttribute('width'), '40');
    assert.equal(await logo.getAttribute('height'), '40');
    assert.ok(await logo.isVisible());
    assert.ok(await logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth === 40), 'the image loaded');
    assert.equal(await logo.evaluate((image) => image.closest('a')?.getAttribute('href')), '/events/');
    assert.equal(await page.getByRole('link', { name: 'Town Calendar', exact: true }).count(), 1, 'the link is named once, by the alt');
    const src = (await logo.getAttribute('src'))!;
    assert.match(src, /^\/assets\/logo-[\w-]{10}\.svg$/);
    const response = await fetch(brandOrigin + src);
    assert.equal(response.headers.get('content-type'), 'image/svg+xml');
    assert.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(await response.text(), LOGO_SVG);
    const plain = await open(themed, '/events/list/', origin, 'light');
    assert.equal(await plain.locator('header img').count(), 0, 'no logo configured, none shown');
  });

  test('the custom stylesheet: linked after ours on every page type and edition, and applied', async () => {
    const page = await themed.newPage();
    try {
      const types = { ...pageTypes(), day: '/events/2026-04-20/', 'not found': '/events/nowhere/', 'danish month': '/da/events/2026-04/' };
      for (const [type, path] of Object.entries(types)) {
        await page.goto(brandOrigin + path);
        const sheets = await page.locator('link[rel="stylesheet"]').evaluateAll((links) => links.map((link) => link.getAttribute('href')!));
        assert.equal(sheets.length, 2, type);
        assert.match(sheets[0], /^\/assets\/calendar-[\w-]{10}\.css$/, type);
        assert.match(sheets[1], /^\/assets\/custom-[\w-]{10}\.css$/, type);
        assert.equal(await page.locator('footer').evaluate((footer) => getComputedStyle(footer).borderTopWidth), '3px', type);
      }
      await page.goto(origin + '/events/list/');
      assert.equal(await page.locator('link[rel="stylesheet"]').count(), 1, 'none configured, ours alone');
    } finally {
      await page.close();
    }
  });

  test('print: list, day and single pages without header navigation, events bar, menus and footer, with date, time, venue and address; light colours even when dark is preferred', async () => {
    const page = await open(themed, '/events/list/', brandOrigin, 'light');
    for (const path of ['/events/list/', '/events/2026-04-20/', `/event/${f.slugs.concert}/`]) {
      await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
      await page.goto(brandOrigin + path);
      const shown = (selector: string) => page.locator(selector).evaluateAll((elements) => elements.map((element) => getComputedStyle(element).display !== 'none'));
      for (const hidden of ['header nav', '.bar', 'footer', 'details.menu', 'nav.paging', '.skip']) {
        assert.ok((await shown(hidden)).every((visible) => !visible), `${path}: ${hidden} printed`);
      }
      assert.ok((await shown('main time')).length > 0 && (await shown('main time')).every(Boolean), `${path}: dates and times printed`);
      assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), 'rgb(255, 255, 255)');
    }
    await page.emulateMedia({ media: 'print', colorScheme: 'light' });
    await page.goto(`${brandOrigin}/event/${f.slugs.concert}/`);
    const venue = await page.locator('section.venue').innerText();
    assert.match(venue, /Harbour Hall/);
    assert.match(venue, /Kajgade 1, Aarhus, 8000, Denmark/);
    assert.match(await page.locator('dl.details').innerText(), /7:30 pm – 10:00 pm/);
    await page.emulateMedia({ media: null });
  });
});
