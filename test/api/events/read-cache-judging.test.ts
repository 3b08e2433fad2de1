import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ReadCache } from '../../../src/read/read-cache.ts';
import type { DescribedWrite } from '../../../src/storage/write-journal.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createEvent, EVENTS } from './fixtures.ts';

// A read cache judges its values against described writes one by one as they are looked up,
// not all of them at every write.
for (const dialect of DIALECTS) {
  describe(`read cache: values judged when looked up [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect);
    });
    after(() => t.close());

    test('a described write costs one judgement per value looked up; an undescribed one empties the cache', async () => {
      const event = await createEvent(t, 'editor', { title: 'Judgemark' });
      let judged = 0;
      const cache = new ReadCache<{ id: number }>(t.storage, 5000, (value, write: DescribedWrite) => {
        judged++;
        return value.id !== write.id;
      });
      let computed = 0;
      const read = async (id: number) => (await cache.open({ now: new Date() })).get(String(id), async () => {
        computed++;
        return { id };
      });
      const ids = [event.id, ...Array.from({ length: 999 }, (_, index) => 1_000_000 + index)];
      for (const id of ids) await read(id);
      assert.equal(computed, 1000);

      const retitled = await t.request('POST', `${EVENTS}/${event.id}`, { as: 'editor', body: { title: 'Judgemark again' } });
      assert.equal(retitled.status, 200, retitled.text);
      computed = 0;
      assert.deepEqual(await read(ids[1]), { id: ids[1] });
      assert.equal(judged, 1, 'only the value looked up was judged');
      assert.equal(computed, 0, 'another event’s retitle leaves it true');
      await read(event.id);
      assert.equal(computed, 1, 'the retitled event’s own value is computed again');
      await read(ids[2]);
      assert.equal(computed, 1);

      // Nobody describes a venue's creation: every value is computed again.
      assert.equal((await t.request('POST', `${NS}/venues`, { as: 'editor', body: { venue: 'Judgemark hall' } })).status, 201);
      computed = 0;
      judged = 0;
      await read(ids[3]);
      await read(ids[4]);
      assert.equal(computed, 2);
      assert.equal(judged, 0);
    });
  });
}
