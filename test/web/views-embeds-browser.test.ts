import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { NS, startTestApp, type TestApp } from '../helpers/test-app.ts';
import { axeViolations, browserSkip, launchChromium, SCREENSHOTS } from '../helpers/browser.ts';
import { NOW, SITE_ZONE, startPageFixture, type PageFixture } from './fixture.ts';

/** A server on another origin (`localhost` rather than `127.0.0.1`, another port) answering one page per path. */
async function hostSite(pages: Record<string, string>): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const body = pages[request.url ?? ''];
    response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://localhost:${(server.address() as AddressInfo).port}` };
}

/**
 * Embeds in headless Chromium (130 §13.6): `<calendar-events>` and the iframe on a page of another
 * origin, the framing rule, and the embed pages' accessibility; one fixture on SQLite (the HTTP
 * suites cover both databases).
 */
describe('photo, summary and week views and embeds in a browser', { skip: browserSkip }, () => {
  let f: PageFixture;
  let origin: string;
  /** A second instance on the same data that lets no other site frame its embeds. */
  let closed: TestApp;
  let closedOrigin: string;
  let host: { server: Server; origin: string };
  let browser: Browser;
  let context: BrowserContext;

  before(async () => {
    f = await startPageFixture('sqlite', { CALENDAR_PUBLIC_URL: '' });
    await f.t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(f.t.app.server.address() as AddressInfo).port}`;
    closed = await startTestApp('sqlite', { sharing: f.t, clock: () => NOW, env: { CALENDAR_TIMEZONE: SITE_ZONE, CALENDAR_PUBLIC_URL: '', CALENDAR_EMBED_ORIGINS: 'https://news.example.org' } });
    await closed.app.listen({ port: 0, host: '127.0.0.1' });
    closedOrigin = `http://127.0.0.1:${(closed.app.server.address() as AddressInfo).port}`;
    const element = (src: string, attributes: string, fallback = '') =>
      `<!doctype html><html lang="en"><head><title>Host</title><link rel="icon" href="data:,"><script src="${origin}/assets/embed.js" defer></script></head><body><main><h1>News</h1><calendar-events src="${src}" ${attributes}>${fallback}</calendar-events></main></body></html>`;
    host = await hostSite({
      '/element-da': element(origin, 'lang="da" per-page="4" categories="music"'),
      '/element-en': element(origin, 'heading="Next up" heading-level="3"'),
      '/element-down': element('http://127.0.0.1:9', '', '<p>See our <a href="https://calendar.example.org/events/">calendar</a>.</p>'),
      '/element-down-bare': element('http://127.0.0.1:9', ''),
      '/frame-open': `<!doctype html><html lang="en"><head><title>Host</title><link rel="icon" href="data:,"></head><body><iframe title="Calendar" src="${origin}/embed/events/?view=list"></iframe></body></html>`,
      '/frame-closed': `<!doctype html><html lang="en"><head><title>Host</title><link rel="icon" href="data:,"></head><body><iframe title="Calendar" src="${closedOrigin}/embed/events/?view=list"></iframe></body></html>`,
    });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1024, height: 800 } });
  });

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => host?.server.close(resolve));
    await closed?.close();
    await f?.t.close();
  });

  /** A fresh tab on the fixture's clock, recording every request, console warning and error. */
  const tab = async () => {
    const page = await context.newPage();
    await page.clock.setFixedTime(NOW);
    const log = { requests: [] as string[], warnings: [] as string[], errors: [] as string[], cookies: [] as string[] };
    page.on('request', (request) => {
      log.requests.push(request.url());
      const cookie = request.headers().cookie;
      if (cookie) log.cookies.push(cookie);
    });
    page.on('console', (message) => {
      if (message.type() === 'warning') log.warnings.push(message.text());
      if (message.type() === 'error') log.errors.push(message.text());
    });
    page.on('pageerror', (error) => log.errors.push(error.message));
    return { page, log };
  };

  test('<calendar-events> on another origin renders the API\'s events with links, in the edition, without cookies', async () => {
    const { page, log } = await tab();
    await page.goto(`${host.origin}/element-da`);
    const items = page.locator('calendar-events').locator('li[part="item"]');
    await items.first().waitFor();
    const api = await f.t.request('GET', `/da${NS}/events?per_page=4&strict_dates=1&categories=music&ends_after=2026-04-10T10:00:00Z`);
    const expected = api.body.events as Array<{ title: string; url: string }>;
    assert.equal(await items.count(), expected.length);
    for (let i = 0; i < expected.length; i++) {
      const link = items.nth(i).locator('a[part="link"]');
      assert.equal(await link.innerText(), expected[i].title);
      assert.equal(await link.getAttribute('href'), expected[i].url.replace('http://calendar.test', origin).replace(/^http:\/\/[^/]+/, origin));
    }
    assert.equal(await page.locator('calendar-events').locator('h2').innerText(), 'Kommende begivenheder');
    assert.equal(await page.locator('calendar-events').locator('a[part="all"]').getAttribute('href'), `${origin}/da/events/`);
    assert.match(await items.first().locator('time').getAttribute('datetime') ?? '', /^2026-04-12T17:30:00Z$/);
    assert.equal(await page.locator('calendar-events').getAttribute('aria-busy'), null);
    assert.deepEqual(log.requests.filter((url) => !url.startsWith(host.origin) && !url.startsWith(origin)), [], 'no third party');
    assert.deepEqual(log.cookies, []);
    assert.deepEqual(await context.cookies(), []);
    assert.deepEqual(log.errors, []);
    assert.deepEqual(await axeViolations(page, false), []);
    await page.screenshot({ path: join(SCREENSHOTS, 'embed-element-da.png'), fullPage: true });
    await page.close();
  });

  test('<calendar-events> attributes: heading and level; a change re-renders', async () => {
    const { page, log } = await tab();
    await page.goto(`${host.origin}/element-en`);
    const element = page.locator('calendar-events');
    await element.locator('h3', { hasText: 'Next up' }).waitFor();
    assert.equal(await element.locator('li[part="item"]').count(), 5);
    await element.evaluate((node) => node.setAttribute('tags', 'outdoor'));
    await page.waitForFunction(() => document.querySelector('calendar-events')!.shadowRoot!.querySelectorAll('li').length === 2);
    assert.deepEqual(await element.locator('a[part="link"]').allInnerTexts(), ['Opening Concert', 'Spring Market']);
    assert.deepEqual(log.errors, []);
    await page.close();
  });

  test('<calendar-events> falls back when the calendar is down: the host\'s content, else one link; one warning, no error', async () => {
    for (const [path, expectedText] of [['/element-down', 'See our calendar.'], ['/element-down-bare', 'View all events']]) {
      const { page, log } = await tab();
      await page.goto(`${host.origin}${path}`);
      await page.waitForFunction(() => !document.querySelector('calendar-events')!.hasAttribute('aria-busy'));
      const shown = path === '/element-down' ? page.locator('calendar-events') : page.locator('calendar-events').locator('a');
      assert.equal((await shown.innerText()).trim(), expectedText, path);
      assert.equal(log.warnings.filter((text) => text.startsWith('<calendar-events>')).length, 1, path);
      assert.deepEqual(log.errors.filter((text) => !/Failed to load resource|ERR_CONNECTION_REFUSED|ERR_UNSAFE_PORT/.test(text)), [], path);
      await page.close();
    }
  });

  test('embed.js stays under 8,192 bytes after gzip -9', async () => {
    const script = await f.t.request('GET', '/assets/embed.js');
    assert.ok(gzipSync(script.text, { level: 9 }).length < 8192);
  });

  test('another origin frames /embed/events/ when allowed and is refused when not listed', async () => {
    const open = await tab();
    await open.page.goto(`${host.origin}/frame-open`);
    const frame = open.page.frameLocator('iframe');
    await frame.locator('h1', { hasText: 'Upcoming Events' }).waitFor();
    assert.equal(await frame.locator('article.event').count(), 5);
    await open.page.close();
    const refused = await tab();
    await refused.page.goto(`${host.origin}/frame-closed`);
    await refused.page.waitForFunction(() => true);
    await refused.page.waitForTimeout(500);
    assert.ok(refused.log.errors.some((text) => text.includes('frame-ancestors')), refused.log.errors.join('\n'));
    const child = refused.page.frames().find((candidate) => candidate !== refused.page.mainFrame());
    assert.ok(!child || (await child.locator('article.event').count()) === 0, 'nothing of the embed shows');
    await refused.page.close();
  });

  test('week: overlapping events side by side in their day column, placed by the hour; a list at 320 px', async () => {
    for (const width of [1280, 320]) {
      const ctx = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 800 } });
      const page = await ctx.newPage();
      await page.goto(`${origin}/events/week/2026-04-20/`);
      const box = async (selector: string) => (await page.locator(selector).first().boundingBox())!;
      const column = await box('section[data-date="2026-04-20"]');
      const [first, second, third] = await Promise.all([f.ids.busy1, f.ids.busy2, f.ids.busy3].map((id) => box(`section[data-date="2026-04-20"] [data-event-id="${id}"]`)));
      if (width === 1280) {
        // 09:00 and 09:15 overlap: two lanes of one column, the second to the right.
        assert.ok(first.x + first.width <= second.x + 1, 'side by side');
        assert.ok(Math.abs(second.y - first.y) < 1, 'both start in the 09:00 half-hour row');
        // 10:00 starts as the first ends: back in lane 1, below it.
        assert.ok(Math.abs(third.x - first.x) < 1 && third.y >= first.y + first.height - 1, 'the third below the first');
        for (const segment of [first, second, third]) assert.ok(segment.x >= column.x - 1 && segment.x + segment.width <= column.x + column.width + 1, 'inside its day');
        const top = await box('[data-row="all-day"] [data-event-id]');
        assert.ok(top.y + top.height <= column.y + 1, 'the all-day row above the days');
      } else {
        assert.ok(second.y >= first.y + first.height - 1 && third.y >= second.y + second.height - 1, 'one under the other');
        assert.ok(first.width > 250, 'full width');
        assert.equal(await page.locator('section[data-date="2026-04-22"]').isVisible(), false, 'a day without events is hidden');
      }
      await ctx.close();
    }
  });

  test('photo, summary, week and embed pages: no axe violation with scripts off and on, English and Danish; no sideways scrolling at 320 px; screenshots', async () => {
    const paths = {
      photo: '/events/photo/',
      summary: '/events/summary/?tribe-bar-date=2026-04-19',
      week: '/events/week/2026-04-20/',
      'embed-list': '/embed/events/?view=list&tribe-bar-date=2026-04-10',
      'embed-month': '/embed/events/?view=month&tribe-bar-date=2026-04-10',
    };
    for (const javaScriptEnabled of [false, true]) {
      for (const width of [1280, 320]) {
        const ctx = await browser.newContext({ javaScriptEnabled, viewport: { width, height: 800 } });
        const page = await ctx.newPage();
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        page.on('console', (message) => {
          if (message.type() === 'error') errors.push(message.text());
        });
        for (const edition of ['', '/da']) {
          for (const [name, path] of Object.entries(paths)) {
            const response = await page.goto(origin + edition + path);
            assert.equal(response?.status(), 200, edition + path);
            if (width === 320) {
              const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
              assert.ok(overflow <= 0, `${edition}${path} scrolls sideways by ${overflow}px`);
            }
            assert.deepEqual(await axeViolations(page, !javaScriptEnabled), [], `${edition}${path} scripts ${javaScriptEnabled ? 'on' : 'off'} at ${width}px`);
            if (!javaScriptEnabled && edition === '') {
              const file = name.startsWith('embed') ? `${name}-en` : `page-${name}-en`;
              await page.screenshot({ path: join(SCREENSHOTS, `${file}${width === 320 ? '-320' : ''}.png`), fullPage: true });
            }
          }
        }
        assert.deepEqual(errors, [], 'no console errors');
        await ctx.close();
      }
    }
  });
});
