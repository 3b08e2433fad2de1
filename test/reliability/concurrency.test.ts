import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../helpers/test-app.ts';
import { assertIntegrity, snapshotDatabase } from './db-snapshot.ts';

/**
 * Issue 8, concurrency: writers racing on one record or one name. Whatever the interleaving, the
 * data ends consistent (slugs unique among non-draft records of a kind, no half-applied update)
 * and every response describes what was really stored. On SQLite the app's single connection
 * serialises the transactions; on PostgreSQL the pool runs them truly in parallel.
 */

const PARALLEL = 8;
const DATES = { start_date: '2030-09-01 20:00', end_date: '2030-09-01 23:00' };

function parallel<T>(count: number, make: (index: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => make(index)));
}

for (const dialect of DIALECTS) {
  describe(`concurrent writers [${dialect}]`, { skip: skipReason(dialect) }, () => {
    // A fresh database per race, so that one race's damage is not blamed on the next.
    let t: TestApp;
    beforeEach(async () => {
      t = await startTestApp(dialect);
    });
    afterEach(() => t.close());


    const createEvent = async (body: Record<string, unknown>) => {
      const res = await t.request('POST', `${NS}/events`, { as: 'editor', body: { ...DATES, ...body } });
      assert.equal(res.status, 201, res.text);
      return res.body;
    };
    const storedEvent = async (id: number) =>
      t.storage.db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    test('parallel updates of one event: each answer is one whole version, the stored event is the last one', async () => {
      const event = await createEvent({ title: 'Contested', categories: ['contested-0'] });
      const answers = await parallel(PARALLEL, (index) =>
        t.request('PATCH', `${NS}/events/${event.id}`, { as: 'editor', body: { title: `Contested ${index}`, categories: [`contested-${index}`], cost: String(index + 1) } }),
      );
      for (const answer of answers) {
        assert.equal(answer.status, 200, answer.text);
        const version = answer.body.title.split(' ')[1];
        // An answer mixing two requests' fields would describe something that was never stored.
        assert.deepEqual(answer.body.categories.map((category: { name: string }) => category.name), [`contested-${version}`]);
        assert.deepEqual(answer.body.cost_details.values, [String(Number(version) + 1)]);
      }
      const read = await t.request('GET', `${NS}/events/${event.id}`);
      const version = read.body.title.split(' ')[1];
      assert.deepEqual(read.body.categories.map((category: { name: string }) => category.name), [`contested-${version}`]);
      assert.deepEqual(read.body.cost_details.values, [String(Number(version) + 1)]);
      assert.ok(answers.some((answer) => answer.body.title === read.body.title));
      assertIntegrity(await snapshotDatabase(t.storage), 'parallel updates');
    });

    test('parallel creates with the same slug get different slugs, each as answered', async () => {
      const answers = await parallel(PARALLEL, (index) => t.request('POST', `${NS}/events`, { as: 'editor', body: { ...DATES, title: `Same slug ${index}`, slug: 'same-slug' } }));
      for (const answer of answers) assert.equal(answer.status, 201, answer.text);
      const slugs = answers.map((answer) => answer.body.slug);
      assert.equal(new Set(slugs).size, PARALLEL, `slugs handed out twice: ${slugs.join(', ')}`);
      for (const answer of answers) assert.equal((await storedEvent(answer.body.id)).slug, answer.body.slug);
      assertIntegrity(await snapshotDatabase(t.storage), 'parallel creates');
    });

    test('parallel creates of same-titled events and of same-named venues keep public slugs unique', async () => {
      const events = await parallel(PARALLEL, () => t.request('POST', `${NS}/events`, { as: 'editor', body: { ...DATES, title: 'Twin title' } }));
      assert.equal(new Set(events.map((answer) => answer.body.slug)).size, PARALLEL);
      const venues = await parallel(PARALLEL, (index) => t.request('POST', `${NS}/venues`, { as: 'editor', body: { venue: `Twin hall`, description: `Hall number ${index}` } }));
      for (const answer of venues) assert.equal(answer.status, 201, answer.text);
      assert.equal(new Set(venues.map((answer) => answer.body.slug)).size, PARALLEL);
      assertIntegrity(await snapshotDatabase(t.storage), 'parallel same-named creates');
    });

    test(
      'parallel duplicate-matching venue creates all answer the one venue',
      async () => {
      const answers = await parallel(PARALLEL, () => t.request('POST', `${NS}/venues`, { as: 'editor', body: { venue: 'Duplicate Hall', city: 'Pisa' } }));
      for (const answer of answers) assert.equal(answer.status, 201, answer.text);
      const stored = await t.storage.db.selectFrom('venues').select(['id', 'slug']).where('name', '=', 'Duplicate Hall').execute();
      assert.equal(stored.length, 1, `the duplicate check let ${stored.length} copies in: ${JSON.stringify(stored)}`);
      assert.deepEqual(new Set(answers.map((answer) => answer.body.id)), new Set([stored[0].id]));
      assertIntegrity(await snapshotDatabase(t.storage), 'parallel duplicate venues');
      },
    );

    test(
      'parallel creates of one new category: one is created, the others are told it exists',
      async () => {
      const answers = await parallel(PARALLEL, () => t.request('POST', `${NS}/categories`, { as: 'editor', body: { name: 'Raced category' } }));
      const created = answers.filter((answer) => answer.status === 201);
      assert.equal(created.length, 1, answers.map((answer) => `${answer.status} ${answer.body.code ?? ''}`).join(', '));
      for (const answer of answers.filter((other) => other.status !== 201)) {
        assert.equal(answer.status, 400, answer.text);
        assert.equal(answer.body.code, 'term_exists');
        assert.equal(answer.body.data.term_id, created[0].body.id);
      }
      const stored = await t.storage.db.selectFrom('terms').select('id').where('name', '=', 'Raced category').execute();
      assert.equal(stored.length, 1);
      },
    );

    test('parallel event creates naming the same new category all get that one category', async () => {
      const answers = await parallel(PARALLEL, (index) => t.request('POST', `${NS}/events`, { as: 'editor', body: { ...DATES, title: `Tagged ${index}`, categories: ['Brand new'], tags: ['brand-new-tag'] } }));
      for (const answer of answers) assert.equal(answer.status, 201, answer.text);
      const categories = new Set(answers.map((answer) => answer.body.categories.map((category: { id: number }) => category.id).join()));
      assert.equal(categories.size, 1, `several "Brand new" categories: ${[...categories].join(' ')}`);
      const stored = await t.storage.db.selectFrom('terms').select('id').where('name', '=', 'Brand new').execute();
      assert.equal(stored.length, 1);
    });

    test('parallel trash and update: both land, and each answer is true to the order they landed in', async () => {
      for (let round = 0; round < 5; round++) {
        const event = await createEvent({ title: `Doomed ${round}`, slug: `doomed-${round}` });
        const [trash, update] = await Promise.all([
          t.request('DELETE', `${NS}/events/${event.id}`, { as: 'editor' }),
          t.request('PATCH', `${NS}/events/${event.id}`, { as: 'editor', body: { title: `Doomed ${round} renamed` } }),
        ]);
        assert.equal(trash.status, 200, trash.text);
        assert.equal(update.status, 200, update.text);
        assert.equal(trash.body.status, 'trash');
        const stored = await storedEvent(event.id);
        assert.equal(stored.status, 'trash');
        assert.equal(stored.slug, `doomed-${round}__trashed`);
        assert.equal(stored.title, `Doomed ${round} renamed`);
        if (update.body.status === 'trash') {
          // The update came second: it saw the trashed event, and the trash saw the old title.
          assert.equal(update.body.slug, `doomed-${round}__trashed`);
          assert.equal(trash.body.title, `Doomed ${round}`);
        } else {
          // The update came first: the trash answer shows the renamed event.
          assert.equal(update.body.slug, `doomed-${round}`);
          assert.equal(trash.body.title, `Doomed ${round} renamed`);
        }
      }
      assertIntegrity(await snapshotDatabase(t.storage), 'parallel trash and update');
    });

    test('parallel trash and restore of a venue end in one of the two states, with a matching slug', async () => {
      for (let round = 0; round < 5; round++) {
        const venue = (await t.request('POST', `${NS}/venues`, { as: 'editor', body: { venue: `Swinging Hall ${round}` } })).body;
        const [trash, restore] = await Promise.all([
          t.request('DELETE', `${NS}/venues/${venue.id}`, { as: 'editor' }),
          t.request('PATCH', `${NS}/venues/${venue.id}`, { as: 'editor', body: { status: 'publish' } }),
        ]);
        assert.equal(trash.status, 200, trash.text);
        assert.equal(restore.status, 200, restore.text);
        const stored = await t.storage.db.selectFrom('venues').selectAll().where('id', '=', venue.id).executeTakeFirstOrThrow();
        assert.equal(stored.slug, stored.status === 'trash' ? `${venue.slug}__trashed` : venue.slug);
        const last = stored.status === 'trash' ? trash : restore;
        assert.equal(last.body.status, stored.status);
        assert.equal(last.body.slug, stored.slug);
      }
      assertIntegrity(await snapshotDatabase(t.storage), 'parallel trash and restore');
    });
  });
}
