import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { startService, type ServiceProcess } from '../../crash/service-process.ts';
import { freshDatabase, type FreshDatabase } from '../../helpers/databases.ts';
import { NS } from '../../helpers/test-app.ts';

/**
 * The log as an operator sees it: the real service process with its output piped (not a
 * terminal, so JSON unless LOG_FORMAT says otherwise), one line per request.
 */
describe('request logs', () => {
  const started: ServiceProcess[] = [];
  const databases: FreshDatabase[] = [];
  after(async () => {
    for (const service of started) await service.kill();
    for (const database of databases) await database.dispose();
  });

  async function serve(env: Record<string, string>): Promise<ServiceProcess> {
    const database = await freshDatabase('sqlite');
    databases.push(database);
    const service = await startService({ DATABASE_URL: database.url, LOG_LEVEL: 'info', CALENDAR_ADMIN_PASSWORD: 'admin-secret-for-logs', ...env });
    started.push(service);
    return service;
  }

  /** Waits until the process has printed a line matching `pattern` (log writes are asynchronous). */
  async function lineMatching(service: ServiceProcess, pattern: RegExp): Promise<string> {
    for (;;) {
      const line = service.output().split('\n').find((candidate) => pattern.test(candidate));
      if (line !== undefined) return line;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  test('not a terminal: one JSON line per request with method, path, status and time; no query string, no credentials', async () => {
    const service = await serve({});
    const auth = `Basic ${Buffer.from('admin:admin-secret-for-logs').toString('base64')}`;
    assert.equal((await fetch(`${service.origin}${NS}/events?password=hunter2&per_page=3`, { headers: { authorization: auth } })).status, 200);
    // Monitors' probes (140 §2) write no line at info.
    assert.equal((await fetch(`${service.origin}/healthz`)).status, 200);
    assert.equal((await fetch(`${service.origin}/readyz`)).status, 200);
    assert.equal((await fetch(`${service.origin}${NS}/nowhere`)).status, 404);
    const line = await lineMatching(service, /\/nowhere/);
    const first = JSON.parse(await lineMatching(service, /"path":"\/calendar\/events\/v1\/events"/));
    assert.equal(first.level, 30);
    assert.deepEqual([first.method, first.path, first.status, typeof first.ms], ['GET', `${NS}/events`, 200, 'number']);
    assert.equal(first.msg, `GET ${NS}/events 200 ${first.ms}ms`);
    assert.equal(JSON.parse(line).status, 404);
    const requestLines = service.output().split('\n').filter((candidate) => candidate.includes('"path":'));
    assert.equal(requestLines.length, 2, 'one line per request');
    assert.ok(!service.output().includes('incoming request'));
    for (const secret of ['hunter2', 'admin-secret-for-logs', auth.slice(6)]) assert.ok(!service.output().includes(secret), secret);
  });

  test('LOG_FORMAT=pretty: readable lines, not JSON', async () => {
    const service = await serve({ LOG_FORMAT: 'pretty' });
    assert.equal((await fetch(`${service.origin}${NS}/events`)).status, 200);
    const line = await lineMatching(service, new RegExp(`GET ${NS}/events 200`));
    assert.ok(!line.trimStart().startsWith('{'), line);
    assert.match(line, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO.*GET \/calendar\/events\/v1\/events 200 [\d.]+ms/);
  });
});
