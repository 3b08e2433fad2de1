import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';

const ORIGIN = 'http://calendar.test';
const TRIBE = '/wp-json/tribe/events/v1';
const EVENT = { title: 'Harbour Concert', start_date: '2031-06-12 19:30:00', end_date: '2031-06-12 22:00:00' };

/** The address part of an absolute URL of this service. */
const local = (url: string) => {
  assert.ok(url.startsWith(ORIGIN), url);
  return url.slice(ORIGIN.length);
};

// 140 §1.2 and §10 "paths": a client written for WordPress, pointed at the drop-in layout, over a real socket.
for (const dialect of DIALECTS) {
  describe(`the WordPress drop-in layout CALENDAR_API_PATH=/wp-json [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { env: { CALENDAR_API_PATH: '/wp-json', CALENDAR_NAMESPACE_ALIASES: 'tribe/events/v1', CALENDAR_SITE_NAME: 'Harbour Events', CALENDAR_TIMEZONE: 'Asia/Kolkata' }, overHttp: true });
    });
    after(() => t.close());

    test('a WordPress client finds the index, reads and writes through both forms, and opens the page URLs at the root', async () => {
      // Discovery as WordPress clients do it: the Link header of a page names the index.
      const home = await t.request('GET', '/events/');
      assert.equal(home.status, 200);
      assert.equal(home.headers.link, `<${ORIGIN}/wp-json/>; rel="https://api.w.org/"`);

      const index = await t.request('GET', '/wp-json/');
      assert.equal(index.status, 200, index.text);
      assert.match(String(index.headers['content-type']), /^application\/json/);
      assert.equal(index.body.name, 'Harbour Events');
      assert.equal(index.body.description, '');
      assert.equal(index.body.url, ORIGIN);
      assert.equal(index.body.home, ORIGIN);
      assert.equal(index.body.gmt_offset, 5.5);
      assert.equal(index.body.timezone_string, 'Asia/Kolkata');
      assert.deepEqual([index.body.page_for_posts, index.body.page_on_front, index.body.show_on_front], [0, 0, 'posts']);
      // wp/v2 (110) is served in the drop-in layout.
      assert.deepEqual(index.body.namespaces, ['calendar/events/v1', 'tribe/events/v1', 'calendar/admin/v1', 'wp/v2']);
      assert.deepEqual(index.body.authentication, {});
      assert.deepEqual(index.body._links, { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] });
      const keys = Object.keys(index.body.routes);
      assert.equal(keys[0], '/');
      assert.deepEqual(index.body.routes['/']._links, { self: [{ href: `${ORIGIN}/wp-json/` }] });
      for (const key of ['/calendar/events/v1/events', '/tribe/events/v1', '/tribe/events/v1/events', '/tribe/events/v1/events/(?P<id>\\d+)', '/calendar/admin/v1/users']) {
        assert.ok(keys.includes(key), `${key} in the index`);
      }
      // Each entry as the namespace's own index renders it.
      const tribe = await t.request('GET', TRIBE);
      assert.deepEqual(index.body.routes['/tribe/events/v1/events'], tribe.body.routes['/tribe/events/v1/events']);
      assert.equal((await t.request('GET', '/wp-json/?_fields=name')).text, '{"name":"Harbour Events"}');

      // Writes through the pretty form and the plain-permalink form.
      const created = await t.request('POST', `${TRIBE}/events`, { as: 'administrator', body: EVENT });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.url, `${ORIGIN}/event/harbour-concert/`);
      assert.equal(created.body.rest_url, `${ORIGIN}${TRIBE}/events/${created.body.id}`);
      const plain = await t.request('POST', '/?rest_route=/tribe/events/v1/events', { as: 'administrator', body: { ...EVENT, title: 'Second Set' } });
      assert.equal(plain.status, 201, plain.text);
      assert.equal(plain.body.rest_url, `${ORIGIN}${TRIBE}/events/${plain.body.id}`);
      const edited = await t.request('POST', `/index.php?rest_route=${encodeURIComponent(`/tribe/events/v1/events/${plain.body.id}`)}`, { as: 'administrator', body: { title: 'Second Set, later' } });
      assert.equal(edited.status, 200, edited.text);

      // Reads: the same status, headers and bytes in both forms.
      for (const [pretty, plainForm] of [
        [`${TRIBE}/events?per_page=5&start_date=2031-01-01&end_date=2031-12-31`, '/?rest_route=/tribe/events/v1/events&per_page=5&start_date=2031-01-01&end_date=2031-12-31'],
        [`${TRIBE}/events/${created.body.id}`, `/?rest_route=/tribe/events/v1/events/${created.body.id}`],
        ['/wp-json/', '/?rest_route=/'],
        [`${TRIBE}/events/999999`, '/?rest_route=/tribe/events/v1/events/999999'],
        [`${TRIBE}/nothing`, '/?rest_route=%2Ftribe%2Fevents%2Fv1%2Fnothing'],
      ]) {
        const a = await t.request('GET', pretty!);
        const b = await t.request('GET', plainForm!);
        assert.equal(b.status, a.status, plainForm);
        assert.equal(b.text, a.text, plainForm);
        assert.equal(b.headers.etag, a.headers.etag, plainForm);
      }
      const list = await t.request('GET', '/?rest_route=/tribe/events/v1/events&per_page=5&start_date=2031-01-01&end_date=2031-12-31');
      assert.equal(list.body.events.length, 2, list.text);
      assert.deepEqual(list.body.events.map((event: { title: string }) => event.title).sort(), ['Harbour Concert', 'Second Set, later']);
      // Values that are no REST route.
      for (const bad of ['/?rest_route=tribe/events/v1/events', '/?rest_route=/event/harbour-concert/', '/?rest_route=/nothing']) {
        const res = await t.request('GET', bad);
        assert.equal(res.status, 404, bad);
        assert.equal(res.body.code, 'rest_no_route', bad);
      }

      // The page URLs the API hands out open at the root, with the index named.
      for (const event of [created.body, list.body.events[0]]) {
        const page = await t.request('GET', local(event.url));
        assert.equal(page.status, 200, event.url);
        assert.match(page.text, /<html/);
        assert.equal(page.headers.link, `<${ORIGIN}/wp-json/>; rel="https://api.w.org/"`);
      }
    });

    test('page URLs the old layout handed out move to the root with a 301, query kept; the site root stays the page', async () => {
      for (const [old, now] of [
        ['/wp-json/event/harbour-concert/', '/event/harbour-concert/'],
        ['/wp-json/events/list/?tribe-bar-search=x', '/events/list/?tribe-bar-search=x'],
        ['/wp-json/da/venue/hall/', '/da/venue/hall/'],
        ['/wp-json/tag/jazz/', '/tag/jazz/'],
        ['/wp-json/organizer/band/', '/organizer/band/'],
      ]) {
        const res = await t.request('GET', old!);
        assert.equal(res.status, 301, old);
        assert.equal(res.headers.location, now, old);
      }
      assert.equal((await t.request('HEAD', '/wp-json/events/')).status, 301);
      const root = await t.request('GET', '/');
      assert.equal(root.status, 302);
      assert.equal(root.headers.location, '/events/');
    });
  });

  describe(`the old layout CALENDAR_BASE_PATH=/wp-json keeps its addresses [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { env: { CALENDAR_BASE_PATH: '/wp-json', CALENDAR_NAMESPACE_ALIASES: 'tribe/events/v1' }, overHttp: true });
    });
    after(() => t.close());

    test('GET /wp-json/ is the index now; pages, post_type links and rest_route stay under /wp-json', async () => {
      const index = await t.request('GET', '/wp-json/');
      assert.equal(index.status, 200, index.text);
      assert.equal(index.body.url, `${ORIGIN}/wp-json`);
      assert.equal(index.body.timezone_string, 'UTC');
      assert.equal(index.body.gmt_offset, 0);
      const created = await t.request('POST', `${TRIBE}/events`, { as: 'administrator', body: EVENT });
      assert.equal(created.body.url, `${ORIGIN}/wp-json/event/harbour-concert/`);
      const page = await t.request('GET', local(created.body.url));
      assert.equal(page.status, 200);
      assert.equal(page.headers.link, `<${ORIGIN}/wp-json/>; rel="https://api.w.org/"`);
      const plainLink = await t.request('GET', `/wp-json/?post_type=tribe_events&p=${created.body.id}`);
      assert.equal(plainLink.status, 301);
      assert.equal(plainLink.headers.location, '/wp-json/event/harbour-concert/');
      const viaQuery = await t.request('GET', '/wp-json/?rest_route=/tribe/events/v1/events&start_date=2031-01-01&end_date=2031-12-31');
      assert.equal(viaQuery.body.total, 1, viaQuery.text);
      assert.equal(viaQuery.text, (await t.request('GET', `${TRIBE}/events?start_date=2031-01-01&end_date=2031-12-31`)).text);
      assert.equal((await t.request('GET', '/wp-json/events/')).status, 200);
    });
  });
}

