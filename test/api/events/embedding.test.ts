import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { clock, createEvent, EVENTS, list } from './fixtures.ts';

// 10-events §3.6 (terms) and §3.7 (venue and organizers) inside events.
for (const dialect of DIALECTS) {
  describe(`events: embedded terms, venue and organizers [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock });
    });
    after(() => t.close());

    test('terms: the embedded shape, sorted by name, counting published events only', async () => {
      const parent = await t.request('POST', `${NS}/categories`, { as: 'editor', body: { name: 'Music' } });
      const event = await createEvent(t, 'editor', { categories: ['zeta', 'Alpha', parent.body.id], tags: 'tag b,tag a' });
      await createEvent(t, 'editor', { categories: [parent.body.id], status: 'draft' });
      await createEvent(t, 'editor', { categories: [parent.body.id] });
      const child = await t.request('POST', `${NS}/categories`, { as: 'editor', body: { name: 'Baroque', parent: parent.body.id } });
      const withChild = await createEvent(t, 'editor', { categories: [child.body.id] });
      assert.deepEqual(event.categories.map((term: any) => term.name), ['Alpha', 'Music', 'zeta']);
      assert.deepEqual(event.tags.map((term: any) => term.name), ['tag a', 'tag b']);
      const music = (await t.request('GET', `${EVENTS}/${event.id}`)).body.categories[1];
      assert.deepEqual(music, {
        name: 'Music', slug: 'music', term_group: 0, term_taxonomy_id: parent.body.id, taxonomy: 'tribe_events_cat', description: '',
        parent: 0, count: 2, filter: 'raw', id: parent.body.id,
        urls: { self: `http://calendar.test${NS}/categories/${parent.body.id}`, collection: `http://calendar.test${NS}/categories` },
      });
      assert.equal(event.tags[0].taxonomy, 'post_tag');
      assert.equal(event.tags[0].urls.self, `http://calendar.test${NS}/tags/${event.tags[0].id}`);
      assert.deepEqual(withChild.categories[0].urls.up, `http://calendar.test${NS}/categories/${parent.body.id}`);
      const danish = await t.request('GET', `/da${EVENTS}/${event.id}`);
      assert.equal(danish.body.categories[0].urls.collection, `http://calendar.test/da${NS}/categories`);
    });

    test('venue: empty members dropped, flags and global ids kept; visible whatever its status; json_ld on single GET only', async () => {
      const event = await createEvent(t, 'contributor', { status: 'pending', venue: { venue: 'Draft Hall', city: 'Pisa' } });
      assert.equal(event.venue.status, 'draft');
      await t.request('PATCH', `${EVENTS}/${event.id}`, { as: 'editor', body: { status: 'publish' } });
      const read = await t.request('GET', `${EVENTS}/${event.id}`);
      const venue = read.body.venue;
      assert.deepEqual(Object.keys(venue).filter((key) => key !== 'json_ld'), [
        'id', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url', 'venue', 'slug', 'city',
        'show_map', 'show_map_link', 'global_id', 'global_id_lineage',
      ]);
      assert.equal(venue.status, 'draft');
      assert.equal(venue.show_map, true);
      // The venue's own json_ld needs the right to read the venue (20 §4.5).
      assert.equal('json_ld' in venue, false);
      assert.ok('json_ld' in (await t.request('GET', `${EVENTS}/${event.id}`, { as: 'editor' })).body.venue);
      const listed = (await list(t, `?include=${event.id}`, 'editor')).events[0].venue;
      assert.equal('json_ld' in listed, false);
      assert.equal(listed.id, venue.id);
    });

    test('organizers in linking order; trashed venues and organizers are left out', async () => {
      const event = await createEvent(t, 'editor', {
        venue: { venue: 'Doomed Hall' }, organizer: [{ organizer: 'Second' }, { organizer: 'First' }, { organizer: 'Doomed Org' }],
      });
      assert.deepEqual(event.organizer.map((o: any) => o.organizer), ['Second', 'First', 'Doomed Org']);
      assert.equal((await t.request('DELETE', `${NS}/venues/${event.venue.id}`, { as: 'editor' })).status, 200);
      assert.equal((await t.request('DELETE', `${NS}/organizers/${event.organizer[2].id}`, { as: 'editor' })).status, 200);
      const read = (await t.request('GET', `${EVENTS}/${event.id}`)).body;
      assert.deepEqual(read.venue, []);
      assert.deepEqual(read.organizer.map((o: any) => o.organizer), ['Second', 'First']);
    });

    test('a password-protected venue is blanked inside the event, always', async () => {
      const event = await createEvent(t, 'editor', { venue: { venue: 'Locked Hall', city: 'Pisa', phone: '555', password: 'v' } });
      const venueId = event.venue.id;
      const res = await t.request('GET', `${EVENTS}/${event.id}`, { as: 'administrator' });
      assert.equal(res.body.venue.id, venueId);
      assert.equal(res.body.venue.city, '');
      assert.equal(res.body.venue.phone, '');
      assert.equal(res.body.venue.show_map, null);
    });
  });
}
