import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createTerm, insertEvent, setEventStatus } from './fixtures.ts';

// 30 §1.3 `count`: published events carrying the term, right after every event change.
for (const dialect of DIALECTS) {
  describe(`term counts [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let jazz: any;
    let free: any;
    const count = async (collection: string, id: number) => (await t.request('GET', `${NS}/${collection}/${id}`)).body.count;
    before(async () => {
      t = await startTestApp(dialect, { clock: () => new Date('2025-03-01T12:00:00Z') });
      jazz = await createTerm(t, 'categories', { name: 'Jazz' });
      free = await createTerm(t, 'tags', { name: 'Free' });
    });
    after(() => t.close());

    test('only published events count; drafts, pending, private, scheduled and trashed ones do not', async () => {
      await insertEvent(t, [jazz.id, free.id]);
      await insertEvent(t, [jazz.id, free.id]);
      for (const status of ['draft', 'pending', 'private', 'trash']) await insertEvent(t, [jazz.id, free.id], { status });
      await insertEvent(t, [jazz.id], { status: 'future', dateUtc: '2025-04-01 00:00:00' });
      assert.equal(await count('categories', jazz.id), 2);
      assert.equal(await count('tags', free.id), 2);
    });

    test('a scheduled event whose publication instant has passed counts as published', async () => {
      const other = await createTerm(t, 'tags', { name: 'Due' });
      await insertEvent(t, [other.id], { status: 'future', dateUtc: '2025-03-01 11:59:00' });
      assert.equal(await count('tags', other.id), 1);
    });

    test('count follows trashing, restoring and deleting events', async () => {
      const tag = await createTerm(t, 'tags', { name: 'Moving' });
      const event = await insertEvent(t, [tag.id]);
      assert.equal(await count('tags', tag.id), 1);
      await setEventStatus(t, event, 'trash');
      assert.equal(await count('tags', tag.id), 0);
      await setEventStatus(t, event, 'publish');
      assert.equal(await count('tags', tag.id), 1);
      await t.storage.db.deleteFrom('events').where('id', '=', event).execute();
      assert.equal(await count('tags', tag.id), 0);
    });

    test('counts in lists are the same as in single reads and ignore the list filters', async () => {
      const res = await t.request('GET', `${NS}/categories?include=${jazz.id}&search=jaz`);
      assert.equal(res.body.categories[0].count, 2);
    });

    test('a category count does not include its descendants', async () => {
      const parent = await createTerm(t, 'categories', { name: 'Parent' });
      const child = await createTerm(t, 'categories', { name: 'Child', parent: parent.id });
      await insertEvent(t, [child.id]);
      assert.equal(await count('categories', parent.id), 0);
      assert.equal(await count('categories', child.id), 1);
    });
  });
}
