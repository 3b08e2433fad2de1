import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { RestError } from '../../../src/domain/errors.ts';
import { fetchIcal } from '../../../src/services/ical-fetch.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { clock } from '../events/fixtures.ts';
import { fixture, IMPORTS, rowCounts } from './import-helpers.ts';

/** A real calendar server on 127.0.0.1 that counts the requests it receives. */
async function calendarServer(): Promise<{ server: Server; origin: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const { port } = server.address() as AddressInfo;
    if (request.url === '/team.ics') {
      response.writeHead(200, { 'content-type': 'text/calendar' });
      response.end(fixture('google.ics'));
    } else if (request.url === '/moved') {
      response.writeHead(302, { location: '/team.ics' });
      response.end();
    } else if (request.url === '/elsewhere') {
      response.writeHead(302, { location: `http://localhost:${port}/team.ics` });
      response.end();
    } else if (request.url === '/huge') {
      response.writeHead(200, { 'content-type': 'text/calendar' });
      response.end(Buffer.alloc(64 * 1024, 0x41));
    } else {
      response.writeHead(404);
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}`, requests };
}

for (const dialect of DIALECTS) {
  describe(`iCalendar import from a URL [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let remote: Awaited<ReturnType<typeof calendarServer>>;
    before(async () => {
      remote = await calendarServer();
      // The operator lists the literal loopback origin: the one way a private address is allowed (C.1).
      t = await startTestApp(dialect, { clock, env: { CALENDAR_IMPORT_URL_ALLOWLIST: remote.origin, CALENDAR_IMPORT_MAX_BYTES: String(32 * 1024) } });
    });
    after(async () => {
      await t.close();
      await new Promise((resolve) => remote.server.close(resolve));
    });
    const importUrl = (url: string) => t.request('POST', IMPORTS, { as: 'administrator', body: { url } });

    test('a listed origin is fetched over a real connection and imported; redirects within listed origins are followed', async () => {
      const first = await importUrl(`${remote.origin}/team.ics`);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.deepEqual(first.body.totals, { created: 2, updated: 0, unchanged: 0, skipped: 0, ignored: 2 });
      const moved = await importUrl(`${remote.origin}/moved`);
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.equal(moved.body.totals.unchanged, 2);
      assert.deepEqual(remote.requests.slice(-2), ['/moved', '/team.ics']);
    });

    test('refused without a request: an origin not listed, a redirect out of the list; errors of the source answer 502 and 413', async () => {
      const counts = await rowCounts(t);
      const seen = remote.requests.length;
      const { port } = remote.server.address() as AddressInfo;
      const unlisted = await importUrl(`http://localhost:${port}/team.ics`);
      assert.deepEqual([unlisted.status, unlisted.body.code], [400, 'ical-url-not-allowed']);
      assert.equal(remote.requests.length, seen, 'no request to an unlisted origin');
      const out = await importUrl(`${remote.origin}/elsewhere`);
      assert.deepEqual([out.status, out.body.code], [400, 'ical-url-not-allowed']);
      assert.deepEqual(remote.requests.slice(seen), ['/elsewhere'], 'the redirect target is never requested');
      const missing = await importUrl(`${remote.origin}/missing.ics`);
      assert.deepEqual([missing.status, missing.body.code], [502, 'ical-fetch-failed']);
      const huge = await importUrl(`${remote.origin}/huge`);
      assert.deepEqual([huge.status, huge.body.code], [413, 'ical-too-large']);
      assert.deepEqual(await rowCounts(t), counts);
    });

    test('a listed name that resolves to a private address is refused at connect time (DNS rebinding)', async () => {
      const { port } = remote.server.address() as AddressInfo;
      const seen = remote.requests.length;
      // A real resolution: `localhost` is loopback, and only a literal address may be private.
      await assert.rejects(fetchIcal(`http://localhost:${port}/team.ics`, [`http://localhost:${port}`], 1024 * 1024), (error: unknown) => error instanceof RestError && error.code === 'ical-url-not-allowed');
      // A name that answered a public address to someone's earlier query and a private one now: the
      // only resolution is the connection's own, so what is checked is what would be connected to.
      const queries: string[] = [];
      const rebinding = (hostname: string, callback: (error: Error | null, addresses: Array<{ address: string; family: number }>) => void) => {
        queries.push(hostname);
        callback(null, [{ address: '127.0.0.1', family: 4 }]);
      };
      const origin = `http://calendar.example:${port}`;
      await assert.rejects(fetchIcal(`${origin}/team.ics`, [origin], 1024 * 1024, rebinding), (error: unknown) => error instanceof RestError && error.code === 'ical-url-not-allowed');
      assert.deepEqual(queries, ['calendar.example'], 'one resolution, at connect time');
      assert.equal(remote.requests.length, seen, 'nothing reached the server');
      // The same resolver answering a literal listed address is not consulted at all.
      const literal = await fetchIcal(`${remote.origin}/team.ics`, [remote.origin], 1024 * 1024, rebinding);
      assert.match(Buffer.from(literal).toString(), /^BEGIN:VCALENDAR/);
      assert.deepEqual(queries, ['calendar.example']);
    });
  });
}