describe('CALENDAR_API_PATH at start-up (140 §1.1)', () => {
  const start = (env: Record<string, string>) => loadConfig({ DATABASE_URL: 'sqlite::memory:', ...env });

  test('defaults to CALENDAR_BASE_PATH; one trailing slash dropped; a leading one added', () => {
    assert.equal(start({ CALENDAR_BASE_PATH: '/cal' }).apiPath, '/cal');
    assert.equal(start({ CALENDAR_API_PATH: '/wp-json/' }).apiPath, '/wp-json');
    assert.equal(start({ CALENDAR_API_PATH: 'wp-json' }).apiPath, '/wp-json');
    assert.equal(start({ CALENDAR_API_PATH: '/site/api', CALENDAR_BASE_PATH: '/site' }).apiPath, '/site/api');
  });

  for (const [env, named] of [
    [{ CALENDAR_API_PATH: '/wp json' }, /CALENDAR_API_PATH/],
    [{ CALENDAR_API_PATH: '/a//b' }, /CALENDAR_API_PATH/],
    [{ CALENDAR_BASE_PATH: '/a?b' }, /CALENDAR_BASE_PATH/],
    [{ CALENDAR_API_PATH: '/api', CALENDAR_BASE_PATH: '/api/site' }, /CALENDAR_API_PATH.*CALENDAR_BASE_PATH/],
    [{ CALENDAR_API_PATH: '/events' }, /"events" is an address of the site/],
    [{ CALENDAR_API_PATH: '/metrics/x' }, /"metrics"/],
    [{ CALENDAR_API_PATH: '/site/docs', CALENDAR_BASE_PATH: '/site' }, /"docs"/],
    [{ CALENDAR_NAMESPACE_ALIASES: 'events/calendar/v1' }, /CALENDAR_NAMESPACE_ALIASES/],
  ] as const) {
    test(`refuses ${JSON.stringify(env)}`, () => {
      assert.throws(() => start(env), (error: unknown) => error instanceof ConfigError && named.test(error.message) && !error.message.includes('\n'));
    });
  }
});

