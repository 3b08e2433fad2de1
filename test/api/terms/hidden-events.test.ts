import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type Caller, type TestApp } from '../../helpers/test-app.ts';
import { clock, createEvent, eventOf } from '../events/fixtures.ts';

for (const dialect of DIALECTS) {
  describe(`terms of an event, and what a term create answers [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let published: { id: number };
    let draft: { id: number };
    let locked: { id: number };
    before(async () => {
      t = await startTestApp(dialect, { clock });
      const terms = { categories: 'Secret Category', tags: 'secret-tag' };
      published = await createEvent(t, 'editor', { categories: 'Open Category', tags: 'open-tag' });
      draft = await eventOf(t, t.users.author, 'draft', terms);
      locked = await createEvent(t, 'editor', { ...terms, password: 'sesame' });
    });
    after(() => t.close());

    const names = async (collection: string, query: string, as: Caller) => {
      const res = await t.request('GET', `${NS}/${collection}?${query}`, { as });
      return { status: res.status, code: res.body.code, names: res.body[collection]?.map((term: { name: string }) => term.name) };
    };

    for (const collection of ['categories', 'tags']) {
      for (const name of ['post', 'event']) {
        test(`${collection}?${name}= hides the terms of an event the caller may not read`, async () => {
          assert.equal((await names(collection, `${name}=${published.id}`, 'visitor')).status, 200);
          for (const hidden of [draft, locked]) {
            assert.deepEqual(await names(collection, `${name}=${hidden.id}`, 'visitor'), { status: 401, code: 'rest_forbidden_context', names: undefined });
            assert.deepEqual(await names(collection, `${name}=${hidden.id}`, 'subscriber'), { status: 403, code: 'rest_forbidden_context', names: undefined });
            const editor = await names(collection, `${name}=${hidden.id}`, 'editor');
            assert.equal(editor.status, 200);
            assert.equal(editor.names.length, 1, 'those who may edit it see its terms');
          }
          // The draft's own author reads it, and so its terms.
          assert.equal((await names(collection, `${name}=${draft.id}`, 'author')).status, 200);
        });
      }
    }

    test('a term create answers with exactly the name and description it stored', async () => {
      for (const [index, name] of ['Nul\u0000Byte', ' Padded\u0000 ', 'Tab\tand\u0007bell', 'Émoji 🎷 jazz'].entries()) {
        const created = await t.request('POST', `${NS}/categories`, { as: 'editor', body: { name, description: `Desc\u0000${index}` } });
        assert.equal(created.status, 201, created.text);
        const stored = await t.request('GET', `${NS}/categories/${created.body.id}`);
        assert.equal(created.body.name, stored.body.name, JSON.stringify(name));
        assert.equal(created.body.description, stored.body.description);
        assert.equal(created.body.slug, stored.body.slug);
        assert.ok(!created.body.name.includes('\u0000'));
        const updated = await t.request('POST', `${NS}/categories/${created.body.id}`, { as: 'editor', body: { name: `Re\u0000named ${index}` } });
        assert.equal(updated.body.name, (await t.request('GET', `${NS}/categories/${created.body.id}`)).body.name);
      }
    });
  });
}
