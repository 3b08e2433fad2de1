import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { openStorage, type Storage } from '../../src/storage/database.ts';
import { DIALECTS, freshDatabase, skipReason, type FreshDatabase } from '../helpers/databases.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';
import { startService, type ServiceProcess } from './service-process.ts';

const ADMIN_PASSWORD = 'workers-administrator-secret-0123456789';
const AUTH = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;
const NS = '/calendar/events/v1';
const WRITES = 30;

/** One request on a connection of its own: the cluster hands each new connection to the next worker. */
async function call(origin: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any; text: string }> {
  const response = await fetch(origin + path, {
    method,
    headers: { authorization: AUTH, connection: 'close', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  return { status: response.status, json: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : undefined, text };
}

function workerPids(primary: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(primary)], { encoding: 'utf8' }).split('\n').map((line) => Number(line.trim())).filter((pid) => pid > 0);
  } catch {
    return [];
  }
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// 140 §6 and §10 "workers": CALENDAR_WORKERS=2 as an operator starts it.
for (const dialect of DIALECTS) {
  describe(`CALENDAR_WORKERS=2 [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let database: FreshDatabase;
    let service: ServiceProcess;
    let receiver: WebhookReceiver;
    let storage: Storage;
    before(async () => {
      database = await freshDatabase(dialect);
      receiver = await WebhookReceiver.start({ status: 204 });
      service = await startService({
        DATABASE_URL: database.url,
        CALENDAR_ADMIN_PASSWORD: ADMIN_PASSWORD,
        CALENDAR_WORKERS: '2',
        CALENDAR_METRICS: 'on',
        CALENDAR_WEBHOOKS_ALLOW_INSECURE: '1',
        CALENDAR_WEBHOOKS_POLL_MS: '100',
      });
      storage = await openStorage(database.url);
    });
    after(async () => {
      await service?.kill();
      for (const pid of workerPids(service?.child.pid ?? 0)) process.kill(pid, 'SIGKILL');
      await receiver?.close();
      await storage?.close();
      await database?.dispose();
    });

    test('one start line for both workers; writes through one are read through the other; each change is delivered once', async () => {
      assert.match(service.output(), /listening on http:\/\/127\.0\.0\.1:\d+\/calendar\/events\/v1 \(2 workers\)/);
      assert.equal(workerPids(service.child.pid!).length, 2);
      const hook = await call(service.origin, 'POST', '/calendar/admin/v1/webhooks', { url: receiver.url });
      assert.equal(hook.status, 201, hook.text);
      for (let i = 0; i < WRITES; i++) {
        const created = await call(service.origin, 'POST', `${NS}/events`, { title: `Across ${i}`, status: 'publish', start_date: '2031-02-01 10:00:00', end_date: '2031-02-01 11:00:00' });
        assert.equal(created.status, 201, created.text);
        const url = `${NS}/events/${created.json.id}`;
        // Both workers read (and cache) the record, one changes it, both then read the change.
        for (let read = 0; read < 2; read++) assert.equal((await call(service.origin, 'GET', url)).json.title, `Across ${i}`);
        assert.equal((await call(service.origin, 'POST', url, { title: `Across ${i}, changed` })).status, 200);
        for (let read = 0; read < 2; read++) assert.equal((await call(service.origin, 'GET', url)).json.title, `Across ${i}, changed`, `read ${read} after write ${i}`);
      }
      const changes = WRITES * 2;
      const received = await receiver.until((got) => got.length >= changes, 60_000);
      // A little longer: a second job runner would be sending duplicates now.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal(received.length, changes);
      assert.equal(new Set(received.map((request) => request.headers['webhook-id'])).size, changes);
      if (dialect === 'sqlite') {
        const senders = await storage.db.selectFrom('webhook_attempts').select('instance').distinct().execute();
        assert.equal(senders.length, 1, 'one worker runs the jobs');
      }
    });

    test('a killed worker is replaced; the other serves meanwhile; metrics are merged across workers', async () => {
      const [victim, survivor] = workerPids(service.child.pid!);
      assert.ok(victim && survivor);
      process.kill(victim, 'SIGKILL');
      // Once the primary has seen the exit (the process is reaped), connections go to the survivor
      // alone; the replacement comes a second later. (A connection handed over before would die with the worker.)
      await until('the killed worker reaped', () => (workerPids(service.child.pid!).includes(victim) ? undefined : true));
      for (let i = 0; i < 4; i++) assert.equal((await call(service.origin, 'GET', `${NS}/events`)).status, 200);
      const replaced = await until('a new worker', () => {
        const pids = workerPids(service.child.pid!);
        return pids.length === 2 && !pids.includes(victim) ? pids : undefined;
      });
      assert.ok(replaced.includes(survivor));
      const metrics = await until('the new worker listening', async () => {
        const text = (await call(service.origin, 'GET', '/metrics')).text;
        return /^calendar_workers 2$/m.test(text) ? text : undefined;
      });
      assert.match(metrics, /^calendar_worker_restarts_total 1$/m);
      // Scrapes on two connections reach both workers; each answers the merged counts: the survivor's four list reads.
      for (let scrape = 0; scrape < 2; scrape++) {
        const text = (await call(service.origin, 'GET', '/metrics')).text;
        assert.match(text, /^http_requests_total\{method="GET",route="\/calendar\/events\/v1\/events",status="200"\} 4$/m, text);
      }
    });
  });
}
