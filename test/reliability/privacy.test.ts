import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ROLES } from '../../src/domain/auth/capabilities.ts';
import { DIALECTS, skipReason } from '../helpers/databases.ts';
import { NS, startTestApp, type Caller, type TestApp, type TestResponse } from '../helpers/test-app.ts';

/**
 * Issue 8, privacy of records (40 §6-§8, 10-events §3.7, §9, 20 §7, §8.2): drafts, scheduled,
 * private, trashed and password-protected records never reach a caller who may not see them,
 * through any path: lists, totals, search, term counts, embedding, slug routes. One test per path.
 */

const WHEN = { start_date: 'tomorrow 10:00', end_date: 'tomorrow 12:00' };
const PASSWORD = 'sesame-0f3c9a';
/** Marker words: each hidden record carries one, so that any leak of its text is found. */
const HIDDEN = ['zebradraft', 'zebrapending', 'zebraprivate', 'zebrafuture', 'zebratrash'];
const OUTSIDERS: Caller[] = ['visitor', 'subscriber'];

interface Fixture {
  category: { id: number };
  published: { id: number; slug: string };
  draftVenue: { id: number; slug: string };
  trashedVenue: { id: number };
  lockedVenue: { id: number };
  privateOrganizer: { id: number };
  hidden: Record<string, { id: number; slug: string; status: string }>;
  locked: { id: number; slug: string };
  draftVenueOnly: { id: number; slug: string };
}

function ids(items: Array<{ id: number }>): number[] {
  return items.map((item) => item.id);
}

function assertNoHiddenText(res: TestResponse, what: string): void {
  for (const word of HIDDEN) assert.ok(!res.text.includes(word), `${what} shows "${word}"`);
  assert.ok(!res.text.includes(PASSWORD), `${what} shows a record password`);
}

