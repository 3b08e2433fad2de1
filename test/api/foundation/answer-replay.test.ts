import assert from 'node:assert/strict';
import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp, type TestResponse } from '../../helpers/test-app.ts';
import { clock, createEvent, EVENTS } from '../events/fixtures.ts';

/**
 * A visitor's repeated read is answered in front of the framework, byte for byte as the framework
 * answered it, while nothing was written and the second has not turned; every request that could
 * be answered differently goes through the framework. The request log tells the two apart.
 */
for (const dialect of DIALECTS) {
  describe(`replayed answers [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let now = new Date('2025-04-01T10:00:00.100Z');
    let t: TestApp;
    const lines: Array<{ path?: string; replayed?: boolean }> = [];
    before(async () => {
      t = await startTestApp(dialect, {
        clock: () => now,
        overHttp: true,
        env: { LOG_LEVEL: 'info' },
        loggerStream: { write: (line: string) => void lines.push(JSON.parse(line)) },
      });
    });
    after(() => t.close());

    /** Whether the app's last request line says it was replayed (log writes are synchronous here). */
    const replayed = () => lines.filter((line) => line.path !== undefined).at(-1)?.replayed === true;
    const withoutDate = (response: TestResponse) => ({ ...response, headers: { ...response.headers, date: undefined } });

    test('a repeated read is replayed with the same status, headers and body', async () => {
      const event = await createEvent(t, 'editor', { title: 'Replaymark' });
      for (const url of [`${EVENTS}?search=replaymark`, `${EVENTS}/${event.id}`, `${NS}/venues?per_page=5`, `${NS}/categories`, `${EVENTS}?search=replaymark&_fields=total`]) {
        const first = await t.request('GET', url);
        assert.equal(first.status, 200, url);
        assert.equal(replayed(), false, url);
        const again = await t.request('GET', url);
        assert.equal(replayed(), true, url);
        assert.deepEqual(withoutDate(again), withoutDate(first), url);
      }
    });

    test("a visitor's page is replayed with the same status, headers and bytes, and a write shows in the next one", async () => {
      const event = await createEvent(t, 'editor', { title: 'Pagemark', start_date: '2025-04-22 10:00:00', end_date: '2025-04-22 11:00:00' });
      for (const url of ['/events/2025-04/', '/events/list/', `/event/${event.slug}/`]) {
        const first = await t.request('GET', url);
        assert.equal(first.status, 200, url);
        assert.equal(replayed(), false, url);
        const again = await t.request('GET', url);
        assert.equal(replayed(), true, url);
        assert.deepEqual(withoutDate(again), withoutDate(first), url);
      }
      await createEvent(t, 'editor', { title: 'Pagemark later', start_date: '2025-04-23 10:00:00', end_date: '2025-04-23 11:00:00' });
      const after = await t.request('GET', '/events/2025-04/');
      assert.equal(replayed(), false);
      assert.match(after.text, /Pagemark later/);
    });

    test('a write shows in the next read, and the read after it is replayed again', async () => {
      const url = `${EVENTS}?search=rewritemark`;
      assert.equal((await t.request('GET', url)).body.total, 0);
      assert.equal((await t.request('GET', url)).body.total, 0);
      assert.equal(replayed(), true);
      await createEvent(t, 'editor', { title: 'Rewritemark' });
      assert.equal((await t.request('GET', url)).body.total, 1);
      assert.equal(replayed(), false);
      assert.equal((await t.request('GET', url)).body.total, 1);
      assert.equal(replayed(), true);
    });

    test('a list stays replayed through updates of events it does not show, not through one it shows or any other write', async () => {
      const shown = await createEvent(t, 'editor', { title: 'Keepmark first', start_date: '2025-04-20 10:00:00', end_date: '2025-04-20 11:00:00' });
      const other = await createEvent(t, 'editor', { title: 'Keepmark second', start_date: '2025-04-21 10:00:00', end_date: '2025-04-21 11:00:00' });
      const url = `${EVENTS}?search=keepmark&per_page=1`;
      const first = await t.request('GET', url);
      assert.deepEqual(first.body.events.map((event: { id: number }) => event.id), [shown.id]);
      assert.equal((await t.request('POST', `${EVENTS}/${other.id}`, { as: 'editor', body: { cost: '12' } })).status, 200);
      const kept = await t.request('GET', url);
      assert.equal(replayed(), true);
      assert.deepEqual(withoutDate(kept), withoutDate(first));
      assert.equal((await t.request('POST', `${EVENTS}/${shown.id}`, { as: 'editor', body: { cost: '15' } })).status, 200);
      const changed = await t.request('GET', url);
      assert.equal(replayed(), false);
      assert.equal(changed.body.events[0].cost, '$15');
      await t.request('GET', url);
      assert.equal(replayed(), true);
      // A search reads titles: a retitled event off the page may now match it.
      assert.equal((await t.request('POST', `${EVENTS}/${other.id}`, { as: 'editor', body: { title: 'Keepmark retitled' } })).status, 200);
      await t.request('GET', url);
      assert.equal(replayed(), false);
      // Any write nobody described ends every replay.
      assert.equal((await t.request('POST', `${NS}/venues`, { as: 'editor', body: { venue: 'Keepmark hall' } })).status, 201);
      await t.request('GET', url);
      assert.equal(replayed(), false);
    });

    test('an event stays replayed through updates of other events that move no term count, not through one that does or its own', async () => {
      const category = (await t.request('POST', `${NS}/categories`, { as: 'editor', body: { name: 'Singlemark' } })).body;
      const shown = await createEvent(t, 'editor', { title: 'Singlemark shown', categories: [category.id] });
      const other = await createEvent(t, 'editor', { title: 'Singlemark other', categories: [category.id] });
      const url = `${EVENTS}/${shown.id}`;
      const first = await t.request('GET', url);
      assert.equal(first.body.categories[0].count, 2);
      assert.equal((await t.request('POST', `${EVENTS}/${other.id}`, { as: 'editor', body: { title: 'Singlemark renamed', cost: '3' } })).status, 200);
      const kept = await t.request('GET', url);
      assert.equal(replayed(), true);
      assert.deepEqual(withoutDate(kept), withoutDate(first));
      // A draft no longer counts in its category, and the event shows its category's count.
      assert.equal((await t.request('POST', `${EVENTS}/${other.id}`, { as: 'editor', body: { status: 'draft' } })).status, 200);
      const recounted = await t.request('GET', url);
      assert.equal(replayed(), false);
      assert.equal(recounted.body.categories[0].count, 1);
      await t.request('GET', url);
      assert.equal(replayed(), true);
      assert.equal((await t.request('POST', url, { as: 'editor', body: { cost: '9' } })).status, 200);
      const own = await t.request('GET', url);
      assert.equal(replayed(), false);
      assert.equal(own.body.cost, '$9');
    });

    test('repeats that arrive while the framework builds an answer wait for it and get its bytes', async () => {
      await createEvent(t, 'editor', { title: 'Crowdmark' });
      const url = `${EVENTS}?search=crowdmark`;
      const before = lines.filter((line) => line.path !== undefined).length;
      const answers = await Promise.all(Array.from({ length: 8 }, () => t.request('GET', url)));
      const logged = lines.filter((line) => line.path !== undefined).slice(before);
      assert.equal(logged.length, 8);
      assert.equal(logged.filter((line) => line.replayed !== true).length, 1);
      for (const answer of answers) assert.deepEqual(withoutDate(answer), withoutDate(answers[0]));
      assert.equal(answers[0].body.total, 1);
    });

    test('repeats of an answer that is not recorded go through the framework themselves', async () => {
      const before = lines.filter((line) => line.path !== undefined).length;
      const answers = await Promise.all(Array.from({ length: 4 }, () => t.request('GET', `${EVENTS}/987654`)));
      assert.deepEqual(answers.map((answer) => answer.status), [404, 404, 404, 404]);
      const logged = lines.filter((line) => line.path !== undefined).slice(before);
      assert.equal(logged.filter((line) => line.replayed === true).length, 0);
    });

    test('within the second an answer is replayed; once it turns, a publication that came due shows', async () => {
      // More than a minute ahead: scheduled.
      assert.equal((await createEvent(t, 'editor', { title: 'Secondmark', date: '2025-04-01 10:01:05' })).status, 'future');
      const url = `${EVENTS}?search=secondmark`;
      now = new Date('2025-04-01T10:01:04.200Z');
      assert.equal((await t.request('GET', url)).body.total, 0);
      now = new Date('2025-04-01T10:01:04.900Z');
      assert.equal((await t.request('GET', url)).body.total, 0);
      assert.equal(replayed(), true);
      now = new Date('2025-04-01T10:01:05.000Z');
      assert.equal((await t.request('GET', url)).body.total, 1);
      assert.equal(replayed(), false);
    });

    test('signed-in, cross-origin, conditional, overridden and HEAD requests go through the framework', async () => {
      const event = await createEvent(t, 'editor', { title: 'Bypassmark' });
      const url = `${EVENTS}/${event.id}`;
      const plain = await t.request('GET', url);
      await t.request('GET', url);
      assert.equal(replayed(), true);
      const signedIn = await t.request('GET', url, { as: 'editor' });
      assert.equal(replayed(), false);
      assert.match(String(signedIn.headers['cache-control']), /private/);
      const crossOrigin = await t.request('GET', url, { headers: { origin: 'https://elsewhere.test' } });
      assert.equal(replayed(), false);
      assert.equal(crossOrigin.status, 200);
      const conditional = await t.request('GET', url, { headers: { 'if-none-match': String(plain.headers.etag) } });
      assert.equal(replayed(), false);
      assert.equal(conditional.status, 304);
      const overridden = await t.request('GET', url, { headers: { 'x-http-method-override': 'DELETE' } });
      assert.equal(replayed(), false);
      assert.equal(overridden.status, 401);
      assert.equal((await t.request('HEAD', url)).text, '');
      assert.equal(replayed(), false);
    });
  });
}

describe('replayed answers follow the addresses and the rate limit', () => {
  let t: TestApp;
  let limited: TestApp;
  let proxied: TestApp;
  const lines: Array<{ path?: string; replayed?: boolean }> = [];
  before(async () => {
    // A clock that stands still: a recording is replayed only within the second it was made in,
    // and a second turning between a read and its repeat made these counts flaky (one in about
    // fifteen runs).
    const logged = { env: { LOG_LEVEL: 'info' }, loggerStream: { write: (line: string) => void lines.push(JSON.parse(line)) }, overHttp: true, clock };
    t = await startTestApp('sqlite', { ...logged, env: { ...logged.env, CALENDAR_PUBLIC_URL: '' } });
    limited = await startTestApp('sqlite', { ...logged, env: { ...logged.env, CALENDAR_RATE_LIMIT: '1000' } });
    proxied = await startTestApp('sqlite', { ...logged, env: { ...logged.env, CALENDAR_PUBLIC_URL: '', CALENDAR_TRUST_PROXY: 'true' } });
  });
  after(async () => {
    await t.close();
    await limited.close();
    await proxied.close();
  });
  const replayedPaths = () => lines.filter((line) => line.replayed === true).length;

  test('without a public address, each host the service is called by gets its own links', async () => {
    const event = await createEvent(t, 'editor', { title: 'Hostmark' });
    const url = `${EVENTS}/${event.id}`;
    const before = replayedPaths();
    const port = (t.app.server.address() as AddressInfo).port;
    // fetch() sends the address it connects to as Host; node:http sends what it is given.
    const read = (host: string) =>
      new Promise<any>((resolve, reject) => {
        get({ host: '127.0.0.1', port, path: url, headers: { host } }, (response) => {
          let text = '';
          response.on('data', (chunk) => (text += chunk));
          response.on('end', () => resolve(JSON.parse(text)));
        }).on('error', reject);
      });
    for (const host of ['one.test', 'two.test', 'one.test', 'two.test']) {
      const answer = await read(host);
      assert.ok(answer.rest_url.startsWith(`http://${host}/`), answer.rest_url);
    }
    assert.equal(replayedPaths() - before, 2);
  });

  test('behind a trusted proxy, each forwarded host and scheme gets its own links', async () => {
    const event = await createEvent(proxied, 'editor', { title: 'Proxymark' });
    const before = replayedPaths();
    for (const [host, scheme] of [['one.test', 'https'], ['one.test', 'http'], ['two.test', 'https'], ['one.test', 'https'], ['one.test', 'http'], ['two.test', 'https']]) {
      const answer = await proxied.request('GET', `${EVENTS}/${event.id}`, { headers: { 'x-forwarded-host': host, 'x-forwarded-proto': scheme } });
      assert.ok(answer.body.rest_url.startsWith(`${scheme}://${host}/`), answer.body.rest_url);
    }
    assert.equal(replayedPaths() - before, 3);
  });

  test('with a rate limit, every request is counted by the framework', async () => {
    const before = replayedPaths();
    const remaining = [];
    for (let n = 0; n < 3; n++) remaining.push(Number((await limited.request('GET', `${NS}/categories`)).headers['x-ratelimit-remaining']));
    assert.deepEqual(remaining, [999, 998, 997]);
    assert.equal(replayedPaths(), before);
  });
});
