import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { MediaRepository } from '../../../src/storage/repositories/media-repository.ts';
import { clock, createEvent, EVENTS, eventOf, invalidParams, list } from './fixtures.ts';

const BLANKED = {
  description: '', excerpt: '', image: false, all_day: null, cost: '',
  cost_details: { currency_symbol: '', currency_position: '', currency_code: '', values: [] },
  website: '', show_map: null, show_map_link: null, hide_from_listings: null, sticky: null, featured: null,
  categories: [], tags: [], venue: [], organizer: [], custom_fields: [],
};

// 10-events §9 and 40 §8: password-protected events.
for (const dialect of DIALECTS) {
  describe(`events: passwords [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let locked: any;
    before(async () => {
      t = await startTestApp(dialect, { clock });
      const image = await new MediaRepository(t.storage.db).registerUrl('https://img.example/locked.png', '2025-01-01 00:00:00');
      locked = await eventOf(t, t.users.author, 'publish', {
        title: 'Lockmark Secret Gala', password: 'Open Sesame', description: 'Inside', excerpt: 'Tease', cost: '10$', image,
        website: 'https://gala.example', show_map: true, featured: true, categories: 'Gala', tags: 'vip',
        venue: { venue: 'Secret Hall' }, organizer: [{ organizer: 'Secret Org' }],
      });
    });
    after(() => t.close());

    test('the create response is never blanked', () => {
      assert.equal(locked.description, '<p>Inside</p>');
      assert.equal(locked.featured, true);
      assert.equal(locked.venue.venue, 'Secret Hall');
    });

    test('single GET without access is 403 event-password-protected, for administrators too', async () => {
      for (const as of ['visitor', 'subscriber', 'author', 'administrator'] as const) {
        const res = await t.request('GET', `${EVENTS}/${locked.id}`, { as });
        assert.equal(res.status, 403, as);
        assert.equal(res.body.code, 'event-password-protected');
      }
      for (const wrong of ['open sesame', 'Open Sesame ', 'x']) {
        assert.equal((await t.request('GET', `${EVENTS}/${locked.id}?password=${encodeURIComponent(wrong)}`)).status, 403, wrong);
      }
    });

    test('the exact password unlocks the whole event, without json_ld', async () => {
      const res = await t.request('GET', `${EVENTS}/${locked.id}?password=${encodeURIComponent('Open Sesame')}`);
      assert.equal(res.status, 200);
      assert.equal(res.body.description, '<p>Inside</p>');
      assert.equal('json_ld' in res.body, false);
      const bySlug = await t.request('GET', `${EVENTS}/by-slug/lockmark-secret-gala?password=${encodeURIComponent('Open Sesame')}`);
      assert.equal(bySlug.status, 200);
    });

    test('password= is a 400 on the id route and no password on the slug route', async () => {
      assert.deepEqual(invalidParams(await t.request('GET', `${EVENTS}/${locked.id}?password=`)), ['password']);
      assert.equal((await t.request('GET', `${EVENTS}/by-slug/lockmark-secret-gala?password=`)).body.code, 'event-password-protected');
    });

    test('context=edit unlocks for callers who may edit the event, and only for them', async () => {
      for (const as of ['author', 'editor', 'administrator'] as const) {
        const res = await t.request('GET', `${EVENTS}/${locked.id}?context=edit`, { as });
        assert.equal(res.status, 200, as);
      }
      for (const as of ['visitor', 'subscriber', 'contributor'] as const) {
        assert.equal((await t.request('GET', `${EVENTS}/${locked.id}?context=edit`, { as })).status, 403, as);
      }
      const othersEvent = await eventOf(t, t.others.author, 'publish', { password: 'p' });
      assert.equal((await t.request('GET', `${EVENTS}/${othersEvent.id}?context=edit`, { as: 'author' })).status, 403);
    });

    test('lists keep protected events (and count them) with the §9 members blanked', async () => {
      const body = await list(t, '?search=lockmark');
      assert.equal(body.total, 1);
      const item = body.events[0];
      assert.deepEqual(Object.keys(item), Object.keys(locked));
      for (const [key, value] of Object.entries(BLANKED)) assert.deepEqual(item[key], value, key);
      assert.deepEqual(Object.keys(item.cost_details), ['currency_symbol', 'currency_position', 'currency_code', 'values']);
      for (const key of ['title', 'start_date', 'utc_end_date', 'timezone', 'timezone_abbr', 'slug', 'status', 'url', 'rest_url', 'global_id', 'author']) {
        assert.deepEqual(item[key], locked[key], key);
      }
    });

    test('lists unlock with the password or context=edit for those who may edit', async () => {
      const byPassword = await list(t, `?search=lockmark&password=${encodeURIComponent('Open Sesame')}`);
      assert.equal(byPassword.events[0].description, '<p>Inside</p>');
      assert.equal(byPassword.events[0].venue.venue, 'Secret Hall');
      assert.equal((await list(t, '?search=lockmark&context=edit', 'editor')).events[0].featured, true);
      assert.equal((await list(t, '?search=lockmark', 'editor')).events[0].featured, null);
      assert.equal((await list(t, '?search=lockmark&context=edit', 'contributor')).events[0].featured, null);
    });

    test('update sets, keeps and removes the password; write responses are never blanked', async () => {
      const event = await createEvent(t, 'editor', { title: 'Pwmark' });
      const set = await t.request('PATCH', `${EVENTS}/${event.id}`, { as: 'editor', body: { password: 'abc' } });
      assert.equal(set.status, 200);
      assert.equal(set.body.featured, false);
      assert.equal((await t.request('GET', `${EVENTS}/${event.id}`)).status, 403);
      await t.request('PATCH', `${EVENTS}/${event.id}`, { as: 'editor', body: { title: 'Pwmark kept' } });
      assert.equal((await t.request('GET', `${EVENTS}/${event.id}`)).status, 403);
      await t.request('PATCH', `${EVENTS}/${event.id}`, { as: 'editor', body: { password: '' } });
      assert.equal((await t.request('GET', `${EVENTS}/${event.id}`)).status, 200);
      await t.request('PATCH', `${EVENTS}/${event.id}`, { as: 'editor', body: { password: 'again' } });
      await t.request('PATCH', `${EVENTS}/${event.id}`, { as: 'editor', body: { password: null } });
      assert.equal((await t.request('GET', `${EVENTS}/${event.id}`)).status, 200);
      const trashed = await t.request('DELETE', `${EVENTS}/${locked.id}`, { as: 'author' });
      assert.equal(trashed.body.description, '<p>Inside</p>');
    });
  });
}
