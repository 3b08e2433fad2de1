import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/config.ts';

/** loadConfig refuses `env` with one line naming the variable. */
function refuses(env: Record<string, string>, variable: string): void {
  assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && error.message.startsWith(`${variable} `) && !error.message.includes('\n'), JSON.stringify(env));
}

describe('settings of 130 §2', () => {
  test('CALENDAR_FEED_ITEMS: 20 by default, 1–100', () => {
    assert.equal(loadConfig({}).calendar.feedItems, 20);
    assert.equal(loadConfig({ CALENDAR_FEED_ITEMS: '1' }).calendar.feedItems, 1);
    assert.equal(loadConfig({ CALENDAR_FEED_ITEMS: '100' }).calendar.feedItems, 100);
    for (const value of ['0', '101', '2.5', 'ten']) refuses({ CALENDAR_FEED_ITEMS: value }, 'CALENDAR_FEED_ITEMS');
  });

  test('CALENDAR_SITEMAP_MAX_URLS: 50000 by default, 4–50000', () => {
    assert.equal(loadConfig({}).calendar.sitemapMaxUrls, 50_000);
    assert.equal(loadConfig({ CALENDAR_SITEMAP_MAX_URLS: '4' }).calendar.sitemapMaxUrls, 4);
    for (const value of ['3', '50001', 'x']) refuses({ CALENDAR_SITEMAP_MAX_URLS: value }, 'CALENDAR_SITEMAP_MAX_URLS');
  });
});

describe('CALENDAR_EMBED_ORIGINS', () => {
  test('* by default, none, or origins without a path', () => {
    assert.equal(loadConfig({}).embedOrigins, '*');
    assert.deepEqual(loadConfig({ CALENDAR_EMBED_ORIGINS: 'none' }).embedOrigins, []);
    assert.deepEqual(loadConfig({ CALENDAR_EMBED_ORIGINS: 'https://news.example.org, http://localhost:8081/' }).embedOrigins, ['https://news.example.org', 'http://localhost:8081']);
    for (const value of ['https://news.example.org/path', 'news.example.org', 'ftp://files.example.org', '*, https://a.example']) refuses({ CALENDAR_EMBED_ORIGINS: value }, 'CALENDAR_EMBED_ORIGINS');
  });
});

describe('CALENDAR_VIEWS and CALENDAR_DEFAULT_VIEW', () => {
  test('all views by default in the selector\'s order; a list without duplicates that names list', () => {
    assert.deepEqual(loadConfig({}).calendar.views, ['list', 'month', 'day', 'week', 'photo', 'summary']);
    // The map only when named: its visitors' browsers call the tile server (130 §2).
    assert.deepEqual(loadConfig({ CALENDAR_VIEWS: 'map,list,photo' }).calendar.views, ['list', 'photo', 'map']);
    assert.equal(loadConfig({ CALENDAR_VIEWS: 'list,map', CALENDAR_DEFAULT_VIEW: 'map' }).calendar.defaultView, 'map');
    assert.deepEqual(loadConfig({ CALENDAR_VIEWS: 'summary, week, list' }).calendar.views, ['list', 'week', 'summary']);
    for (const value of ['month,day', 'list,list', 'list,agenda', 'list,']) refuses({ CALENDAR_VIEWS: value }, 'CALENDAR_VIEWS');
  });

  test('the default view: month, else list when month is off; one of the enabled views', () => {
    assert.equal(loadConfig({}).calendar.defaultView, 'month');
    assert.equal(loadConfig({ CALENDAR_VIEWS: 'list,photo' }).calendar.defaultView, 'list');
    assert.equal(loadConfig({ CALENDAR_DEFAULT_VIEW: 'photo' }).calendar.defaultView, 'photo');
    refuses({ CALENDAR_DEFAULT_VIEW: 'agenda' }, 'CALENDAR_DEFAULT_VIEW');
    assert.throws(() => loadConfig({ CALENDAR_VIEWS: 'list,month', CALENDAR_DEFAULT_VIEW: 'summary' }), /^Error: CALENDAR_DEFAULT_VIEW "summary" is not in CALENDAR_VIEWS$/);
  });
});

