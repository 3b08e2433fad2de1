import assert from 'node:assert/strict';
import { once } from 'node:events';
import { request, type IncomingMessage } from 'node:http';
import { after, describe, test } from 'node:test';
import { DIALECTS, freshDatabase, skipReason, type FreshDatabase } from '../helpers/databases.ts';
import { startService, type ServiceProcess } from './service-process.ts';

const ADMIN_PASSWORD = 'shutdown-administrator-secret-0123456';
const AUTH = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;
const NS = '/calendar/events/v1';

/** A POST whose body is sent in two halves: the second when `finish` is called. */
function slowPost(origin: string, body: string) {
  const url = new URL(`${origin}${NS}/events`);
  const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent: false, headers: { authorization: AUTH, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
  const answered = new Promise<{ status: number; connection: string | undefined; text: string }>((resolve, reject) => {
    req.on('response', (res: IncomingMessage) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, text }));
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 10));
  return { answered, finish: () => req.end(body.slice(10)) };
}

/** Resolves once the process has exited, with its code. */
function exited(service: ServiceProcess): Promise<number | null> {
  if (service.child.exitCode !== null) return Promise.resolve(service.child.exitCode);
  return once(service.child, 'exit').then(([code]) => code as number | null);
}

// 140 §5 and §10 "shutdown": a real started process, signalled while requests are still arriving.
for (const dialect of DIALECTS) {
  describe(`graceful stop [${dialect}]`, { skip: skipReason(dialect) }, () => {
    const databases: FreshDatabase[] = [];
    const services: ServiceProcess[] = [];
    after(async () => {
      for (const service of services) await service.kill();
      for (const database of databases) await database.dispose();
    });
    const start = async (env: Record<string, string> = {}) => {
      const database = await freshDatabase(dialect);
      databases.push(database);
      const service = await startService({ DATABASE_URL: database.url, CALENDAR_ADMIN_PASSWORD: ADMIN_PASSWORD, LOG_LEVEL: 'info', LOG_FORMAT: 'json', ...env });
      services.push(service);
      return service;
    };

    test('SIGTERM with 20 requests whose bodies are still arriving: all answered, new connections refused, exit 0', async () => {
      const service = await start();
      const posts = Array.from({ length: 20 }, (_, i) =>
        slowPost(service.origin, JSON.stringify({ title: `In flight ${i}`, start_date: '2031-05-01 10:00:00', end_date: '2031-05-01 11:00:00', status: 'publish' })),
      );
      // Every request has reached the service (its headers parsed) before the signal.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const code = exited(service);
      service.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 300));
      await assert.rejects(fetch(`${service.origin}/healthz`), 'the listener is closed');
      for (const post of posts) post.finish();
      const answers = await Promise.all(posts.map((post) => post.answered));
      for (const answer of answers) {
        assert.equal(answer.status, 201, answer.text);
        assert.equal(answer.connection, 'close');
      }
      assert.equal(await code, 0);
      assert.match(service.output(), /stopping: 20 requests in flight/);
      assert.match(service.output(), /stopped after \d+ ms/);
    });

    if (dialect === 'sqlite') {
      test('a request still unfinished at the end of the grace is cut; the process exits 0 at the grace', async () => {
        const service = await start({ CALENDAR_SHUTDOWN_GRACE_MS: '700' });
        const stuck = slowPost(service.origin, JSON.stringify({ title: 'Never finished', start_date: '2031-05-01 10:00:00' }));
        stuck.answered.catch(() => {});
        await new Promise((resolve) => setTimeout(resolve, 500));
        const began = performance.now();
        const code = exited(service);
        service.child.kill('SIGTERM');
        assert.equal(await code, 0);
        const took = performance.now() - began;
        assert.ok(took >= 650 && took < 5000, `stopped after ${took} ms`);
        await assert.rejects(stuck.answered);
      });

      test('a second signal within 1 s is the same stop; one after it exits at once with 128 + the signal', async () => {
        const service = await start({ CALENDAR_SHUTDOWN_GRACE_MS: '60000' });
        const stuck = slowPost(service.origin, JSON.stringify({ title: 'Held', start_date: '2031-05-01 10:00:00' }));
        stuck.answered.catch(() => {});
        await new Promise((resolve) => setTimeout(resolve, 500));
        const code = exited(service);
        service.child.kill('SIGTERM');
        service.child.kill('SIGINT');
        await new Promise((resolve) => setTimeout(resolve, 1300));
        assert.equal(service.child.exitCode, null, 'still waiting for the request in flight');
        service.child.kill('SIGTERM');
        assert.equal(await code, 143);
      });
    }
  });
}
