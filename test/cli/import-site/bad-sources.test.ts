import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { runImport, startSource, type SourceInstance } from './support.ts';

/** A server that answers every path the way a broken or hostile "calendar" would. */
function badServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    if (path.startsWith('/html')) {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Welcome</title><p>Not an API</p>');
    } else if (path.startsWith('/huge')) {
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const push = () => {
        while (sent < 50) {
          sent++;
          if (!response.write(chunk)) return void response.once('drain', push);
        }
        response.end('{}');
      };
      response.on('error', () => {});
      push();
    } else if (path.startsWith('/loop')) {
      const hop = Number(/hop=(\d+)/.exec(path)?.[1] ?? 0);
      response.writeHead(302, { location: `/loop/events/v1?hop=${hop + 1}` }).end();
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('nothing');
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

/** A port nothing listens on (it was free a moment ago). */
function closedPort(): Promise<number> {
  const server = createServer();
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    server.close(() => resolve(port));
  }));
}

/** 90 §3 row 6: each bad source is one clear line on stderr, exit code 2, nothing written. */
for (const dialect of DIALECTS) {
  describe(`calendar import site refuses bad sources [${dialect} target]`, { skip: skipReason(dialect) }, () => {
    let target: TestApp;
    let bad: { url: string; server: Server };
    let source: SourceInstance;
    before(async () => {
      target = await startTestApp(dialect);
      bad = await badServer();
      source = await startSource();
      await source.call('POST', '/events', { title: 'Only one', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' });
    });
    after(async () => {
      bad?.server.close();
      await source?.close();
      await target?.close();
    });

    const refused = async (args: string[], pattern: RegExp) => {
      const run = await runImport(target.config.databaseUrl, args);
      assert.equal(run.code, 2, run.stdout + run.stderr);
      const lines = run.stderr.trim().split('\n');
      assert.equal(lines.length, 1, run.stderr);
      assert.match(lines[0], pattern);
      assert.equal(run.stdout, '');
      const rows = await target.storage.db.selectFrom('import_records').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      assert.equal(Number(rows.n), 0);
      assert.equal((await target.request('GET', `${NS}/events`, { as: 'administrator' })).body.total, 0);
    };

    test('unreachable host', async () => {
      const closed = await closedPort();
      await refused([`http://127.0.0.1:${closed}/calendar/events/v1`, '--allow-private'], new RegExp(`^calendar: cannot reach http://127\\.0\\.0\\.1:${closed}: .*ECONNREFUSED`));
    });
    test('HTML instead of JSON', () => refused([`${bad.url}/html`, '--allow-private'], /^calendar: no events API found at http:\/\/127\.0\.0\.1:\d+\/html$/));
    test('HTML at a namespace root', () => refused([`${bad.url}/html/events/v1`, '--allow-private'], /^calendar: no events API found at .*\/html\/events\/v1$/));
    test('a 50 MB body', () => refused([`${bad.url}/huge/events/v1`, '--allow-private'], /^calendar: refused: the answer of .* is larger than 20 MB$/));
    test('a redirect loop', () => refused([`${bad.url}/loop/events/v1`, '--allow-private'], /^calendar: refused: more than 5 redirects from /));
    test('wrong password: the source\'s 401 message', () =>
      refused([source.origin, '--user', source.admin.login, '--password', 'wrong', '--allow-private'], /^calendar: the source refused the credentials: .*\(incorrect_password\)$/));
    test('a private address without --allow-private', () => refused([source.root], /^calendar: refused: 127\.0\.0\.1 is a private, loopback or link-local address .* add --allow-private/));
    test('an unknown --author', () => refused([source.root, '--allow-private', '--author', 'nobody'], /^calendar: no local user "nobody"$/));
    test('a scheme other than http(s)', () => refused(['ftp://example.org/calendar/events/v1'], /^calendar: only http and https sources are supported, not ftp:$/));
  });
}
