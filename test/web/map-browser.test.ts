import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { solid } from '../helpers/images.ts';
import { NS } from '../helpers/test-app.ts';
import { axeViolations, browserSkip, launchChromium, SCREENSHOTS } from '../helpers/browser.ts';
import { startPageFixture, type PageFixture } from './fixture.ts';

/**
 * A tile server on another origin (`localhost`, its own port), answering every `/{z}/{x}/{y}.png`
 * with one light tile and recording what was asked.
 */
async function tileServer(): Promise<{ server: Server; origin: string; requests: string[] }> {
  const tile = await solid(256, 256, '#e8e4da').png().toBuffer();
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const ok = /^\/\d+\/\d+\/\d+\.png$/.test(request.url ?? '');
    response.writeHead(ok ? 200 : 404, { 'content-type': ok ? 'image/png' : 'text/plain' });
    response.end(ok ? tile : 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://localhost:${(server.address() as AddressInfo).port}`, requests };
}

/**
 * The map view in headless Chromium (130 §7.2, §13.7): with scripts on, Leaflet from our origin
 * and tiles from the configured server only; with scripts off, nothing but our origin; markers a
 * keyboard reaches, popups listing the venue's events as links; axe-core and 320 px. One fixture
 * on SQLite (the HTTP suite covers both databases).
 */
describe('map view in a browser', { skip: browserSkip }, () => {
  let f: PageFixture;
  let origin: string;
  let tiles: Awaited<ReturnType<typeof tileServer>>;
  let browser: Browser;
  const venues: Array<{ id: number; name: string; events: Array<{ title: string; url: string }> }> = [];

  before(async () => {
    tiles = await tileServer();
    f = await startPageFixture('sqlite', { CALENDAR_PUBLIC_URL: '', CALENDAR_VIEWS: 'list,month,map', CALENDAR_MAP_TILE_URL: `${tiles.origin}/{z}/{x}/{y}.png` });
    await f.t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(f.t.app.server.address() as AddressInfo).port}`;
    const post = async (path: string, body: Record<string, unknown>) => (await f.t.request('POST', `${NS}${path}`, { as: 'administrator', body: { status: 'publish', ...body } })).body;
    for (const [name, lat, lng, titles] of [
      ['Dock Stage', 56.1527, 10.2143, ['Harbour Swim', 'Dock Dance']],
      ['Park Pavilion', 56.1601, 10.1901, ['Park Picnic']],
    ] as const) {
      const venue = await post('/venues', { venue: name, address: 'Havnen 3', city: 'Aarhus', geo_lat: lat, geo_lng: lng });
      const events = [];
      for (const [index, title] of titles.entries()) {
        const event = await post('/events', { title, start_date: `2026-04-1${1 + index} 10:00`, end_date: `2026-04-1${1 + index} 12:00`, venue: venue.id });
        events.push({ title, url: event.url.replace(/^https?:\/\/[^/]+/, '') });
      }
      venues.push({ id: venue.id, name, events });
    }
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => tiles?.server.close(resolve));
    await f?.t.close();
  });

  /**
   * A tab recording every request and console error. On the real clock: the pages' dates come
   * from the server, and Leaflet fades tiles in by the clock (a fixed one would keep them invisible).
   */
  const open = async (javaScriptEnabled: boolean, width = 1280) => {
    const context = await browser.newContext({ javaScriptEnabled, viewport: { width, height: 900 } });
    const page = await context.newPage();
    const log = { requests: [] as string[], errors: [] as string[] };
    page.on('request', (request) => log.requests.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error') log.errors.push(message.text());
    });
    page.on('pageerror', (error) => log.errors.push(error.message));
    return { page, log, close: () => context.close() };
  };

  const mapDrawn = async (page: Page) => {
    await page.locator('#calendar-map .leaflet-marker-icon').nth(venues.length - 1).waitFor();
    await page.locator('#calendar-map img.leaflet-tile-loaded').first().waitFor();
  };

  test('scripts on: the map shows, with Leaflet from our origin and tiles from the tile server only', async () => {
    const { page, log, close } = await open(true);
    const before = tiles.requests.length;
    await page.goto(`${origin}/events/map/`);
    await mapDrawn(page);
    await page.waitForLoadState('networkidle');
    assert.equal(await page.locator('#calendar-map').isVisible(), true);
    const foreign = log.requests.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith(`${tiles.origin}/`));
    assert.deepEqual(foreign, [], 'no third-party request');
    assert.ok(log.requests.some((url) => url.startsWith(`${origin}/assets/leaflet-1.9.4/leaflet.js`)));
    assert.ok(log.requests.some((url) => url.startsWith(`${origin}/assets/leaflet-1.9.4/images/marker-icon`)), 'marker images from our origin');
    assert.ok(tiles.requests.length > before, 'tiles from the configured server');
    assert.deepEqual(log.errors, []);
    // The attribution from the settings, visible at the bottom right.
    const credit = page.locator('#calendar-map .leaflet-control-attribution');
    assert.equal(await credit.isVisible(), true);
    assert.match(await credit.innerText(), /© OpenStreetMap contributors/);
    assert.equal(await credit.locator('a', { hasText: '© OpenStreetMap contributors' }).getAttribute('href'), 'https://www.openstreetmap.org/copyright');
    const box = (await page.locator('#calendar-map').boundingBox())!;
    const creditBox = (await credit.boundingBox())!;
    assert.ok(creditBox.x + creditBox.width > box.x + box.width - 20 && creditBox.y + creditBox.height > box.y + box.height - 20, 'bottom right');
    await page.screenshot({ path: join(SCREENSHOTS, 'view-map.png'), fullPage: true });
    await close();
  });

  test('markers: one per venue, reached by the keyboard; Enter opens a popup listing the venue\'s events as links', async () => {
    const { page, log, close } = await open(true);
    await page.goto(`${origin}/events/map/`);
    await mapDrawn(page);
    const markers = page.locator('#calendar-map .leaflet-marker-icon');
    assert.equal(await markers.count(), venues.length);
    for (const venue of venues) {
      const marker = page.locator(`#calendar-map .leaflet-marker-icon[alt="${venue.name}"]`);
      assert.equal(await marker.getAttribute('tabindex'), '0');
      assert.equal(await marker.getAttribute('role'), 'button');
      // Tab from the map's container (itself focusable) reaches the markers.
      await page.locator('#calendar-map').focus();
      let reached = false;
      for (let step = 0; step < 10 && !reached; step++) {
        await page.keyboard.press('Tab');
        reached = await marker.evaluate((node) => node === document.activeElement);
      }
      assert.ok(reached, `${venue.name} is reached with Tab`);
      await page.keyboard.press('Enter');
      // The previous popup may still be fading out: this venue's is the one named after it.
      const popup = page.locator('#calendar-map .leaflet-popup-content', { has: page.locator('strong', { hasText: venue.name }) });
      await popup.locator('a').first().waitFor();
      const links = await popup.locator('li a').evaluateAll((nodes) => nodes.map((node) => ({ title: node.textContent, url: node.getAttribute('href') })));
      assert.deepEqual(links, venue.events);
      await page.keyboard.press('Escape');
    }
    assert.deepEqual(log.errors, []);
    await close();
  });

  test('the view selector opens the map as a whole page (Leaflet and the tile policy come with it), and leaves it the same way', async () => {
    const { page, log, close } = await open(true);
    await page.goto(`${origin}/events/list/`);
    await page.locator('nav.views a', { hasText: 'Map' }).click();
    await mapDrawn(page);
    assert.equal(new URL(page.url()).pathname, '/events/map/');
    await page.locator('nav.views a', { hasText: 'List' }).click();
    await page.waitForURL(`${origin}/events/list/`);
    assert.equal(await page.locator('#calendar-map').count(), 0);
    assert.deepEqual(log.errors, []);
    await close();
  });

  test('scripts off: the list is complete, the map stays hidden, and only our origin is asked', async () => {
    const { page, log, close } = await open(false);
    const before = tiles.requests.length;
    await page.goto(`${origin}/events/map/`);
    await page.waitForLoadState('networkidle');
    assert.equal(await page.locator('#calendar-map').isVisible(), false);
    assert.equal(await page.locator('[data-section="located"] article[data-venue-id]').count(), venues.length);
    assert.deepEqual(log.requests.filter((url) => !url.startsWith(`${origin}/`)), []);
    assert.equal(tiles.requests.length, before);
    await close();
  });

  test('no axe violation with scripts off and on, English and Danish; no sideways scrolling at 320 px; screenshots', async () => {
    for (const javaScriptEnabled of [false, true]) {
      for (const width of [1280, 320]) {
        const { page, log, close } = await open(javaScriptEnabled, width);
        for (const edition of ['', '/da']) {
          const path = `${edition}/events/map/`;
          assert.equal((await page.goto(origin + path))?.status(), 200, path);
          if (javaScriptEnabled) await mapDrawn(page);
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          if (width === 320) assert.ok(overflow <= 0, `${path} scrolls sideways by ${overflow}px`);
          assert.deepEqual(await axeViolations(page, !javaScriptEnabled), [], `${path} scripts ${javaScriptEnabled ? 'on' : 'off'} at ${width}px`);
          if (!javaScriptEnabled && edition === '') await page.screenshot({ path: join(SCREENSHOTS, `page-map-en${width === 320 ? '-320' : ''}.png`), fullPage: true });
        }
        assert.deepEqual(log.errors, [], 'no console errors');
        await close();
      }
    }
  });
});