for (const dialect of DIALECTS) {
  describe(`hidden records stay hidden [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let f: Fixture;
    const create = async (as: Caller, path: string, body: Record<string, unknown>) => {
      const res = await t.request('POST', `${NS}${path}`, { as, body });
      assert.equal(res.status, 201, res.text);
      return res.body;
    };

    before(async () => {
      t = await startTestApp(dialect);
      const category = await create('editor', '/categories', { name: 'Privacy music' });
      const draftVenue = await create('editor', '/venues', { venue: 'Draft venue', status: 'draft' });
      const trashedVenue = await create('editor', '/venues', { venue: 'Trashed venue' });
      const lockedVenue = await create('editor', '/venues', { venue: 'Locked venue', address: 'Secret street 1', password: PASSWORD });
      const privateOrganizer = await create('editor', '/organizers', { organizer: 'Private organizer', status: 'private' });
      const published = await create('editor', '/events', {
        ...WHEN,
        title: 'Open concert',
        venue: draftVenue.id,
        organizer: [privateOrganizer.id],
        categories: [category.id],
      });
      const hidden: Fixture['hidden'] = {};
      for (const [word, extra] of [
        ['zebradraft', { status: 'draft', slug: 'zebradraft' }],
        ['zebrapending', { status: 'pending', slug: 'zebrapending' }],
        ['zebraprivate', { status: 'private' }],
        ['zebrafuture', { status: 'publish', date: '+2 months' }],
        ['zebratrash', {}],
      ] as const) {
        hidden[word] = await create('editor', '/events', { ...WHEN, title: `Hidden ${word}`, description: `About ${word}`, categories: [category.id], venue: trashedVenue.id, ...extra });
      }
      assert.equal(hidden.zebrafuture.status, 'future');
      await t.request('DELETE', `${NS}/events/${hidden.zebratrash.id}`, { as: 'editor' });
      await t.request('DELETE', `${NS}/venues/${trashedVenue.id}`, { as: 'editor' });
      const locked = await create('editor', '/events', { ...WHEN, title: 'Locked concert', description: 'zebralocked inside', password: PASSWORD, venue: lockedVenue.id, categories: [category.id] });
      const draftVenueOnly = await create('editor', '/venues', { venue: 'zebradraft venue', status: 'draft' });
      f = { category, published, draftVenue, trashedVenue, lockedVenue, privateOrganizer, hidden, locked, draftVenueOnly };
    });
    after(() => t.close());

    test('event lists and their totals show outsiders published events only; no one sees the trash by default', async () => {
      for (const as of OUTSIDERS) {
        const res = await t.request('GET', `${NS}/events?per_page=50`, { as });
        assert.deepEqual(ids(res.body.events).sort(), [f.published.id, f.locked.id].sort(), as);
        assert.equal(res.body.total, 2);
        assert.equal(res.headers['x-tec-total'], '2');
        assertNoHiddenText(res, `event list as ${as}`);
      }
      for (const as of ROLES) {
        const res = await t.request('GET', `${NS}/events?per_page=50`, { as });
        assert.ok(!ids(res.body.events).includes(f.hidden.zebratrash.id), `the trash in ${as}'s default list`);
      }
    });

    test('outsiders cannot ask a list for other statuses, or get hidden events by include', async () => {
      for (const as of OUTSIDERS) {
        for (const status of ['draft', 'private', 'trash', 'future', 'any', 'publish,draft']) {
          const res = await t.request('GET', `${NS}/events?status=${encodeURIComponent(status)}`, { as });
          assert.equal(res.status, 400, `${as} status=${status}`);
          assertNoHiddenText(res, `status=${status}`);
        }
        const include = Object.values(f.hidden).map((event) => event.id).join(',');
        const res = await t.request('GET', `${NS}/events?include=${include}`, { as });
        assert.deepEqual(res.body.events, []);
        assert.equal(res.body.total, 0);
      }
    });

    test('search finds no hidden event or venue for outsiders, and counts none', async () => {
      for (const as of OUTSIDERS) {
        for (const word of HIDDEN) {
          const events = await t.request('GET', `${NS}/events?search=${word}`, { as });
          assert.equal(events.body.total, 0, `${as} searching ${word}`);
          assert.deepEqual(events.body.events, []);
        }
        const venues = await t.request('GET', `${NS}/venues?search=zebradraft`, { as });
        assert.equal(venues.body.total, 0);
        assert.deepEqual(venues.body.venues, []);
      }
    });

    test('single GET by id refuses hidden events to outsiders, and the trash to everyone', async () => {
      for (const as of OUTSIDERS) {
        for (const [word, event] of Object.entries(f.hidden)) {
          const res = await t.request('GET', `${NS}/events/${event.id}`, { as });
          assert.equal(res.status, 403, `${as} reading ${word}`);
          assertNoHiddenText(res, `GET ${word}`);
        }
        const venue = await t.request('GET', `${NS}/venues/${f.draftVenue.id}`, { as });
        assert.equal(venue.status, 403);
        assert.equal(venue.body.code, 'venue-not-accessible');
        const organizer = await t.request('GET', `${NS}/organizers/${f.privateOrganizer.id}`, { as });
        assert.equal(organizer.body.code, 'organizer-not-accessible');
      }
      for (const as of ['contributor', 'author'] as const) {
        const res = await t.request('GET', `${NS}/events/${f.hidden.zebraprivate.id}`, { as });
        assert.equal(res.status, 403, `${as} reading an editor's private event`);
      }
      const trashed = await t.request('GET', `${NS}/events/${f.hidden.zebratrash.id}`, { as: 'administrator' });
      assert.equal(trashed.body.code, 'event-no-longer-available');
    });

    test('slug routes refuse hidden records as the id routes do; a trashed slug no longer resolves', async () => {
      for (const as of OUTSIDERS) {
        for (const word of ['zebradraft', 'zebrapending']) {
          const res = await t.request('GET', `${NS}/events/by-slug/${word}`, { as });
          assert.equal(res.status, 403, `${as} by slug ${word}`);
          assertNoHiddenText(res, `by-slug ${word}`);
        }
        const venue = await t.request('GET', `${NS}/venues/by-slug/${f.draftVenueOnly.slug}`, { as });
        assert.equal(venue.status, 403);
        assertNoHiddenText(venue, 'venue by slug');
      }
      const trashed = await t.request('GET', `${NS}/events/by-slug/${f.hidden.zebratrash.slug}`, { as: 'administrator' });
      assert.equal(trashed.status, 400);
    });

    test('term counts count published events only, in term lists and in embedded terms', async () => {
      // The published open concert and the published locked concert; drafts, pending, private, scheduled and trashed events do not count.
      for (const as of [...OUTSIDERS, ...ROLES]) {
        const single = await t.request('GET', `${NS}/categories/${f.category.id}`, { as });
        assert.equal(single.body.count, 2, `${as} single term`);
        const list = await t.request('GET', `${NS}/categories`, { as });
        assert.equal(list.body.categories.find((term: { id: number }) => term.id === f.category.id).count, 2);
      }
      const event = await t.request('GET', `${NS}/events/${f.published.id}`);
      assert.equal(event.body.categories[0].count, 2);
    });

    test('embedding: a draft venue and a private organizer of a published event are shown (10-events §3.7), a trashed venue is not (20 §8.2)', async () => {
      const res = await t.request('GET', `${NS}/events/${f.published.id}`);
      assert.equal(res.body.venue.id, f.draftVenue.id);
      assert.equal(res.body.venue.status, 'draft');
      assert.deepEqual(ids(res.body.organizer), [f.privateOrganizer.id]);
      assert.equal(res.body.venue.json_ld, undefined, 'json_ld of a record the visitor may not read');
      const withTrashedVenue = await t.request('GET', `${NS}/events?status=trash`, { as: 'editor' });
      const trashedEvent = withTrashedVenue.body.events.find((event: { id: number }) => event.id === f.hidden.zebratrash.id);
      assert.deepEqual(trashedEvent.venue, []);
      for (const word of ['zebradraft', 'zebrapending']) {
        const read = await t.request('GET', `${NS}/events/by-slug/${word}`, { as: 'editor' });
        assert.deepEqual(read.body.venue, [], `a trashed venue embedded in ${word}`);
      }
    });

    test('a password-protected event: blanked in lists, refused alone, unlocked only by its password or context=edit of an editor', async () => {
      for (const as of [...OUTSIDERS, ...ROLES]) {
        const list = await t.request('GET', `${NS}/events?per_page=50`, { as });
        const item = list.body.events.find((event: { id: number }) => event.id === f.locked.id);
        assert.equal(item.title, 'Locked concert');
        assert.equal(item.description, '', `${as} sees a locked description`);
        assert.deepEqual(item.venue, []);
        assert.deepEqual(item.categories, []);
        assert.ok(!list.text.includes('zebralocked'), `${as} list shows the locked text`);
        const single = await t.request('GET', `${NS}/events/${f.locked.id}`, { as });
        assert.equal(single.status, 403, as);
        assert.equal(single.body.code, 'event-password-protected');
      }
      const wrong = await t.request('GET', `${NS}/events/${f.locked.id}?password=Sesame-0f3c9a`);
      assert.equal(wrong.status, 403);
      const right = await t.request('GET', `${NS}/events/${f.locked.id}?password=${PASSWORD}`);
      assert.equal(right.status, 200);
      assert.match(right.body.description, /zebralocked/);
      assert.equal(right.body.json_ld, undefined);
      const outsiderEdit = await t.request('GET', `${NS}/events/${f.locked.id}?context=edit`, { as: 'author' });
      assert.equal(outsiderEdit.status, 403);
      const editorEdit = await t.request('GET', `${NS}/events/${f.locked.id}?context=edit`, { as: 'editor' });
      assert.equal(editorEdit.status, 200);
    });

    test('a password-protected venue is blanked in lists, alone and embedded, even for administrators', async () => {
      const single = await t.request('GET', `${NS}/venues/${f.lockedVenue.id}`, { as: 'administrator' });
      assert.deepEqual(single.body.venue, []);
      assert.equal(single.body.address, '');
      const list = await t.request('GET', `${NS}/venues?per_page=50`, { as: 'administrator' });
      const item = list.body.venues.find((venue: { id: number }) => venue.id === f.lockedVenue.id);
      assert.equal(item.address, '');
      const unlocked = await t.request('GET', `${NS}/events/${f.locked.id}?password=${PASSWORD}`, { as: 'administrator' });
      assert.equal(unlocked.body.venue.address, '');
      assert.ok(!list.text.includes('Secret street') && !single.text.includes('Secret street') && !unlocked.text.includes('Secret street'));
    });

    test('no response carries a record password, except a single edit-context read by one who may edit it', async () => {
      const paths = [
        `/events/${f.locked.id}?password=${PASSWORD}`,
        `/events?per_page=50&_fields=password`,
        `/venues?context=edit&per_page=50`,
        `/events?status=any&per_page=50&context=edit`,
      ];
      for (const path of paths) {
        const res = await t.request('GET', `${NS}${path}`, { as: 'administrator' });
        assert.ok(!res.text.includes(PASSWORD), `${path} shows the password`);
      }
      // 90 §2.2: an edit-context read returns the password to those who may edit the record (a
      // site import copies protected records whole); anyone else is refused that context.
      for (const path of [`/events/${f.locked.id}?context=edit&_fields=password,id`, `/venues/${f.lockedVenue.id}?context=edit`]) {
        const editor = await t.request('GET', `${NS}${path}`, { as: 'editor' });
        assert.ok(editor.text.includes(PASSWORD), `${path} hides the password from an editor`);
        const author = await t.request('GET', `${NS}${path}`, { as: 'author' });
        assert.ok(!author.text.includes(PASSWORD), `${path} shows the password to an author`);
      }
      const update = await t.request('PATCH', `${NS}/events/${f.locked.id}`, { as: 'editor', body: { title: 'Locked concert' } });
      assert.ok(!update.text.includes(PASSWORD));
    });
  });
}
