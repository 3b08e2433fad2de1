import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { extendSeries } from '../../../src/services/recurrence-job.ts';
import { SeriesService } from '../../../src/services/series-service.ts';
import { WebhookDelivery } from '../../../src/services/webhooks/delivery-worker.ts';
import { changeFanOut } from '../../../src/services/webhooks/change-fan-out.ts';
import { messageObjects } from '../../../src/services/webhooks/message-objects.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { WebhookReceiver } from '../../helpers/webhook-receiver.ts';
import { feedSettled } from './feed-settled.ts';

/**
 * 60 §4.1 with 80 §3.3: occurrences the daily horizon job adds to an open-ended series are creates
 * like any other — sync clients get them from the change feed and from webhooks.
 */

const DAY_MS = 86_400_000;

for (const dialect of DIALECTS) {
  describe(`horizon extension reaches sync clients (${dialect})`, { skip: skipReason(dialect) }, () => {
    let now = new Date('2025-04-01T10:00:00Z');
    let t: TestApp;
    let receiver: WebhookReceiver;
    before(async () => {
      t = await startTestApp(dialect, { clock: () => now, env: { CALENDAR_WEBHOOKS_ALLOW_INSECURE: '1' } });
      receiver = await WebhookReceiver.start();
    });
    after(async () => {
      await receiver?.close();
      await t?.close();
    });

    it('a horizon step: the new occurrences are create entries in the feed (with their objects) and webhook messages', async () => {
      const created = await t.request('POST', `${NS}/events`, {
        as: 'editor',
        body: { title: 'Monthly market', start_date: '2025-04-07 09:00', end_date: '2025-04-07 13:00', recurrence: { rrule: 'FREQ=MONTHLY;BYMONTHDAY=7' } },
      });
      assert.equal(created.status, 201, created.text);
      const master = created.body;
      const hook = await t.request('POST', '/calendar/admin/v1/webhooks', { as: 'administrator', body: { url: receiver.url, types: ['event.create'], include_objects: true } });
      assert.equal(hook.status, 201, hook.text);
      await feedSettled(t);
      const cursor = (await t.request('GET', `${NS}/changes`)).body.next_cursor as string;

      // The clock moves three months on; the daily job runs (the app's own timer, first run 5 s after
      // start, reads the same clock and may get there first: either way the series grows once).
      now = new Date(now.getTime() + 92 * DAY_MS);
      await extendSeries(t.storage.db, new SeriesService(t.config.recurrence), now);
      await feedSettled(t);
      const occurrences = (await t.request('GET', `${NS}/events?post_parent=${master.id}&start_date=2027-04-08&end_date=2027-12-31`)).body.events as Array<{ id: number; start_date: string }>;
      assert.deepEqual(occurrences.map((event) => event.start_date), ['2027-05-07 09:00:00', '2027-06-07 09:00:00', '2027-07-07 09:00:00']);
      const added = occurrences.map((event) => event.id);

      const feed = await t.request('GET', `${NS}/changes?cursor=${cursor}&include=object`);
      assert.equal(feed.status, 200, feed.text);
      const entries = feed.body.changes as Array<{ id: number; op: string; effect: string; post_parent?: number; object?: { start_date: string } }>;
      assert.deepEqual(entries.map((entry) => [entry.id, entry.op, entry.effect, entry.post_parent, entry.object?.start_date]), occurrences.map((event) => [event.id, 'create', 'upsert', master.id, event.start_date]));

      const delivery = new WebhookDelivery({ storage: t.storage, settings: t.config.webhooks, fanOut: changeFanOut(t.storage, t.config), objects: messageObjects(t.storage, t.config), onError: (error) => assert.fail(String(error)) });
      const deadline = Date.now() + 30_000;
      while (receiver.received.length < added.length && Date.now() < deadline) {
        await delivery.round();
        await delivery.idle();
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const delivered = receiver.received.map((request) => JSON.parse(request.body).data.changes[0]);
      assert.deepEqual(delivered.map((entry) => [entry.id, entry.op, entry.post_parent, entry.object?.start_date]).sort(), occurrences.map((event) => [event.id, 'create', master.id, event.start_date]).sort());
    });
  });
}