describe('metrics, shutdown and workers settings at start-up (140 §8)', () => {
  const start = (env: Record<string, string>) => loadConfig({ DATABASE_URL: 'sqlite:./x.db', ...env });

  test('defaults and accepted forms', () => {
    const defaults = start({});
    assert.deepEqual([defaults.metrics, defaults.shutdownGraceMs, defaults.workers], [{ enabled: false, token: null }, 10_000, 1]);
    assert.equal(start({ CALENDAR_METRICS: 'true' }).metrics.enabled, true);
    assert.equal(start({ CALENDAR_METRICS: 'off' }).metrics.enabled, false);
    assert.ok(start({ CALENDAR_WORKERS: 'auto' }).workers >= 1);
    assert.equal(start({ CALENDAR_WORKERS: '4' }).workers, 4);
  });

  for (const [env, named] of [
    [{ CALENDAR_METRICS: 'yes please' }, /CALENDAR_METRICS/],
    [{ CALENDAR_METRICS_TOKEN: 'short' }, /CALENDAR_METRICS_TOKEN/],
    [{ CALENDAR_METRICS_TOKEN: 'with a space in it, sixteen+' }, /CALENDAR_METRICS_TOKEN/],
    [{ CALENDAR_SHUTDOWN_GRACE_MS: '600001' }, /CALENDAR_SHUTDOWN_GRACE_MS/],
    [{ CALENDAR_WORKERS: '0' }, /CALENDAR_WORKERS/],
    [{ CALENDAR_WORKERS: '65' }, /CALENDAR_WORKERS/],
    [{ CALENDAR_WORKERS: '2', DATABASE_URL: 'sqlite::memory:' }, /CALENDAR_WORKERS/],
  ] as const) {
    test(`refuses ${JSON.stringify(env)}`, () => {
      assert.throws(() => start(env), (error: unknown) => error instanceof ConfigError && named.test(error.message));
    });
  }
});
