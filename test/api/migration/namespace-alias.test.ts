import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp, type TestResponse } from '../../helpers/test-app.ts';

const ORIGIN = 'http://calendar.test';
const ALIAS = '/wp-json/tribe/events/v1';
const OWN = '/wp-json/calendar/events/v1';
const ALIAS_ENV = { CALENDAR_BASE_PATH: '/wp-json', CALENDAR_NAMESPACE_ALIASES: 'tribe/events/v1' };

/** Every absolute URL of this service in a body or its headers that names a REST namespace. */
function restLinks(res: TestResponse): string[] {
  const found: string[] = [];
  const visit = (value: unknown) => {
    if (typeof value === 'string') {
      if (value.startsWith(ORIGIN) && value.includes('/events/v1')) found.push(value);
    } else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(res.body);
  visit(res.headers.location);
  return found;
}

/** The answer, after checking that it links only to `prefix` (the namespace and edition asked). */
function stayingOn(res: TestResponse, prefix: string, minimum = 1): TestResponse {
  const links = restLinks(res);
  assert.ok(links.length >= minimum, `expected links in ${res.text}`);
  for (const link of links) assert.ok(link.startsWith(`${ORIGIN}${prefix}`), `${link} is not under ${prefix}`);
  return res;
}

// 90 §1 and §3 row 5: the event, venue and term flows through the alias, every link on the alias.
for (const dialect of DIALECTS) {
  describe(`namespace alias tribe/events/v1 under /wp-json [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { env: ALIAS_ENV });
    });
    after(() => t.close());

    const ok = async (method: string, url: string, body?: unknown, status = 200) => {
      const res = await t.request(method, url, { as: 'administrator', body });
      assert.equal(res.status, status, `${method} ${url}: ${res.text}`);
      return res;
    };

    test('term, venue, organizer and event flows link only to the alias', async () => {
      const parent = stayingOn(await ok('POST', `${ALIAS}/categories`, { name: 'Arts' }, 201), ALIAS).body;
      const child = stayingOn(await ok('POST', `${ALIAS}/categories`, { name: 'Music', parent: parent.id }, 201), ALIAS).body;
      assert.equal(child.urls.self, `${ORIGIN}${ALIAS}/categories/${child.id}`);
      assert.equal(child.urls.up, `${ORIGIN}${ALIAS}/categories/${parent.id}`);
      const tagRes = stayingOn(await ok('POST', `${ALIAS}/tags`, { name: 'Outdoor' }, 201), ALIAS);
      const tag = tagRes.body;
      assert.equal(tagRes.headers.location, `${ORIGIN}${ALIAS}/tags/${tag.id}`);
      const created = await ok('POST', `${ALIAS}/venues`, { venue: 'Town Hall', city: 'Aarhus' }, 201);
      const venue = created.body;
      const organizer = (await ok('POST', `${ALIAS}/organizers`, { organizer: 'Friends of Music' }, 201)).body;

      const eventRes = await ok('POST', `${ALIAS}/events`, {
        title: 'Spring concert',
        start_date: '2030-04-12 19:30:00',
        end_date: '2030-04-12 22:00:00',
        venue: venue.id,
        organizer: [organizer.id],
        categories: [child.id],
        tags: [tag.id],
      }, 201);
      stayingOn(eventRes, ALIAS);
      assert.equal(eventRes.body.rest_url, `${ORIGIN}${ALIAS}/events/${eventRes.body.id}`);
      // Pages do not live under a namespace (90 §1 "pages").
      assert.equal(eventRes.body.url, `${ORIGIN}/wp-json/event/spring-concert/`);
      await ok('POST', `${ALIAS}/events`, { title: 'Second', start_date: '2030-04-13 10:00:00', end_date: '2030-04-13 11:00:00' }, 201);

      const id = eventRes.body.id;
      stayingOn(await ok('GET', `${ALIAS}/events/${id}`), ALIAS);
      stayingOn(await ok('POST', `${ALIAS}/events/${id}`, { title: 'Spring concert, moved' }), ALIAS);
      stayingOn(await ok('PATCH', `${ALIAS}/venues/${venue.id}`, { city: 'Odense' }), ALIAS, 0);
      const page1 = stayingOn(await ok('GET', `${ALIAS}/events?per_page=1&start_date=2030-01-01&end_date=2030-12-31`), ALIAS);
      assert.equal(page1.body.total, 2, page1.text);
      assert.match(page1.body.next_rest_url, /^http:\/\/calendar\.test\/wp-json\/tribe\/events\/v1\/events\/\?per_page=1&.*page=2$/);
      const page2 = stayingOn(await ok('GET', new URL(page1.body.next_rest_url).pathname + new URL(page1.body.next_rest_url).search), ALIAS);
      assert.ok(page2.body.previous_rest_url.startsWith(`${ORIGIN}${ALIAS}/events/`));
      stayingOn(await ok('GET', `${ALIAS}/venues?per_page=1`), ALIAS);
      stayingOn(await ok('GET', `${ALIAS}/organizers`), ALIAS);
      stayingOn(await ok('GET', `${ALIAS}/categories`), ALIAS);
      stayingOn(await ok('GET', `${ALIAS}/tags/${tag.id}`), ALIAS);
      stayingOn(await ok('DELETE', `${ALIAS}/events/${id}`), ALIAS);
      stayingOn(await ok('DELETE', `${ALIAS}/tags/${tag.id}`), ALIAS, 0);
    });

    test('the same record read through the own namespace, the alias and an edition links to each (the read cache too)', async () => {
      const created = await ok('POST', `${OWN}/events`, { title: 'Cached', start_date: '2030-05-01 10:00:00', end_date: '2030-05-01 11:00:00' }, 201);
      for (const prefix of [OWN, ALIAS, '/wp-json/da/tribe/events/v1', OWN, ALIAS]) {
        const single = stayingOn(await t.request('GET', `${prefix}/events/${created.body.id}`), prefix);
        assert.equal(single.body.rest_url, `${ORIGIN}${prefix}/events/${created.body.id}`);
        const list = stayingOn(await t.request('GET', `${prefix}/events?start_date=2030-05-01&end_date=2030-05-02`), prefix);
        assert.ok(list.body.rest_url.startsWith(`${ORIGIN}${prefix}/events/`));
      }
    });

    test('validation, auth and errors behave identically under the alias, in the editions too', async () => {
      const bad = await t.request('GET', `${ALIAS}/events?per_page=abc`);
      const own = await t.request('GET', `${OWN}/events?per_page=abc`);
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body, own.body);
      const body = { title: 'x', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' };
      const visitor = await t.request('POST', `${ALIAS}/events`, { body });
      assert.equal(visitor.status, 401);
      assert.deepEqual(visitor.body, (await t.request('POST', `${OWN}/events`, { body })).body);
      const wrong = await t.request('GET', `${ALIAS}/events`, { headers: { authorization: 'Basic d3Jvbmc6d3Jvbmc=' } });
      assert.equal(wrong.status, 401);
      const danish = await t.request('GET', `/wp-json/da/tribe/events/v1/events?per_page=abc`);
      assert.equal(danish.status, 400);
      assert.notEqual(danish.body.message, bad.body.message);
      assert.equal((await t.request('GET', `${ALIAS}/nothing-here`)).body.code, 'rest_no_route');
    });

    test('the index of the alias names the alias; OPTIONS and /doc follow it', async () => {
      const index = stayingOn(await ok('GET', ALIAS), '/wp-json');
      assert.equal(index.body.namespace, 'tribe/events/v1');
      assert.ok(`/tribe/events/v1/events/(?P<id>\\d+)` in index.body.routes);
      assert.equal(index.body.routes['/tribe/events/v1/events'].namespace, 'tribe/events/v1');
      assert.deepEqual(index.body.routes['/tribe/events/v1/events']._links, { self: [{ href: `${ORIGIN}${ALIAS}/events` }] });
      assert.equal(Object.keys(index.body.routes).filter((key) => !key.startsWith('/tribe/events/v1')).length, 0);
      assert.equal((await ok('GET', `${ALIAS}?namespace=tribe/events/v1`)).body.namespace, 'tribe/events/v1');
      const options = await t.request('OPTIONS', `${ALIAS}/venues`);
      assert.equal(options.body.namespace, 'tribe/events/v1');
      assert.deepEqual(options.body._links, { self: [{ href: `${ORIGIN}${ALIAS}/venues` }] });
      const doc = await ok('GET', `/wp-json/es/tribe/events/v1/doc`);
      assert.deepEqual(doc.body.servers, [{ url: `${ORIGIN}/wp-json/es/tribe/events/v1/` }]);
      assert.ok('/events/{id}' in doc.body.paths);
      // The own namespace is unchanged.
      assert.equal((await ok('GET', OWN)).body.namespace, 'calendar/events/v1');
    });
  });
}

describe('CALENDAR_NAMESPACE_ALIASES at start-up', () => {
  test('a list of valid aliases is read in order, blanks ignored', () => {
    assert.deepEqual(loadConfig({ CALENDAR_NAMESPACE_ALIASES: 'tribe/events/v1, acme-co/cal/v2' }).namespaceAliases, ['tribe/events/v1', 'acme-co/cal/v2']);
    assert.deepEqual(loadConfig({}).namespaceAliases, []);
  });

  for (const [value, entry] of [
    ['calendar/events/v1', 'calendar/events/v1'],
    ['tribe/events/v1,calendar/admin/v1', 'calendar/admin/v1'],
    ['tribe/events/v1,tribe/events/v1', 'tribe/events/v1'],
    ['Tribe/Events/v1', 'Tribe/Events/v1'],
    ['tribe/events', 'tribe/events'],
    ['tribe/events/v1,', ''],
    ['tribe/events/1', 'tribe/events/1'],
  ]) {
    test(`"${value}" is refused, naming "${entry}"`, () => {
      assert.throws(() => loadConfig({ CALENDAR_NAMESPACE_ALIASES: value }), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.ok(error.message.includes(`"${entry}"`), error.message);
        return true;
      });
    });
  }

  test('the service refuses to start with one line naming the entry and a non-zero exit', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: { ...process.env, DATABASE_URL: 'sqlite::memory:', PORT: '0', CALENDAR_NAMESPACE_ALIASES: 'tribe/events/v1,calendar/events/v1' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.notEqual(run.status, 0);
    const lines = run.stderr.trim().split('\n');
    assert.equal(lines.length, 1, run.stderr);
    assert.match(lines[0], /CALENDAR_NAMESPACE_ALIASES: "calendar\/events\/v1" is a namespace of the service itself/);
    assert.equal(run.stdout, '');
  });
});
