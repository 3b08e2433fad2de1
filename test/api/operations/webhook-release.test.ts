import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { changeFanOut } from '../../../src/services/webhooks/change-fan-out.ts';
import { WebhookDelivery } from '../../../src/services/webhooks/delivery-worker.ts';
import { WebhooksRepository } from '../../../src/storage/repositories/webhooks-repository.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { WebhookReceiver } from '../../helpers/webhook-receiver.ts';

// 140 §5 "jobs": a stopping process hands back the messages it claimed and did not begin to send.
for (const dialect of DIALECTS) {
  describe(`webhook claims released by a stop [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let receiver: WebhookReceiver;
    before(async () => {
      t = await startTestApp(dialect, { env: { CALENDAR_WEBHOOKS_ALLOW_INSECURE: '1' } });
      receiver = await WebhookReceiver.start();
    });
    after(async () => {
      await receiver.close();
      await t.close();
    });

    test('a claimed, unsent message goes back to pending at once (no attempt counted) and another instance sends it before the lease ends', async () => {
      assert.equal((await t.request('POST', '/calendar/admin/v1/webhooks', { as: 'administrator', body: { url: receiver.url } })).status, 201);
      assert.equal((await t.request('POST', `${NS}/events`, { as: 'editor', body: { title: 'Released', status: 'publish', start_date: '2031-04-01 10:00', end_date: '2031-04-01 11:00' } })).status, 201);
      const repository = new WebhooksRepository(t.storage.db);
      const fanOut = changeFanOut(t.storage, t.config);
      // On a shared PostgreSQL server another session's transaction may hold the change log's horizon a while.
      const deadline = Date.now() + 30_000;
      let claimed;
      while (claimed === undefined && Date.now() < deadline) {
        await fanOut();
        const now = await repository.now();
        claimed = await repository.claim('stopping-instance', now, new Date(now.getTime() + 3600_000), 2);
        if (claimed === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.ok(claimed, 'a message was claimed');
      assert.equal(claimed.attempts, 1);

      assert.equal(await repository.releaseUnsent('stopping-instance', []), 1);
      const row = await t.storage.db.selectFrom('webhook_messages').select(['status', 'lease_owner', 'lease_until', 'attempts']).where('id', '=', claimed.id).executeTakeFirstOrThrow();
      assert.deepEqual(row, { status: 'pending', lease_owner: null, lease_until: null, attempts: 0 });

      const other = new WebhookDelivery({ storage: t.storage, settings: t.config.webhooks, onError: (error) => assert.fail(String(error)) });
      await other.round();
      await other.idle();
      const received = await receiver.until((got) => got.length === 1, 5000);
      assert.equal(received[0]!.headers['webhook-id'], (await t.storage.db.selectFrom('webhook_messages').select('webhook_id').where('id', '=', claimed.id).executeTakeFirstOrThrow()).webhook_id);
    });

    test('messages being sent are left to their send', async () => {
      const repository = new WebhooksRepository(t.storage.db);
      assert.equal((await t.request('POST', `${NS}/events`, { as: 'editor', body: { title: 'Sending', status: 'publish', start_date: '2031-04-02 10:00', end_date: '2031-04-02 11:00' } })).status, 201);
      const fanOut = changeFanOut(t.storage, t.config);
      const deadline = Date.now() + 30_000;
      let claimed;
      while (claimed === undefined && Date.now() < deadline) {
        await fanOut();
        const now = await repository.now();
        claimed = await repository.claim('busy-instance', now, new Date(now.getTime() + 3600_000), 2);
        if (claimed === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.ok(claimed);
      assert.equal(await repository.releaseUnsent('busy-instance', [claimed.id]), 0);
      const row = await t.storage.db.selectFrom('webhook_messages').select(['status', 'lease_owner']).where('id', '=', claimed.id).executeTakeFirstOrThrow();
      assert.deepEqual(row, { status: 'delivering', lease_owner: 'busy-instance' });
    });
  });
}
