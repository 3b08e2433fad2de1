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
