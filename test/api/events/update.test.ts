import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { MediaRepository } from '../../../src/storage/repositories/media-repository.ts';
import { createEvent, EVENTS, invalidParams, NOW } from './fixtures.ts';

const LATER = new Date('2025-04-02T08:00:00Z');

function without(event: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(event).filter(([key]) => !keys.includes(key)));
}

// 10-events §7: partial updates (⚠ service rules of §7.2 and §7.3).
for (const dialect of DIALECTS) {
  describe(`events: update [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let now = NOW;
    before(async () => {
      t = await startTestApp(dialect, { clock: () => now });
    });
    after(() => t.close());

    const patch = (id: number, body: unknown, as: 'editor' | 'author' | 'contributor' | 'administrator' = 'editor', method = 'PATCH') =>
      t.request(method, `${EVENTS}/${id}`, { as, body });

    async function richEvent(overrides: Record<string, unknown> = {}) {
      const mediaId = await new MediaRepository(t.storage.db).registerUrl('https://img.example/rich.png', '2025-01-01 00:00:00');
      return createEvent(t, 'editor', {
        status: 'draft', date: '2025-03-20 10:00:00', description: 'Body', excerpt: 'Short', slug: 'rich',
        timezone: 'Europe/Rome', cost: '€15', website: 'https://example.org', image: mediaId, show_map: true, show_map_link: true,
        sticky: true, featured: true, categories: 'Alpha,Beta', tags: 'one', venue: { venue: 'Rich Hall' },
        organizer: [{ organizer: 'Rich Org' }], ...overrides,
      });
    }

    test('an omitted field keeps its value, status and publication date included; modified moves', async () => {
      const event = await richEvent();
      now = LATER;
      try {
        for (const method of ['PATCH', 'PUT', 'POST']) {
          const res = await patch(event.id, { title: `Renamed by ${method}` }, 'editor', method);
          assert.equal(res.status, 200, method);
          assert.equal(res.body.title, `Renamed by ${method}`);
          assert.equal(res.body.modified, '2025-04-02 08:00:00');
          assert.deepEqual(without(res.body, 'title', 'modified', 'modified_utc', 'categories', 'tags', 'venue', 'organizer'),
            without(event, 'title', 'modified', 'modified_utc', 'categories', 'tags', 'venue', 'organizer'));
          assert.deepEqual(res.body.categories.map((term: any) => term.id), event.categories.map((term: any) => term.id));
          assert.deepEqual(res.body.tags.map((term: any) => term.id), event.tags.map((term: any) => term.id));
          assert.equal(res.body.venue.id, event.venue.id);
          assert.deepEqual(res.body.organizer.map((o: any) => o.id), event.organizer.map((o: any) => o.id));
          assert.equal(res.body.status, 'draft');
          assert.equal(res.body.date_utc, '0000-00-00 00:00:00');
        }
      } finally {
        now = NOW;
      }
    });

    test('an update without status leaves a contributor’s pending event pending', async () => {
      const pending = await createEvent(t, 'contributor', { status: 'pending' });
      assert.equal((await patch(pending.id, { excerpt: 'x' }, 'contributor')).body.status, 'pending');
    });

    test('sent lists replace; empty values and null remove terms, venue and organizers', async () => {
      for (const empty of ['', [], null, 0]) {
        const event = await richEvent({ slug: undefined });
        const body: Record<string, unknown> = { venue: empty, organizer: empty };
        if (empty !== 0) Object.assign(body, { categories: empty, tags: empty });
        const res = await patch(event.id, body);
        assert.equal(res.status, 200, JSON.stringify(empty));
        assert.deepEqual(res.body.venue, [], JSON.stringify(empty));
        assert.deepEqual(res.body.organizer, [], JSON.stringify(empty));
        if (empty !== 0) {
          assert.deepEqual(res.body.categories, []);
          assert.deepEqual(res.body.tags, []);
        }
      }
      const event = await richEvent({ slug: undefined });
      const replaced = await patch(event.id, { categories: ['Gamma'], organizer: [{ organizer: 'Other Org' }] });
      assert.deepEqual(replaced.body.categories.map((term: any) => term.name), ['Gamma']);
      assert.deepEqual(replaced.body.tags.map((term: any) => term.name), ['one']);
      assert.deepEqual(replaced.body.organizer.map((o: any) => o.organizer), ['Other Org']);
    });

    test('cost, website, image, excerpt and description are cleared by "" and by null', async () => {
      for (const empty of ['', null]) {
        const event = await richEvent({ slug: undefined });
        const res = await patch(event.id, { cost: empty, website: empty, image: empty, excerpt: empty, description: empty });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.cost, '');
        assert.deepEqual(res.body.cost_details, { currency_symbol: '', currency_code: '', currency_position: '', values: [] });
        assert.equal(res.body.website, '');
        assert.equal(res.body.image, false);
        assert.equal(res.body.excerpt, '');
        assert.equal(res.body.description, '');
      }
    });

    test('the currency is re-inferred only when cost is sent', async () => {
      const event = await createEvent(t, 'editor', { cost: '20$' });
      assert.equal((await patch(event.id, { title: 'Same cost' })).body.cost, '20$');
      const changed = await patch(event.id, { cost: '€30' });
      assert.equal(changed.body.cost, '€30');
      assert.equal(changed.body.cost_details.currency_position, 'prefix');
    });

    test('flags are set to the sent value; all_day false keeps the stored times', async () => {
      const event = await createEvent(t, 'editor', { all_day: true, show_map: true });
      const res = await patch(event.id, { all_day: false, show_map: 'false', featured: '1' });
      assert.equal(res.body.all_day, false);
      assert.equal(res.body.start_date, '2025-04-12 00:00:00');
      assert.equal(res.body.end_date, '2025-04-12 23:59:59');
      assert.equal(res.body.show_map, false);
      assert.equal(res.body.show_map_link, false);
      assert.equal(res.body.featured, true);
    });

    test('dates (§7.3): both bounds recomputed; one bound alone is set; end never before start', async () => {
      const event = await createEvent(t, 'editor', { timezone: 'Europe/Rome' });
      const both = await patch(event.id, { start_date: '2025-05-01 09:00', end_date: '2025-05-01 11:00' });
      assert.equal(both.body.utc_start_date, '2025-05-01 07:00:00');
      const startOnly = await patch(event.id, { start_date: '2025-05-01 10:00' });
      assert.equal(startOnly.body.start_date, '2025-05-01 10:00:00');
      assert.equal(startOnly.body.end_date, '2025-05-01 11:00:00');
      const endOnly = await patch(event.id, { end_date: '2025-05-01 12:30' });
      assert.equal(endOnly.body.start_date, '2025-05-01 10:00:00');
      assert.equal(endOnly.body.end_date, '2025-05-01 12:30:00');
      assert.equal(endOnly.body.utc_end_date, '2025-05-01 10:30:00');
      const crossing = await patch(event.id, { start_date: '2025-05-02 09:00' });
      assert.equal(crossing.body.end_date, '2025-05-02 09:00:00');
    });

    test('all_day truthy takes the given or stored dates as whole days', async () => {
      const event = await createEvent(t, 'editor', { start_date: '2025-05-01 10:00', end_date: '2025-05-03 12:00' });
      const allDay = await patch(event.id, { all_day: true, end_date: '2025-05-04 08:00' });
      assert.equal(allDay.body.start_date, '2025-05-01 00:00:00');
      assert.equal(allDay.body.end_date, '2025-05-04 23:59:59');
      const moved = await patch(event.id, { start_date: '2025-05-02 15:00' });
      assert.equal(moved.body.start_date, '2025-05-02 00:00:00');
      assert.equal(moved.body.all_day, true);
    });

    test('⚠ a new zone without dates keeps the wall clocks and recomputes utc_* and the abbreviation', async () => {
      const event = await createEvent(t, 'editor', { timezone: 'Europe/Rome' });
      const tokyo = await patch(event.id, { timezone: 'Asia/Tokyo' });
      assert.equal(tokyo.body.start_date, '2025-04-12 19:30:00');
      assert.equal(tokyo.body.utc_start_date, '2025-04-12 10:30:00');
      assert.equal(tokyo.body.timezone_abbr, 'JST');
      const reset = await patch(event.id, { timezone: '' });
      assert.equal(reset.body.timezone, 'UTC');
      assert.equal(reset.body.utc_start_date, '2025-04-12 19:30:00');
      assert.equal(reset.body.timezone_abbr, 'UTC');
      const newDates = await patch(event.id, { timezone: 'Europe/Rome', start_date: '2025-04-12 10:00', end_date: '2025-04-12 11:00' });
      assert.equal(newDates.body.utc_start_date, '2025-04-12 08:00:00');
    });

    test('status is set subject to the caller’s rights; publishing a draft gives it a slug and a date', async () => {
      const draft = await createEvent(t, 'contributor', { title: 'Contributor Draft' });
      const scaled = await patch(draft.id, { status: 'publish' }, 'contributor');
      assert.equal(scaled.body.status, 'pending');
      assert.equal(scaled.body.slug, '');
      now = LATER;
      try {
        const published = await patch(draft.id, { status: 'publish' }, 'editor');
        assert.equal(published.body.status, 'publish');
        assert.equal(published.body.slug, 'contributor-draft');
        assert.equal(published.body.date, '2025-04-02 08:00:00');
        assert.equal(published.body.date_utc, '2025-04-02 08:00:00');
      } finally {
        now = NOW;
      }
      const scheduled = await patch(draft.id, { date: '2025-06-01 10:00:00' });
      assert.equal(scheduled.body.status, 'future');
      assert.equal(scheduled.body.date_utc, '2025-06-01 10:00:00');
    });

    test('trashed events can be updated, stay in the trash, and leave it with their slug (uniquified)', async () => {
      const event = await createEvent(t, 'editor', { title: 'Phoenix' });
      await t.request('DELETE', `${EVENTS}/${event.id}`, { as: 'editor' });
      const edited = await patch(event.id, { excerpt: 'Still trashed' });
      assert.equal(edited.body.status, 'trash');
      assert.equal(edited.body.slug, 'phoenix__trashed');
      const restored = await patch(event.id, { status: 'publish' });
      assert.equal(restored.body.status, 'publish');
      assert.equal(restored.body.slug, 'phoenix');
      const trashedByStatus = await patch(event.id, { status: 'trash' });
      assert.equal(trashedByStatus.body.slug, 'phoenix__trashed');
      const usurper = await createEvent(t, 'editor', { title: 'Phoenix' });
      assert.equal(usurper.slug, 'phoenix');
      const again = await patch(event.id, { status: 'draft' });
      assert.equal(again.body.status, 'draft');
      assert.equal(again.body.slug, 'phoenix-2');
    });

    test('the slug changes when sent (normalised, uniquified) and not with the title', async () => {
      const event = await createEvent(t, 'editor', { title: 'Original Title' });
      assert.equal((await patch(event.id, { title: 'Other Title' })).body.slug, 'original-title');
      assert.equal((await patch(event.id, { slug: 'New Name!' })).body.slug, 'new-name');
      await createEvent(t, 'editor', { slug: 'taken' });
      assert.equal((await patch(event.id, { slug: 'taken' })).body.slug, 'taken-2');
      assert.equal((await patch(event.id, { slug: 'taken-2' })).body.slug, 'taken-2');
    });

    test('⚠ by slug: the path finds the event, a body slug renames it; unknown path slugs are 404 id 0', async () => {
      const event = await createEvent(t, 'editor', { title: 'Slug Route' });
      const other = await createEvent(t, 'editor', { title: 'Bystander' });
      const renamed = await t.request('PATCH', `${EVENTS}/by-slug/slug-route`, { as: 'editor', body: { slug: 'bystander', excerpt: 'e' } });
      assert.equal(renamed.status, 200);
      assert.equal(renamed.body.id, event.id);
      assert.equal(renamed.body.slug, 'bystander-2');
      assert.equal((await t.request('GET', `${EVENTS}/${other.id}`)).body.excerpt, '');
      const plain = await t.request('PUT', `${EVENTS}/by-slug/BYSTANDER-2`, { as: 'editor', body: { title: 'Via slug' } });
      assert.equal(plain.body.slug, 'bystander-2');
      assert.equal(plain.body.title, 'Via slug');
      const unknown = await t.request('PATCH', `${EVENTS}/by-slug/nothing-here`, { as: 'contributor', body: { title: 'x' } });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.code, 'rest-event-not-found');
      assert.match(unknown.body.message, /\b0\b/);
      assert.equal((await t.request('PATCH', `${EVENTS}/by-slug/nothing-here`, { body: { title: 'x' } })).status, 401);
      assert.deepEqual(invalidParams(await t.request('PATCH', `${EVENTS}/by-slug/bystander-2`, { as: 'editor', body: { slug: '' } })), ['slug']);
      assert.deepEqual(invalidParams(await t.request('PATCH', `${EVENTS}/by-slug/bystander-2`, { body: { slug: 5 } })), ['slug']);
    });

    test('unknown id: 401 visitor, 403 subscriber, 404 contributor+; another kind of id is 400', async () => {
      const expected = { visitor: 401, subscriber: 403, contributor: 404, author: 404, editor: 404, administrator: 404 } as const;
      for (const [as, status] of Object.entries(expected)) {
        const res = await t.request('PATCH', `${EVENTS}/999999`, { as: as as keyof typeof expected, body: { title: 'x' } });
        assert.equal(res.status, status, as);
        assert.equal(res.body.code, status === 404 ? 'rest-event-not-found' : 'rest_forbidden');
      }
      const withVenue = await createEvent(t, 'editor', { venue: { venue: 'Not An Event Hall' } });
      const wrongKind = await t.request('PATCH', `${EVENTS}/${withVenue.venue.id}`, { as: 'contributor', body: { title: 'x' } });
      assert.equal(wrongKind.status, 400);
      assert.equal(wrongKind.body.code, 'rest-invalid-event-id');
    });

    test('validation comes first: an anonymous update with a bad value is 400', async () => {
      const event = await createEvent(t, 'editor');
      assert.deepEqual(invalidParams(await t.request('PATCH', `${EVENTS}/${event.id}`, { body: { website: 'foo' } })), ['website']);
      assert.deepEqual(invalidParams(await t.request('PATCH', `${EVENTS}/${event.id}`, { as: 'editor', body: { start_date: 'whenever' } })), ['start_date']);
    });

    test('a failing inline organizer writes nothing', async () => {
      const event = await createEvent(t, 'editor', { title: 'Untouched' });
      const res = await patch(event.id, { title: 'Touched', categories: 'Fresh Term', venue: { venue: 'Fresh Hall' }, organizer: 'Comma,List' });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'could-not-create-organizer');
      const after = await t.request('GET', `${EVENTS}/${event.id}`);
      assert.equal(after.body.title, 'Untouched');
      assert.deepEqual(after.body.categories, []);
    });
  });
}
