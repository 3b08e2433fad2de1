import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../../../src/app.ts';
import { openStorage } from '../../../src/storage/database.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createEvent, EVENTS } from './fixtures.ts';

for (const dialect of DIALECTS) {
  describe(`events: cached list pages stay true [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let now = new Date('2025-04-01T10:00:00Z');
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock: () => now });
    });
    after(() => t.close());

    test('a repeated page costs one query (the data version) until something is written', async () => {
      await createEvent(t, 'editor', { title: 'Cachemark one' });
      const first = await t.request('GET', `${EVENTS}?search=cachemark`);
      const before = t.queryCount();
      const again = await t.request('GET', `${EVENTS}?search=cachemark`);
      assert.equal(t.queryCount() - before, 1);
      assert.equal(again.text, first.text);
      assert.equal(again.headers['x-tec-total'], '1');
      await createEvent(t, 'editor', { title: 'Cachemark two' });
      const after = await t.request('GET', `${EVENTS}?search=cachemark`);
      assert.equal(after.body.total, 2);
    });

    test('a write through another instance on the same database shows in the very next read', async () => {
      const other = await openStorage(t.config.databaseUrl);
      const otherApp = await buildApp({ config: t.config, storage: other, clock: () => now, logger: false });
      try {
        assert.equal((await t.request('GET', `${EVENTS}?search=crossmark`)).body.total, 0);
        const created = await otherApp.inject({
          method: 'POST', url: EVENTS,
          headers: { authorization: t.authHeader(t.users.editor), 'content-type': 'application/json' },
          payload: JSON.stringify({ title: 'Crossmark', start_date: '2025-04-12 19:30', end_date: '2025-04-12 22:00' }),
        });
        assert.equal(created.statusCode, 201);
        assert.equal((await t.request('GET', `${EVENTS}?search=crossmark`)).body.total, 1);
      } finally {
        await otherApp.close();
        await other.close();
      }
    });

    test('a scheduled event appears once its publication instant passes, cache or not', async () => {
      await createEvent(t, 'editor', { title: 'Schedmark', date: '2025-04-01 12:00:00' });
      assert.equal((await t.request('GET', `${EVENTS}?search=schedmark`)).body.total, 0);
      assert.equal((await t.request('GET', `${EVENTS}?search=schedmark`)).body.total, 0);
      now = new Date('2025-04-01T12:00:01Z');
      const listed = await t.request('GET', `${EVENTS}?search=schedmark`);
      assert.equal(listed.body.total, 1);
      assert.equal(listed.body.events[0].status, 'publish');
    });

    test('_fields and _envelope still reshape a cached page', async () => {
      await t.request('GET', EVENTS);
      const fields = await t.request('GET', `${EVENTS}?_fields=total`);
      assert.deepEqual(Object.keys(fields.body), ['total']);
      const enveloped = await t.request('GET', `${EVENTS}?_envelope=1`);
      assert.equal(enveloped.body.status, 200);
      assert.ok(Array.isArray(enveloped.body.body.events));
    });
  });
}