describe('the map settings (130 §2)', () => {
  test('CALENDAR_MAP_TILE_URL: OpenStreetMap by default; a fixed http(s) origin with {z}, {x}, {y} (and {r}) after it', () => {
    assert.deepEqual(
      { url: loadConfig({}).map.tileUrl, origin: loadConfig({}).map.tileOrigin },
      { url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', origin: 'https://tile.openstreetmap.org' },
    );
    const custom = loadConfig({ CALENDAR_MAP_TILE_URL: 'https://Tiles.Example.net:8443/osm/{z}/{x}/{y}{r}.png?key=abc' }).map;
    assert.equal(custom.tileUrl, 'https://Tiles.Example.net:8443/osm/{z}/{x}/{y}{r}.png?key=abc');
    assert.equal(custom.tileOrigin, 'https://tiles.example.net:8443');
    assert.equal(loadConfig({ CALENDAR_MAP_TILE_URL: 'http://127.0.0.1:9000/{z}/{x}/{y}.png' }).map.tileOrigin, 'http://127.0.0.1:9000');
    assert.equal(loadConfig({ CALENDAR_MAP_TILE_URL: 'http://tiles.lan/{z}/{x}/{y}.png', CALENDAR_PUBLIC_URL: 'http://calendar.lan' }).map.tileOrigin, 'http://tiles.lan');
    for (const value of [
      'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png',
      'https://tiles.example.net:{port}/{z}/{x}/{y}.png',
      'https://tiles.example.net/{x}/{y}.png',
      'https://tiles.example.net/{z}/{x}/{y}/{s}.png',
      '/tiles/{z}/{x}/{y}.png',
      'tiles.example.net/{z}/{x}/{y}.png',
      'ftp://tiles.example.net/{z}/{x}/{y}.png',
      'https://user:secret@tiles.example.net/{z}/{x}/{y}.png',
      'https://tiles.example.net',
    ]) refuses({ CALENDAR_MAP_TILE_URL: value }, 'CALENDAR_MAP_TILE_URL');
    // Browsers block http images on an https page.
    refuses({ CALENDAR_MAP_TILE_URL: 'http://tiles.example.net/{z}/{x}/{y}.png', CALENDAR_PUBLIC_URL: 'https://calendar.example.org' }, 'CALENDAR_MAP_TILE_URL');
  });

  test('CALENDAR_MAP_ATTRIBUTION: plain text up to 200 characters; CALENDAR_MAP_ATTRIBUTION_URL: https or empty', () => {
    const defaults = loadConfig({}).map;
    assert.equal(defaults.attribution, '© OpenStreetMap contributors');
    assert.equal(defaults.attributionUrl, 'https://www.openstreetmap.org/copyright');
    assert.equal(loadConfig({ CALENDAR_MAP_ATTRIBUTION: ' Tiles © Example & friends ' }).map.attribution, 'Tiles © Example & friends');
    assert.equal(loadConfig({ CALENDAR_MAP_ATTRIBUTION: 'x'.repeat(200) }).map.attribution.length, 200);
    for (const value of ['x'.repeat(201), '<a href="x">OSM</a>', 'two\nlines']) refuses({ CALENDAR_MAP_ATTRIBUTION: value }, 'CALENDAR_MAP_ATTRIBUTION');
    assert.equal(loadConfig({ CALENDAR_MAP_ATTRIBUTION_URL: '' }).map.attributionUrl, null);
    assert.equal(loadConfig({ CALENDAR_MAP_ATTRIBUTION_URL: 'https://tiles.example.net/terms' }).map.attributionUrl, 'https://tiles.example.net/terms');
    for (const value of ['http://tiles.example.net/terms', '/copyright', 'javascript:alert(1)']) refuses({ CALENDAR_MAP_ATTRIBUTION_URL: value }, 'CALENDAR_MAP_ATTRIBUTION_URL');
  });
});
