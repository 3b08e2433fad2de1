import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createEvent, EVENTS, eventOf, invalidParams, listedIds, NOW } from './fixtures.ts';

// 10-events §8: DELETE by id and by slug, trash then 410, ⚠ force=true.
for (const dialect of DIALECTS) {
  describe(`events: delete [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let now = NOW;
    before(async () => {
      t = await startTestApp(dialect, { clock: () => now });
    });
    after(() => t.close());

    test('DELETE moves the event to the trash and answers it; then 403 on GET, 410 on DELETE, 400 on the old slug', async () => {
      const event = await createEvent(t, 'editor', { title: 'Gone Soon', venue: { venue: 'Stays Hall' }, organizer: [{ organizer: 'Stays Org' }] });
      now = new Date('2025-04-03T09:00:00Z');
      let res;
      try {
        res = await t.request('DELETE', `${EVENTS}/${event.id}`, { as: 'editor' });
      } finally {
        now = NOW;
      }
      assert.equal(res.status, 200);
      assert.equal(res.body.status, 'trash');
      assert.equal(res.body.slug, 'gone-soon__trashed');
      assert.equal(res.body.url, 'http://calendar.test/event/gone-soon__trashed/');
      assert.equal(res.body.modified, '2025-04-03 09:00:00');
      assert.equal('json_ld' in res.body, false);
      assert.equal(res.body.venue.id, event.venue.id);
      assert.equal((await t.request('GET', `${NS}/venues/${event.venue.id}`)).body.status, 'publish');
      assert.equal((await t.request('GET', `${EVENTS}/${event.id}`, { as: 'administrator' })).body.code, 'event-no-longer-available');
      const again = await t.request('DELETE', `${EVENTS}/${event.id}`, { as: 'editor' });
      assert.equal(again.status, 410);
      assert.equal(again.body.code, 'event-is-in-trash');
      assert.equal((await t.request('GET', `${EVENTS}/by-slug/gone-soon`)).status, 400);
      assert.equal((await listedIds(t, '?per_page=50', 'editor')).includes(event.id), false);
      assert.deepEqual(await listedIds(t, '?status=trash', 'editor'), [event.id]);
    });

    test('⚠ force=true deletes permanently, from any status, and answers {deleted, previous}', async () => {
      const event = await createEvent(t, 'editor', { categories: 'Kept Category', venue: { venue: 'Kept Hall' } });
      const res = await t.request('DELETE', `${EVENTS}/${event.id}?force=true`, { as: 'editor' });
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body), ['deleted', 'previous']);
      assert.equal(res.body.deleted, true);
      assert.deepEqual(res.body.previous, event);
      assert.equal((await t.request('GET', `${EVENTS}/${event.id}`)).body.code, 'rest-event-not-found');
      assert.equal((await t.request('GET', `${NS}/venues/${event.venue.id}`)).status, 200);
      const category = await t.request('GET', `${NS}/categories/${event.categories[0].id}`);
      assert.equal(category.status, 200);
      assert.equal(category.body.count, 0);

      const trashed = await createEvent(t, 'editor');
      await t.request('DELETE', `${EVENTS}/${trashed.id}`, { as: 'editor' });
      const fromTrash = await t.request('DELETE', `${EVENTS}/${trashed.id}`, { as: 'editor', body: { force: '1' } });
      assert.equal(fromTrash.status, 200);
      assert.equal(fromTrash.body.previous.status, 'trash');
      assert.equal((await t.request('DELETE', `${EVENTS}/${trashed.id}`, { as: 'editor' })).status, 404);
      const notForced = await createEvent(t, 'editor');
      assert.equal((await t.request('DELETE', `${EVENTS}/${notForced.id}?force=false`, { as: 'editor' })).body.status, 'trash');
      assert.deepEqual(invalidParams(await t.request('DELETE', `${EVENTS}/${notForced.id}?force=maybe`, { as: 'editor' })), ['force']);
    });

    test('force needs the delete right on the event: contributors only for their own unpublished ones', async () => {
      const ownDraft = await eventOf(t, t.users.contributor, 'draft');
      assert.equal((await t.request('DELETE', `${EVENTS}/${ownDraft.id}?force=true`, { as: 'contributor' })).status, 200);
      const ownPublished = await eventOf(t, t.users.contributor, 'publish');
      assert.equal((await t.request('DELETE', `${EVENTS}/${ownPublished.id}?force=true`, { as: 'contributor' })).status, 403);
    });

    test('unknown id: 401 visitor, 403 subscriber, 404 contributor+; another kind of id is 400', async () => {
      const expected = { visitor: 401, subscriber: 403, contributor: 404, editor: 404 } as const;
      for (const [as, status] of Object.entries(expected)) {
        const res = await t.request('DELETE', `${EVENTS}/999999`, { as: as as keyof typeof expected });
        assert.equal(res.status, status, as);
      }
      const withVenue = await createEvent(t, 'editor', { venue: { venue: 'Kind Hall' } });
      const wrongKind = await t.request('DELETE', `${EVENTS}/${withVenue.venue.id}`, { as: 'editor' });
      assert.equal(wrongKind.status, 400);
      assert.equal(wrongKind.body.code, 'rest-invalid-event-id');
      assert.equal((await t.request('GET', `${NS}/venues/${withVenue.venue.id}`)).body.status, 'publish');
    });

    test('by slug: unknown slug is 400 before anything; the per-event rule applies as by id', async () => {
      for (const as of ['visitor', 'editor'] as const) {
        assert.deepEqual(invalidParams(await t.request('DELETE', `${EVENTS}/by-slug/never-was`, { as })), ['slug']);
      }
      const adminEvent = await createEvent(t, 'administrator', { title: 'Admin Party' });
      assert.equal((await t.request('DELETE', `${EVENTS}/by-slug/admin-party`)).status, 401);
      assert.equal((await t.request('DELETE', `${EVENTS}/by-slug/admin-party`, { as: 'contributor' })).status, 403);
      assert.equal((await t.request('DELETE', `${EVENTS}/by-slug/admin-party`, { as: 'author' })).status, 403);
      const res = await t.request('DELETE', `${EVENTS}/by-slug/ADMIN-PARTY`, { as: 'editor' });
      assert.equal(res.status, 200);
      assert.equal(res.body.id, adminEvent.id);
      assert.equal((await t.request('DELETE', `${EVENTS}/by-slug/admin-party__trashed`, { as: 'editor' })).status, 410);
    });

    test('password is accepted and ignored', async () => {
      const locked = await createEvent(t, 'editor', { password: 'secret' });
      const res = await t.request('DELETE', `${EVENTS}/${locked.id}?password=wrong`, { as: 'editor' });
      assert.equal(res.status, 200);
      assert.equal(res.body.description, locked.description);
    });
  });
}
