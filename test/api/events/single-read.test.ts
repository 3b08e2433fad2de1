import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { MediaRepository } from '../../../src/storage/repositories/media-repository.ts';
import { createEvent, EVENTS, eventOf, listedIds, NOW } from './fixtures.ts';

const EVENT_KEYS = [
  'id', 'global_id', 'global_id_lineage', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url', 'rest_url',
  'title', 'description', 'excerpt', 'slug', 'image', 'all_day', 'start_date', 'start_date_details', 'end_date', 'end_date_details',
  'utc_start_date', 'utc_start_date_details', 'utc_end_date', 'utc_end_date_details', 'timezone', 'timezone_abbr', 'cost',
  'cost_details', 'website', 'show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured', 'categories', 'tags',
  'venue', 'organizer', 'custom_fields',
];

// 10-events §3 (the event object) and §5 (GET by id and by slug).
for (const dialect of DIALECTS) {
  describe(`events: single read [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let now = NOW;
    before(async () => {
      t = await startTestApp(dialect, { clock: () => now });
    });
    after(() => t.close());

    test('the event object has the reference keys in order, json_ld last, and the documented shapes', async () => {
      const created = await createEvent(t, 'editor', {
        title: '  Spring Concert  ', description: 'An evening of chamber music.', start_date: '2025-04-12 19:30:00',
        end_date: '2025-04-12 22:00:00', timezone: 'Europe/Rome', website: 'https://example.org/concert', featured: true,
      });
      const res = await t.request('GET', `${EVENTS}/${created.id}`);
      assert.equal(res.status, 200);
      const event = res.body;
      assert.deepEqual(Object.keys(event), [...EVENT_KEYS, 'json_ld']);
      assert.equal(event.global_id, `calendar.test?id=${event.id}`);
      assert.deepEqual(event.global_id_lineage, [event.global_id]);
      assert.equal(event.author, String(t.users.editor.id));
      assert.equal(event.url, 'http://calendar.test/event/spring-concert/');
      assert.equal(event.rest_url, `http://calendar.test${NS}/events/${event.id}`);
      assert.equal(event.title, 'Spring Concert');
      assert.equal(event.description, '<p>An evening of chamber music.</p>');
      assert.equal(event.excerpt, '');
      assert.equal(event.image, false);
      assert.deepEqual(event.start_date_details, { year: '2025', month: '04', day: '12', hour: '19', minutes: '30', seconds: '00' });
      assert.deepEqual(event.utc_end_date_details, { year: '2025', month: '04', day: '12', hour: '20', minutes: '00', seconds: '00' });
      assert.equal(event.modified, '2025-04-01 10:00:00');
      assert.equal(event.website, 'https://example.org/concert');
      assert.deepEqual(event.venue, []);
      assert.deepEqual(event.organizer, []);
      assert.deepEqual(event.custom_fields, []);
    });

    test('links keep the edition prefix; global_id does not', async () => {
      const created = await createEvent(t, 'editor', { title: 'Danish Night' });
      const res = await t.request('GET', `/da${EVENTS}/${created.id}`);
      assert.equal(res.body.url, 'http://calendar.test/da/event/danish-night/');
      assert.equal(res.body.rest_url, `http://calendar.test/da${NS}/events/${created.id}`);
      assert.equal(res.body.global_id, `calendar.test?id=${created.id}`);
    });

    test('url: pretty for publish and private, the query form for draft, pending and future', async () => {
      const draft = await createEvent(t, 'editor', { status: 'draft', slug: 'has-a-slug' });
      assert.equal(draft.url, `http://calendar.test/?post_type=tribe_events&p=${draft.id}`);
      assert.equal(draft.website, draft.url);
      const pending = await createEvent(t, 'editor', { status: 'pending' });
      assert.equal(pending.url, `http://calendar.test/?post_type=tribe_events&p=${pending.id}`);
      const privateEvent = await createEvent(t, 'editor', { status: 'private', title: 'Private Party' });
      assert.equal(privateEvent.url, 'http://calendar.test/event/private-party/');
    });

    test('checks in order: unknown id 404, wrong kind 400, trash 403, unreadable 403', async () => {
      const missing = await t.request('GET', `${EVENTS}/999999`);
      assert.equal(missing.status, 404);
      assert.equal(missing.body.code, 'rest-event-not-found');
      assert.match(missing.body.message, /999999/);
      assert.equal((await t.request('GET', `${EVENTS}/0`)).body.code, 'rest-event-not-found');
      const withVenue = await createEvent(t, 'editor', { venue: { venue: 'Kind Check Hall' } });
      const wrongKind = await t.request('GET', `${EVENTS}/${withVenue.venue.id}`, { as: 'administrator' });
      assert.equal(wrongKind.status, 400);
      assert.equal(wrongKind.body.code, 'rest-invalid-event-id');
      const trashed = await createEvent(t, 'editor');
      await t.request('DELETE', `${EVENTS}/${trashed.id}`, { as: 'editor' });
      for (const as of ['visitor', 'author', 'administrator'] as const) {
        const res = await t.request('GET', `${EVENTS}/${trashed.id}`, { as });
        assert.equal(res.status, 403);
        assert.equal(res.body.code, 'event-no-longer-available');
      }
      const draft = await createEvent(t, 'editor', { status: 'draft' });
      const hidden = await t.request('GET', `${EVENTS}/${draft.id}`);
      assert.equal(hidden.status, 403);
      assert.equal(hidden.body.code, 'event-not-accessible');
    });

    test('non-digit ids, an empty slug and unsupported methods have no route', async () => {
      for (const [method, path] of [['GET', `${EVENTS}/abc`], ['GET', `${EVENTS}/by-slug/`], ['PUT', EVENTS], ['DELETE', EVENTS]] as const) {
        const res = await t.request(method, path, { as: 'administrator' });
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.equal(res.body.code, 'rest_no_route');
      }
    });

    test('by slug: normalised lookup among all statuses; unknown, trashed or missing slugs are 400', async () => {
      const event = await createEvent(t, 'editor', { title: 'Café Zürich' });
      assert.equal(event.slug, 'cafe-zurich');
      for (const path of ['cafe-zurich', 'CAFE-ZURICH', encodeURIComponent('Café Zürich')]) {
        const res = await t.request('GET', `${EVENTS}/by-slug/${path}`);
        assert.equal(res.status, 200, path);
        assert.equal(res.body.id, event.id);
        assert.ok('json_ld' in res.body);
      }
      const draft = await createEvent(t, 'editor', { status: 'draft', slug: 'draft-with-slug' });
      const draftRead = await t.request('GET', `${EVENTS}/by-slug/draft-with-slug`);
      assert.equal(draftRead.status, 403);
      assert.equal(draftRead.body.code, 'event-not-accessible');
      assert.equal((await t.request('GET', `${EVENTS}/by-slug/draft-with-slug`, { as: 'editor' })).body.id, draft.id);
      const unknown = await t.request('GET', `${EVENTS}/by-slug/no-such-event`);
      assert.equal(unknown.status, 400);
      assert.equal(unknown.body.code, 'rest_invalid_param');
      assert.deepEqual(Object.keys(unknown.body.data.params), ['slug']);
      await t.request('DELETE', `${EVENTS}/${event.id}`, { as: 'editor' });
      assert.equal((await t.request('GET', `${EVENTS}/by-slug/cafe-zurich`)).status, 400);
      const trashedSlug = await t.request('GET', `${EVENTS}/by-slug/cafe-zurich__trashed`);
      assert.equal(trashedSlug.body.code, 'event-no-longer-available');
    });

    test('HEAD serves the GET without a body', async () => {
      const event = await createEvent(t, 'editor');
      const res = await t.request('HEAD', `${EVENTS}/${event.id}`);
      assert.equal(res.status, 200);
      assert.equal(res.text, '');
    });

    test('json_ld (§3.10): schema.org Event with location, first organizer and offer', async () => {
      const mediaId = await new MediaRepository(t.storage.db).registerUrl('https://img.example/poster.jpg', '2025-01-01 00:00:00');
      const event = await createEvent(t, 'editor', {
        title: 'Rock & "Roll"', excerpt: '<b>Loud</b> evening', description: 'Ignored when an excerpt exists',
        timezone: 'America/New_York', start_date: '2025-04-12 19:30', end_date: '2025-04-12 23:00', image: mediaId,
        cost: ['$10', '$20'], venue: { venue: 'Garage', city: 'Boston', address: '1 Main St', phone: '555' },
        organizer: [{ organizer: 'First Org', email: 'a@b.example' }, { organizer: 'Second Org' }],
      });
      const res = await t.request('GET', `${EVENTS}/${event.id}`);
      const ld = res.body.json_ld;
      assert.deepEqual(Object.keys(ld), [
        '@context', '@type', 'name', 'description', 'image', 'url', 'eventAttendanceMode', 'eventStatus', 'startDate', 'endDate',
        'location', 'organizer', 'offers', 'performer',
      ]);
      assert.equal(ld['@context'], 'http://schema.org');
      assert.equal(ld['@type'], 'Event');
      assert.equal(ld.name, 'Rock & "Roll"');
      assert.equal(ld.description, 'Loud evening');
      assert.equal(ld.image, 'https://img.example/poster.jpg');
      assert.equal(ld.url, res.body.url);
      assert.equal(ld.startDate, '2025-04-12T19:30:00-04:00');
      assert.equal(ld.endDate, '2025-04-12T23:00:00-04:00');
      assert.equal(ld.location['@type'], 'Place');
      assert.equal(ld.location.name, 'Garage');
      assert.equal(ld.organizer['@type'], 'Person');
      assert.equal(ld.organizer.name, 'First Org');
      assert.deepEqual(ld.offers, {
        '@type': 'Offer', price: '10 – 20', priceCurrency: 'USD', url: res.body.url, category: 'primary', availability: 'inStock',
        validFrom: '2025-04-01T00:00:00+00:00',
      });
      assert.equal(ld.performer, 'Organization');
      assert.ok('json_ld' in res.body.venue);
    });

    test('json_ld: no location, organizer, image or offers when the event has none; free is price 0', async () => {
      const event = await createEvent(t, 'editor', { description: 'Word '.repeat(80), cost: '0' });
      const ld = (await t.request('GET', `${EVENTS}/${event.id}`)).body.json_ld;
      assert.equal('location' in ld || 'organizer' in ld || 'image' in ld, false);
      assert.equal(ld.offers.price, '0');
      assert.equal(ld.description.split(' ').length, 55);
      const plain = await createEvent(t, 'editor');
      assert.equal('offers' in (await t.request('GET', `${EVENTS}/${plain.id}`)).body.json_ld, false);
    });

    test('json_ld only for readers in the plain sense: private needs editors, never in write responses', async () => {
      const own = await eventOf(t, t.users.author, 'private');
      assert.equal('json_ld' in own, false);
      const byOwner = await t.request('GET', `${EVENTS}/${own.id}`, { as: 'author' });
      assert.equal(byOwner.status, 200);
      assert.equal('json_ld' in byOwner.body, false);
      assert.ok('json_ld' in (await t.request('GET', `${EVENTS}/${own.id}`, { as: 'editor' })).body);
      const draft = await eventOf(t, t.users.contributor, 'draft');
      assert.ok('json_ld' in (await t.request('GET', `${EVENTS}/${draft.id}`, { as: 'contributor' })).body);
      const updated = await t.request('PATCH', `${EVENTS}/${draft.id}`, { as: 'contributor', body: { title: 'New' } });
      assert.equal('json_ld' in updated.body, false);
    });

    test('a scheduled event reads as published from its instant on (40 §6.1)', async () => {
      const scheduled = await createEvent(t, 'author', { title: 'Scheduled Show', date: '2025-04-01 12:00:00' });
      assert.equal(scheduled.status, 'future');
      assert.equal((await t.request('GET', `${EVENTS}/${scheduled.id}`)).status, 403);
      assert.equal((await listedIds(t, '?per_page=50')).includes(scheduled.id), false);
      now = new Date('2025-04-01T12:00:00Z');
      try {
        const res = await t.request('GET', `${EVENTS}/${scheduled.id}`);
        assert.equal(res.status, 200);
        assert.equal(res.body.status, 'publish');
        assert.equal(res.body.url, 'http://calendar.test/event/scheduled-show/');
        assert.ok((await listedIds(t, '?per_page=50')).includes(scheduled.id));
        assert.ok((await listedIds(t, '?per_page=50&status=publish', 'editor')).includes(scheduled.id));
        assert.equal((await listedIds(t, '?per_page=50&status=future', 'editor')).includes(scheduled.id), false);
      } finally {
        now = NOW;
      }
    });
  });

  describe(`events: absolute links with a base path and a port [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { env: { CALENDAR_BASE_PATH: '/cal', CALENDAR_PUBLIC_URL: 'https://events.example.org:8443' } });
    });
    after(() => t.close());

    test('url, rest_url and global_id follow CALENDAR_PUBLIC_URL and CALENDAR_BASE_PATH', async () => {
      const res = await t.request('POST', `/cal${EVENTS}`, { as: 'editor', body: { title: 'Based', start_date: 'tomorrow', end_date: 'tomorrow 2pm' } });
      assert.equal(res.status, 201);
      assert.equal(res.body.url, 'https://events.example.org:8443/cal/event/based/');
      assert.equal(res.body.rest_url, `https://events.example.org:8443/cal${NS}/events/${res.body.id}`);
      assert.equal(res.body.global_id, `events.example.org/cal?id=${res.body.id}`);
    });
  });
}
