import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { openStorage, type Storage } from '../../src/storage/database.ts';
import { freshDatabase, skipReason, type FreshDatabase } from '../helpers/databases.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';
import { startService, type ServiceProcess } from './service-process.ts';

/**
 * Issue 14, webhooks on several instances: two services on one PostgreSQL database, writes
 * through both, one killed with SIGKILL while its delivery is in flight (the receiver answers
 * slowly). The receiver gets every change at least once, each correctly signed, a record's
 * changes in order; the killed instance's message is sent again by the other after its lease.
 */

const ADMIN_PASSWORD = 'webhook-failover-administrator-secret-0123';
const AUTH = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;
const NS = '/calendar/events/v1';
const RECORDS = 4;
// Two sends per subscription are in flight at a time, each held 1.5 s by the receiver, and an
// instance whose send ends claims the next one at once: whoever claims first keeps the slots while
// messages are waiting. B polls ten times less often, so A is (almost always) the first to claim
// after a write; writes go on, a little apart, until it has.
const CLAIM_DEADLINE_MS = 30_000;

async function call(origin: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(origin + path, {
    method,
    headers: { authorization: AUTH, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const json = await response.json();
  assert.ok(response.ok, `${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

describe('webhooks survive a killed instance [postgres]', { skip: skipReason('postgres') }, () => {
  let database: FreshDatabase;
  let storage: Storage;
  let receiver: WebhookReceiver;
  const services: ServiceProcess[] = [];

  before(async () => {
    database = await freshDatabase('postgres');
    // Slow answers keep deliveries in flight long enough to kill an instance during one.
    receiver = await WebhookReceiver.start({ status: 204, delayMs: 1500 });
    const env = {
      DATABASE_URL: database.url,
      CALENDAR_ADMIN_PASSWORD: ADMIN_PASSWORD,
      CALENDAR_WEBHOOKS_ALLOW_INSECURE: '1',
      CALENDAR_WEBHOOKS_LEASE_SECONDS: '4',
      CALENDAR_WEBHOOKS_TIMEOUT_MS: '3000',
      CALENDAR_WEBHOOKS_POLL_MS: '100',
      CALENDAR_WEBHOOKS_RETRY_SCHEDULE: '0,0,0,0,0,0,0,0',
    };
    // One after the other: the first start migrates the new database and creates the administrator.
    services.push(await startService(env));
    services.push(await startService({ ...env, CALENDAR_WEBHOOKS_POLL_MS: '1000' }));
    storage = await openStorage(database.url);
  });
  after(async () => {
    for (const service of services) await service.kill();
    await receiver.close();
    await storage?.close();
    await database?.dispose();
  });

  test('every change arrives at least once, signed, in order per record, though one instance died mid-delivery', async () => {
    const [a, b] = services as [ServiceProcess, ServiceProcess];
    const hook = await call(a.origin, 'POST', '/calendar/admin/v1/webhooks', { url: receiver.url });

    // Writes through both instances (each record created through one, updated through the other)
    // until A is sending one of the messages; A is killed at once (its lease names its process id),
    // and the writes go on through B.
    const ids: number[] = [];
    // A message A is sending whose request has reached the receiver (which holds it): not one
    // between claim and send.
    const claimedByA = async () => {
      const claimed = await storage.db
        .selectFrom('webhook_messages')
        .select(['id', 'webhook_id'])
        .where('status', '=', 'delivering')
        .where('lease_owner', 'like', `%:${a.child.pid}:%`)
        .execute();
      return claimed.find((message) => receiver.arrivals.some((request) => request.headers['webhook-id'] === message.webhook_id));
    };
    const deadline = Date.now() + CLAIM_DEADLINE_MS;
    for (let i = 0, after = 0; a.killed ? after < RECORDS : Date.now() < deadline; i++) {
      if (a.killed) after++;
      const [creator, updater] = a.killed ? [b, b] : i % 2 === 0 ? [a, b] : [b, a];
      const event = await call(creator.origin, 'POST', `${NS}/events`, { title: `Failover ${i}`, status: 'publish', start_date: '2030-05-01 10:00', end_date: '2030-05-01 11:00' });
      await call(updater.origin, 'POST', `${NS}/events/${event.id}`, { title: `Failover ${i} (updated)` });
      ids.push(event.id);
      for (let waited = 0; !a.killed && waited < 500; waited += 20) {
        if (await claimedByA()) await a.kill();
        else await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    assert.ok(a.killed, 'instance A claimed a message');
    // What A was sending when it died (the receiver holds each request for a while).
    const victim = await claimedByA();
    assert.ok(victim, 'A died during a send');

    const expected = ids.flatMap((id) => [`${id}:create`, `${id}:update`]);
    const key = (body: string) => {
      const change = JSON.parse(body).data.changes[0];
      return `${change.id}:${change.op}`;
    };
    await receiver.until((received) => expected.every((entry) => received.some((request) => request.status === 204 && key(request.body) === entry)), 60_000);
    // The killed instance's message is finished by the other one, under the same webhook-id.
    for (let tries = 0; tries < 600; tries++) {
      const row = await storage.db.selectFrom('webhook_messages').select('status').where('id', '=', victim.id).executeTakeFirstOrThrow();
      if (row.status === 'succeeded') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const finished = await storage.db.selectFrom('webhook_messages').select(['status', 'attempts']).where('id', '=', victim.id).executeTakeFirstOrThrow();
    assert.equal(finished.status, 'succeeded');
    assert.ok(finished.attempts >= 2, 'sent again after the lease ran out');
    const senders = await storage.db.selectFrom('webhook_attempts').select('instance').where('message_id', '=', victim.id).execute();
    assert.ok(senders.some((attempt) => !attempt.instance.includes(`:${a.child.pid}:`)), 'the surviving instance sent it');
    assert.ok(receiver.arrivals.filter((request) => request.headers['webhook-id'] === victim.webhook_id).length >= 2, 'the receiver saw the same webhook-id again');

    // Every request is signed with the subscription's secret (checked as a receiver would).
    const verifier = new Webhook(hook.secret);
    for (const request of receiver.arrivals) verifier.verify(request.body, request.headers as Record<string, string>);
    // Per record, the first arrival of each change is in the order of the writes.
    for (const id of ids) {
      const firsts = [...new Set(receiver.arrivals.map((request) => key(request.body)).filter((entry) => entry.startsWith(`${id}:`)))];
      assert.deepEqual(firsts, [`${id}:create`, `${id}:update`]);
    }
  });
});
