import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { SelectQueryNode, type KyselyPlugin } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { WebhookDelivery } from '../../../src/services/webhooks/delivery-worker.ts';
import { changeFanOut } from '../../../src/services/webhooks/change-fan-out.ts';
import { messageObjects } from '../../../src/services/webhooks/message-objects.ts';
import { postMessage } from '../../../src/services/webhooks/sender.ts';
import { WebhooksRepository } from '../../../src/storage/repositories/webhooks-repository.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { WebhookReceiver, type ReceivedRequest } from '../../helpers/webhook-receiver.ts';

const ADMIN = '/calendar/admin/v1';

/** Verifies like a receiver does, with the independent `standardwebhooks` implementation (throws when invalid). */
function verified(secret: string, request: ReceivedRequest): any {
  return new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
}

function changesOf(request: ReceivedRequest): Array<{ type: string; id: number; op: string; effect: string }> {
  return JSON.parse(request.body).data?.changes ?? [];
}

for (const dialect of DIALECTS) {
  describe(`webhook delivery [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let receiver: WebhookReceiver;
    let delivery: WebhookDelivery;
    const errors: unknown[] = [];

    before(async () => {
      t = await startTestApp(dialect, { env: { CALENDAR_WEBHOOKS_ALLOW_INSECURE: '1', CALENDAR_WEBHOOKS_RETRY_SCHEDULE: '0,0' } });
      receiver = await WebhookReceiver.start();
      delivery = new WebhookDelivery({ storage: t.storage, settings: t.config.webhooks, fanOut: changeFanOut(t.storage, t.config), objects: messageObjects(t.storage, t.config), onError: (error) => errors.push(error) });
    });
    after(async () => {
      await receiver.close();
      await t.close();
    });
    beforeEach(async () => {
      // Each test has the receiver to itself.
      for (const hook of (await t.request('GET', `${ADMIN}/webhooks`, { as: 'administrator' })).body) await t.request('DELETE', `${ADMIN}/webhooks/${hook.id}`, { as: 'administrator' });
      receiver.reset();
    });

    /**
     * Runs delivery rounds (as the instance's timer would) until the receiver has what `done` wants.
     * On a shared PostgreSQL server another session's open transaction holds the change log's
     * horizon for a while (80 §3.7), hence a deadline rather than a number of rounds.
     */
    async function deliverUntil(done: (received: ReceivedRequest[]) => boolean): Promise<ReceivedRequest[]> {
      const deadline = Date.now() + 30_000;
      while (!done(receiver.received) && Date.now() < deadline) {
        const before = receiver.received.length;
        await delivery.round();
        await delivery.idle();
        if (receiver.received.length === before) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.deepEqual(errors, []);
      return receiver.until(done, 1);
    }

    async function subscribe(body: Record<string, unknown> = {}): Promise<{ id: number; secret: string }> {
      const res = await t.request('POST', `${ADMIN}/webhooks`, { as: 'administrator', body: { url: receiver.url, ...body } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body;
    }

    async function createEvent(body: Record<string, unknown>): Promise<number> {
      const res = await t.request('POST', `${NS}/events`, { as: 'editor', body: { start_date: '2030-04-12 19:30', end_date: '2030-04-12 22:00', ...body } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.id;
    }

    test('create, update and trash through the API arrive signed, in order, as thin change entries', async () => {
      const hook = await subscribe();
      const id = await createEvent({ title: 'Spring Concert', status: 'publish' });
      await t.request('PATCH', `${NS}/events/${id}`, { as: 'editor', body: { title: 'Spring Concert (moved)' } });
      await t.request('DELETE', `${NS}/events/${id}`, { as: 'editor' });
      const received = await deliverUntil((all) => all.length >= 3);
      const entries = received.map((request) => {
        const body = verified(hook.secret, request);
        assert.equal(body.type, 'calendar.changes');
        assert.equal(body.data.truncated, false);
        assert.equal(typeof body.data.position, 'string');
        return body.data.changes[0];
      });
      assert.deepEqual(entries.map((entry: any) => [entry.type, entry.id, entry.op, entry.effect]), [
        ['event', id, 'create', 'upsert'],
        ['event', id, 'update', 'upsert'],
        ['event', id, 'trash', 'remove'],
      ]);
      assert.equal(entries[0].rest_url, `http://calendar.test${NS}/events/${id}`);
      assert.equal(new Set(received.map((request) => request.headers['webhook-id'])).size, 3);
      assert.equal(entries[2].cursor, JSON.parse(received[2]!.body).data.position);
      // A message's position reads the change feed from right after it (a visitor's cursor).
      const feed = await t.request('GET', `${NS}/changes?cursor=${JSON.parse(received[0]!.body).data.position}`);
      assert.equal(feed.status, 200, JSON.stringify(feed.body));
      assert.deepEqual(feed.body.changes.map((entry: any) => [entry.type, entry.id, entry.op, entry.effect]), [
        ['event', id, 'update', 'upsert'],
        ['event', id, 'trash', 'remove'],
      ]);
    });

    test('include_objects: upserts carry the record as the visibility lists it, rendered at the first attempt and resent byte for byte', async () => {
      const open = await subscribe({ include_objects: true });
      assert.equal((await t.request('GET', `${ADMIN}/webhooks/${open.id}`, { as: 'administrator' })).body.include_objects, true);
      const full = await subscribe({ visibility: 'full', include_objects: true, types: ['event.create'] });
      const thin = await subscribe({ types: ['event.create'] });
      receiver.reply({ status: 500 });
      const id = await createEvent({ title: 'Open rehearsal', status: 'publish' });
      const draft = await createEvent({ title: 'Board meeting', status: 'draft' });
      const first = await deliverUntil((all) => all.length >= 1);
      // Changed after the first attempt: the retry still sends what that attempt rendered.
      await t.request('PATCH', `${NS}/events/${id}`, { as: 'editor', body: { title: 'Open rehearsal, moved' } });
      const received = await deliverUntil((all) => all.filter((request) => request.status === 204).length >= 5);
      const signedBy = (secret: string) => received.filter((request) => {
        try {
          verified(secret, request);
          return true;
        } catch {
          return false;
        }
      });
      const listed = (await t.request('GET', `${NS}/events?include=${id}&modified_after=1970-01-01`)).body.events[0];
      const openBodies = signedBy(open.secret).map((request) => request.body);
      const failed = first[0]!;
      const retried = received.filter((request) => request.headers['webhook-id'] === failed.headers['webhook-id']);
      assert.deepEqual(retried.map((request) => request.status), [500, 204]);
      assert.equal(retried[1]!.body, retried[0]!.body, 'a retry sends the frozen bytes');
      const publicEntries = openBodies.map((body) => JSON.parse(body).data.changes[0]);
      const byOp = (op: string) => publicEntries.find((entry: any) => entry.id === id && entry.op === op);
      // Every message was first attempted before the change (one round claims them all).
      assert.equal(byOp('create').object.title, 'Open rehearsal');
      assert.deepEqual(byOp('update').object, listed, 'as the public list shows it, no json_ld');
      assert.equal(publicEntries.some((entry: any) => entry.id === draft), false);
      const fullEntries = signedBy(full.secret).map((request) => JSON.parse(request.body).data.changes[0]);
      assert.deepEqual(fullEntries.map((entry: any) => [entry.id, entry.object.status]).sort(), [[id, 'publish'], [draft, 'draft']].sort());
      for (const request of signedBy(thin.secret)) assert.equal(JSON.parse(request.body).data.changes[0].object, undefined);
      const patched = await t.request('PATCH', `${ADMIN}/webhooks/${open.id}`, { as: 'administrator', body: { include_objects: false } });
      assert.equal(patched.body.include_objects, false);
      assert.equal((await t.request('PATCH', `${ADMIN}/webhooks/${open.id}`, { as: 'administrator', body: { include_objects: 'sometimes' } })).status, 400);
    });

    test('include_objects: an entry whose record is trashed before the first attempt goes without an object', async () => {
      const hook = await subscribe({ include_objects: true, types: ['event.create'] });
      const id = await createEvent({ title: 'Cancelled gig', status: 'publish' });
      await t.request('DELETE', `${NS}/events/${id}`, { as: 'editor' });
      const [request] = await deliverUntil((all) => all.length >= 1);
      const entry = verified(hook.secret, request!).data.changes[0];
      assert.deepEqual([entry.id, entry.op, entry.effect, entry.object], [id, 'create', 'upsert', undefined]);
    });

    test('a receiver answering 500 then 200: one success, the same webhook-id both times, both signatures valid', async () => {
      const hook = await subscribe();
      receiver.reply({ status: 500 });
      const ping = await t.request('POST', `${ADMIN}/webhooks/${hook.id}/ping`, { as: 'administrator' });
      assert.equal(ping.status, 202);
      const received = await deliverUntil((all) => all.some((request) => request.status === 204));
      assert.deepEqual(received.map((request) => request.status), [500, 204]);
      assert.equal(received[0]!.headers['webhook-id'], ping.body.webhook_id);
      assert.equal(received[1]!.headers['webhook-id'], ping.body.webhook_id);
      for (const request of received) assert.equal(verified(hook.secret, request).type, 'calendar.ping');
      const log = await t.request('GET', `${ADMIN}/webhooks/${hook.id}/deliveries/${ping.body.id}`, { as: 'administrator' });
      assert.equal(log.body.status, 'succeeded');
      assert.deepEqual(log.body.attempt_log.map((attempt: any) => attempt.status_code), [500, 204]);
      const state = (await t.request('GET', `${ADMIN}/webhooks/${hook.id}`, { as: 'administrator' })).body;
      assert.equal(state.consecutive_failures, 0);
      assert.ok(state.last_success_at >= state.last_failure_at);
    });

    test('after the last attempt the message is a dead letter, listed for administrators and redeliverable with its webhook-id', async () => {
      const hook = await subscribe();
      receiver.fallback = { status: 500 };
      const ping = (await t.request('POST', `${ADMIN}/webhooks/${hook.id}/ping`, { as: 'administrator' })).body;
      await deliverUntil((all) => all.length >= 3);
      await delivery.round();
      await delivery.idle();
      assert.equal(receiver.received.length, 3, 'schedule 0,0 = three attempts, then no more');
      const dead = await t.request('GET', `${ADMIN}/webhooks/${hook.id}/deliveries?status=failed`, { as: 'administrator' });
      assert.equal(dead.status, 200);
      assert.deepEqual(dead.body.map((message: any) => [message.id, message.status, message.attempts, message.last_error]), [[ping.id, 'failed', 3, 'HTTP 500']]);
      assert.equal(dead.headers['x-tec-total'], '1');
      assert.equal((await t.request('GET', `${ADMIN}/webhooks/${hook.id}/deliveries?status=pending`, { as: 'administrator' })).body.length, 0);
      assert.equal((await t.request('GET', `${ADMIN}/webhooks/${hook.id}/deliveries?status=lost`, { as: 'administrator' })).status, 400);

      receiver.fallback = { status: 200 };
      const again = await t.request('POST', `${ADMIN}/webhooks/${hook.id}/deliveries/${ping.id}/redeliver`, { as: 'administrator' });
      assert.equal(again.status, 202);
      const received = await deliverUntil((all) => all.length >= 4);
      assert.equal(received[3]!.headers['webhook-id'], ping.webhook_id);
      verified(hook.secret, received[3]!);
      const pending = await t.request('POST', `${ADMIN}/webhooks/${hook.id}/deliveries/${ping.id}/redeliver`, { as: 'administrator' });
      assert.equal(pending.status, 202, 'a succeeded message can be sent again too');
      const unknown = await t.request('POST', `${ADMIN}/webhooks/${hook.id}/deliveries/999999/redeliver`, { as: 'administrator' });
      assert.equal(unknown.body.code, 'webhook_delivery_invalid_id');
    });

    test('429 with Retry-After waits at least that long, not the schedule', async () => {
      const hook = await subscribe();
      receiver.reply({ status: 429, headers: { 'retry-after': '120' } });
      const ping = (await t.request('POST', `${ADMIN}/webhooks/${hook.id}/ping`, { as: 'administrator' })).body;
      await deliverUntil((all) => all.length >= 1);
      const message = (await t.request('GET', `${ADMIN}/webhooks/${hook.id}/deliveries/${ping.id}`, { as: 'administrator' })).body;
      assert.equal(message.status, 'pending');
      const waited = Date.parse(message.next_attempt_at) - Date.parse(message.attempt_log[0].started_at);
      assert.ok(waited >= 119_000, `waits ${waited} ms`);
    });

    test('410 from the receiver disables the subscription and cancels what it had waiting', async () => {
      const hook = await subscribe();
      receiver.fallback = { status: 410 };
      const first = (await t.request('POST', `${ADMIN}/webhooks/${hook.id}/ping`, { as: 'administrator' })).body;
      await deliverUntil((all) => all.length >= 1);
      const second = (await t.request('POST', `${ADMIN}/webhooks/${hook.id}/ping`, { as: 'administrator' })).body;
      const state = (await t.request('GET', `${ADMIN}/webhooks/${hook.id}`, { as: 'administrator' })).body;
      assert.deepEqual([state.active, state.disabled_reason], [false, 'receiver-gone']);
      await delivery.round();
      await delivery.idle();
      assert.equal(receiver.received.length, 1);
      assert.equal((await t.request('GET', `${ADMIN}/webhooks/${hook.id}/deliveries/${first.id}`, { as: 'administrator' })).body.status, 'failed');
      assert.equal((await t.request('GET', `${ADMIN}/webhooks/${hook.id}/deliveries/${second.id}`, { as: 'administrator' })).body.status, 'pending', 'waits while disabled');
      const back = await t.request('PATCH', `${ADMIN}/webhooks/${hook.id}`, { as: 'administrator', body: { active: true } });
      assert.deepEqual([back.body.active, back.body.disabled_reason], [true, null]);
    });

    test('after a rotation both secrets sign, and each verifies', async () => {
      const hook = await subscribe();
      const rotated = (await t.request('POST', `${ADMIN}/webhooks/${hook.id}/rotate-secret`, { as: 'administrator' })).body;
      await t.request('POST', `${ADMIN}/webhooks/${hook.id}/ping`, { as: 'administrator' });
      const [request] = await deliverUntil((all) => all.length >= 1);
      assert.equal(String(request!.headers['webhook-signature']).split(' ').length, 2);
      verified(hook.secret, request!);
      verified(rotated.secret, request!);
      assert.throws(() => verified('whsec_' + Buffer.alloc(32, 1).toString('base64'), request!));
    });

    test('public visibility never shows a draft; full visibility does; types filter by kind and operation', async () => {
      const open = await subscribe();
      const full = await subscribe({ visibility: 'full', types: ['event.create'] });
      await createEvent({ title: 'Secret board meeting', status: 'draft' });
      const published = await createEvent({ title: 'Open day', status: 'publish' });
      await t.request('PATCH', `${NS}/events/${published}`, { as: 'editor', body: { title: 'Open day!' } });
      await deliverUntil((all) => all.length >= 4);
      await delivery.round();
      await delivery.idle();
      const byHook = (secret: string) => receiver.received.flatMap((request) => {
        try {
          verified(secret, request);
          return changesOf(request).map((change) => `${change.op}:${change.id === published ? 'published' : 'draft'}`);
        } catch {
          return [];
        }
      });
      assert.deepEqual(byHook(open.secret), ['create:published', 'update:published']);
      assert.deepEqual(byHook(full.secret).sort(), ['create:draft', 'create:published']);
      assert.ok(receiver.received.every((request) => !request.body.includes('Secret board meeting')));
    });

    test('a later change of a record waits until the earlier one succeeded', async () => {
      const hook = await subscribe();
      receiver.reply({ status: 500 }, { status: 503 });
      const id = await createEvent({ title: 'Ordered', status: 'publish' });
      await t.request('PATCH', `${NS}/events/${id}`, { as: 'editor', body: { title: 'Ordered 2' } });
      const received = await deliverUntil((all) => all.filter((request) => request.status === 204).length >= 2);
      assert.deepEqual(received.map((request) => `${changesOf(request)[0]!.op}:${request.status}`), ['create:500', 'create:503', 'create:204', 'update:204']);
      for (const request of received) verified(hook.secret, request);
    });

    test('no success for 5 days and 20 failed messages: the subscription is disabled as failing', async () => {
      const hook = await subscribe();
      const longAgo = new Date(Date.now() - 6 * 24 * 3600 * 1000).toISOString();
      await t.storage.db.updateTable('webhooks').set({ created_at: longAgo }).where('id', '=', hook.id).execute();
      const now = new Date().toISOString();
      await t.storage.db
        .insertInto('webhook_messages')
        .values(Array.from({ length: 19 }, (_, i) => ({ subscription_id: hook.id, webhook_id: `msg_old_${dialect}_${i}`, type: 'calendar.ping', payload: '{}', status: 'failed' as const, attempts: 3, next_attempt_at: now, created_at: now, finished_at: now })))
        .execute();
      receiver.fallback = { status: 500 };
      await t.request('POST', `${ADMIN}/webhooks/${hook.id}/ping`, { as: 'administrator' });
      await deliverUntil((all) => all.length >= 3);
      await delivery.round();
      await delivery.idle();
      const state = (await t.request('GET', `${ADMIN}/webhooks/${hook.id}`, { as: 'administrator' })).body;
      assert.deepEqual([state.active, state.disabled_reason], [false, 'failing']);
    });

    test('retention: old attempts go, and the bodies of old delivered messages', async () => {
      const hook = await subscribe();
      const ping = (await t.request('POST', `${ADMIN}/webhooks/${hook.id}/ping`, { as: 'administrator' })).body;
      await deliverUntil((all) => all.length >= 1);
      const repository = new WebhooksRepository(t.storage.db);
      await repository.prune(new Date(Date.now() - 1000 * 3600), new Date(Date.now() - 1000 * 3600));
      assert.equal((await t.request('GET', `${ADMIN}/webhooks/${hook.id}/deliveries/${ping.id}`, { as: 'administrator' })).body.attempt_log.length, 1, 'recent rows stay');
      await repository.prune(new Date(Date.now() + 1000 * 3600), new Date(Date.now() + 1000 * 3600));
      const pruned = (await t.request('GET', `${ADMIN}/webhooks/${hook.id}/deliveries/${ping.id}`, { as: 'administrator' })).body;
      assert.deepEqual([pruned.attempt_log.length, pruned.payload, pruned.status], [0, null, 'succeeded']);
      const again = await t.request('POST', `${ADMIN}/webhooks/${hook.id}/deliveries/${ping.id}/redeliver`, { as: 'administrator' });
      assert.deepEqual([again.status, again.body.code], [409, 'webhook_payload_expired']);
    });

    test('deleting a subscription drops its waiting messages', async () => {
      const hook = await subscribe();
      const ping = (await t.request('POST', `${ADMIN}/webhooks/${hook.id}/ping`, { as: 'administrator' })).body;
      await t.request('DELETE', `${ADMIN}/webhooks/${hook.id}`, { as: 'administrator' });
      await delivery.round();
      await delivery.idle();
      assert.equal(receiver.received.length, 0);
      assert.equal(await t.storage.db.selectFrom('webhook_messages').select('id').where('id', '=', ping.id).executeTakeFirst(), undefined);
    });

    test('outside insecure mode the sender refuses loopback targets, also by name at connect time', async () => {
      const port = new URL(receiver.url).port;
      for (const url of [`http://127.0.0.1:${port}/hook`, `http://localhost:${port}/hook`, `http://[::1]:${port}/hook`]) {
        const result = await postMessage(url, {}, '{}', { allowPrivate: false, timeoutMs: 2000 });
        assert.equal(result.status, null, url);
        assert.match(result.error ?? '', /^refused/, url);
      }
      assert.equal(receiver.received.length, 0);
      const allowed = await postMessage(receiver.url, {}, '{}', { allowPrivate: true, timeoutMs: 2000 });
      assert.equal(allowed.status, 204);
    });

    test('a receiver slower than the timeout counts as a failed attempt', async () => {
      receiver.reply({ status: 200, delayMs: 1500 });
      const slow = await postMessage(receiver.url, {}, '{}', { allowPrivate: true, timeoutMs: 200 });
      assert.equal(slow.status, null);
      assert.match(slow.error ?? '', /timeout/);
    });

    // SQLite's own hazard: a transaction that read first cannot write after another process committed.
    if (dialect === 'sqlite') test('another process committing while the fan-out reads does not fail it (it is the writer first)', async () => {
      await subscribe();
      await createEvent({ title: 'Fanned Out', status: 'publish' });
      const hook = (await t.request('GET', `${ADMIN}/webhooks`, { as: 'administrator' })).body[0];
      // Another process's connection, writing the moment the fan-out has read its subscriptions.
      const other = new BetterSqlite3(t.databaseUrl.slice('sqlite:'.length));
      other.pragma('busy_timeout = 0');
      let otherWrite = 'not tried';
      const subscriptionsRead = new Set<unknown>();
      const interleaving: KyselyPlugin = {
        transformQuery({ node, queryId }) {
          if (SelectQueryNode.is(node) && node.orderBy !== undefined && JSON.stringify(node.from).includes('"webhooks"')) subscriptionsRead.add(queryId);
          return node;
        },
        async transformResult({ result, queryId }) {
          if (subscriptionsRead.has(queryId) && otherWrite === 'not tried') {
            try {
              other.prepare('update webhooks set description = ? where id = ?').run('touched by another process', hook.id);
              otherWrite = 'committed';
            } catch (error) {
              otherWrite = (error as { code?: string }).code ?? 'failed';
            }
          }
          return result;
        },
      };
      try {
        await changeFanOut({ ...t.storage, db: t.storage.db.withPlugin(interleaving) }, t.config)();
      } finally {
        other.close();
      }
      // The fan-out held the write lock: the other process's write waited its turn (here: refused at once).
      assert.equal(otherWrite, 'SQLITE_BUSY');
      assert.ok(await new WebhooksRepository(t.storage.db).countMessages(hook.id, 'pending') >= 1);
    });
  });
}
