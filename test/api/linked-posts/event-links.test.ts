import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Role } from '../../../src/domain/auth/capabilities.ts';
import { InvalidParamsError, RestError } from '../../../src/domain/errors.ts';
import { REASONS } from '../../../src/domain/reasons.ts';
import type { User } from '../../../src/domain/users/user.ts';
import type { RestContext } from '../../../src/http/rest/context.ts';
import { UrlBuilder } from '../../../src/render/urls.ts';
import {
  resolveEventOrganizers, resolveEventVenue, validateEventOrganizerInput, validateEventVenueInput,
} from '../../../src/services/linked-posts-service.ts';
import { embeddedLinkedPostsRead } from '../../../src/read/linked-post-models.ts';
import { read } from '../../../src/storage/reads-together.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { ORGANIZERS, VENUES, createLinked, insertEvent } from './support.ts';

// 10-events §6.3 (venue/organizer input of events) and §3.7 (embedded copies), 20 §8.2 (trash).
for (const dialect of DIALECTS) {
  describe(`venues and organizers of events [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect);
    });
    after(() => t.close());

    const user = (role: Role): User => ({ id: t.users[role].id, login: t.users[role].login, email: '', role });
    const context = (role: Role | null): RestContext => ({
      lang: 'en',
      user: role === null ? null : user(role),
      urls: new UrlBuilder('http://calendar.test', '', 'en'),
      now: new Date('2025-03-01T09:00:00Z'),
      t: (key) => key,
    });
    const venueOf = (input: unknown, role: Role = 'author') =>
      t.storage.db.transaction().execute((trx) => resolveEventVenue(trx, input, user(role), context(role), 'UTC'));
    const organizersOf = (input: unknown, role: Role = 'author') =>
      t.storage.db.transaction().execute((trx) => resolveEventOrganizers(trx, input, user(role), context(role), 'UTC'));
    const rejects = async (promise: Promise<unknown>, check: (error: RestError) => void) => {
      try {
        await promise;
      } catch (error) {
        assert.ok(error instanceof RestError, String(error));
        check(error);
        return;
      }
      assert.fail('expected a RestError');
    };
    const invalidParamOf = (name: string) => (error: RestError) => {
      assert.ok(error instanceof InvalidParamsError);
      assert.deepEqual(Object.keys(error.failures), [name]);
    };
    const count = async (table: 'venues' | 'organizers') =>
      Number((await t.storage.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

    test('venue: nothing given means no venue', async () => {
      for (const input of [undefined, null, '', 0, '0', [], {}]) assert.equal(await venueOf(input), null, JSON.stringify(input));
    });

    test('venue: an existing id, numeric string or {id} links it; other ids are invalid', async () => {
      const venue = await createLinked(t, VENUES, 'administrator', 'Linked Venue');
      const organizer = await createLinked(t, ORGANIZERS, 'administrator', 'Not A Venue');
      for (const input of [venue.id, String(venue.id), { id: venue.id }, { id: String(venue.id), venue: 'ignored' }]) {
        assert.equal(await venueOf(input), venue.id, JSON.stringify(input));
      }
      for (const input of [organizer.id, 999999, 'foo', true, { id: 'x' }]) await rejects(venueOf(input), invalidParamOf('venue'));
      assert.deepEqual(await validateEventVenueInput(t.storage.db, organizer.id, user('author')), REASONS.unknownVenue);
      assert.equal(await validateEventVenueInput(t.storage.db, venue.id, user('author')), true);
    });

    test('venue: an object without id creates a venue with the POST rules, or reuses its duplicate', async () => {
      const byAuthor = await venueOf({ venue: 'Inline Hall', city: 'Pisa', show_map: 'false' });
      const stored = await t.request('GET', `${NS}/venues/${byAuthor}`);
      assert.deepEqual([stored.body.status, stored.body.city, stored.body.show_map, stored.body.author], ['publish', 'Pisa', false, String(t.users.author.id)]);
      const byContributor = await venueOf({ venue: 'Inline Draft' }, 'contributor');
      assert.equal((await t.request('GET', `${NS}/venues/${byContributor}`, { as: 'editor' })).body.status, 'draft');
      const asked = await venueOf({ venue: 'Inline Asked', status: 'publish' }, 'contributor');
      assert.equal((await t.request('GET', `${NS}/venues/${asked}`, { as: 'editor' })).body.status, 'pending');
      assert.equal(await venueOf({ venue: 'INLINE hall' }), byAuthor, 'the duplicate is reused');
    });

    test('venue: an object failing the POST rules is invalid and writes nothing', async () => {
      const before = await count('venues');
      for (const input of [{ city: 'No name' }, { venue: '' }, { venue: 'X', website: 'foo' }, { venue: 'X', status: 'bogus' }]) {
        await rejects(venueOf(input), invalidParamOf('venue'));
        assert.notEqual(await validateEventVenueInput(t.storage.db, input, user('author')), true, JSON.stringify(input));
      }
      await rejects(venueOf({ venue: 'X', image: 'http://img.test/a.jpg' }, 'contributor'), invalidParamOf('venue'));
      assert.equal(await count('venues'), before);
    });

    test('venue (extension): a list of one is that venue; a list or comma string of several is refused, an event has one venue', async () => {
      const venue = await createLinked(t, VENUES, 'administrator', 'Listed Venue');
      assert.equal(await venueOf([venue.id]), venue.id);
      assert.equal(await venueOf([{ id: venue.id }]), venue.id);
      const created = await venueOf([{ venue: 'Listed New Hall' }]);
      assert.equal((await t.request('GET', `${NS}/venues/${created}`)).body.venue, 'Listed New Hall');
      const before = await count('venues');
      for (const input of [[venue.id, created], [{ venue: 'A' }, { venue: 'B' }], `${venue.id},${created}`]) {
        assert.deepEqual(await validateEventVenueInput(t.storage.db, input, user('author')), REASONS.oneVenue, JSON.stringify(input));
        await rejects(venueOf(input), (error) => {
          invalidParamOf('venue')(error);
          assert.deepEqual((error as InvalidParamsError).failures.venue.reason, REASONS.oneVenue);
        });
      }
      assert.equal(await count('venues'), before);
    });

    test('organizer: ids, {id} objects and data objects, in order, without duplicates', async () => {
      const a = await createLinked(t, ORGANIZERS, 'administrator', 'Org A');
      const b = await createLinked(t, ORGANIZERS, 'administrator', 'Org B');
      for (const input of [undefined, null, '', 0, '0', []]) assert.deepEqual(await organizersOf(input), [], JSON.stringify(input));
      assert.deepEqual(await organizersOf(a.id), [a.id]);
      assert.deepEqual(await organizersOf(String(b.id)), [b.id]);
      const ids = await organizersOf([b.id, { id: a.id }, { organizer: 'Org New', email: 'n@x.example' }, String(b.id), { organizer: 'org a' }]);
      assert.equal(ids.length, 3);
      assert.deepEqual([ids[0], ids[1]], [b.id, a.id]);
      assert.equal((await t.request('GET', `${NS}/organizers/${ids[2]}`)).body.email, 'n@x.example');
    });

    test('organizer: one object is a list of one (extension); a comma string cannot be created; a bad item is invalid and nothing is created', async () => {
      const a = await createLinked(t, ORGANIZERS, 'administrator', 'Org Bare');
      assert.deepEqual(await organizersOf({ id: a.id }), [a.id]);
      const [bare] = await organizersOf({ organizer: 'Bare' });
      assert.equal((await t.request('GET', `${NS}/organizers/${bare}`)).body.organizer, 'Bare');
      assert.equal(await validateEventOrganizerInput(t.storage.db, `${a.id},${a.id}`, user('author')), true);
      await rejects(organizersOf(`${a.id},${a.id}`), (error) => assert.equal(error.code, 'could-not-create-organizer'));
      const venue = await createLinked(t, VENUES, 'administrator', 'Venue As Organizer');
      const before = await count('organizers');
      for (const input of [[{ organizer: 'Would Be Created' }, venue.id], [[a.id]], ['foo'], [{ organizer: 'Y', website: 'bad' }], 'foo']) {
        assert.notEqual(await validateEventOrganizerInput(t.storage.db, input, user('author')), true, JSON.stringify(input));
        await rejects(organizersOf(input), invalidParamOf('organizer'));
      }
      assert.equal(await count('organizers'), before);
    });

    test('embedded copies: empty members dropped, any status shown, organizers in linking order, trashed ones left out', async () => {
      const venue = await createLinked(t, VENUES, 'contributor', 'Embedded Draft Hall', { city: 'Lucca' });
      const first = await createLinked(t, ORGANIZERS, 'administrator', 'Embed First', { phone: '1' });
      const second = await createLinked(t, ORGANIZERS, 'administrator', 'Embed Second');
      const binned = await createLinked(t, ORGANIZERS, 'administrator', 'Embed Binned');
      const event = await insertEvent(t, { venueId: venue.id, organizerIds: [second.id, binned.id, first.id] });
      const bare = await insertEvent(t);
      await t.request('DELETE', `${NS}/organizers/${binned.id}`, { as: 'administrator' });
      const embedded = await read(t.storage.db, embeddedLinkedPostsRead(t.storage.db, [{ id: event, venue_id: venue.id }, { id: bare, venue_id: null }], context(null), { jsonLd: false }));
      const copy = embedded.get(event)!;
      assert.deepEqual(Object.keys(copy.venue), [
        'id', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url', 'venue', 'slug', 'city',
        'show_map', 'show_map_link', 'global_id', 'global_id_lineage',
      ]);
      assert.equal((copy.venue as any).status, 'draft');
      assert.deepEqual(copy.organizer.map((item) => item.id), [second.id, first.id]);
      assert.equal(copy.organizer[1].phone, '1');
      assert.deepEqual(embedded.get(bare), { venue: [], organizer: [] });
      await t.request('DELETE', `${NS}/venues/${venue.id}`, { as: 'administrator' });
      const afterTrash = await read(t.storage.db, embeddedLinkedPostsRead(t.storage.db, [{ id: event, venue_id: venue.id }], context(null), { jsonLd: false }));
      assert.deepEqual(afterTrash.get(event)!.venue, []);
      await t.request('PUT', `${NS}/venues/${venue.id}`, { as: 'administrator', body: { status: 'draft' } });
      const restored = await read(t.storage.db, embeddedLinkedPostsRead(t.storage.db, [{ id: event, venue_id: venue.id }], context(null), { jsonLd: false }));
      assert.equal((restored.get(event)!.venue as any).id, venue.id, 'restoring brings it back');
    });

    test('embedded copies: json_ld only when asked and readable; protected ones always blanked, name kept, state blanked', async () => {
      const venue = await createLinked(t, VENUES, 'administrator', 'Embed Locked', { password: 'pw', description: 'D', state: 'S', city: 'C' });
      const organizer = await createLinked(t, ORGANIZERS, 'administrator', 'Embed Open', { email: 'e@x.example' });
      const event = await insertEvent(t, { venueId: venue.id, organizerIds: [organizer.id] });
      const embedded = (await read(t.storage.db, embeddedLinkedPostsRead(t.storage.db, [{ id: event, venue_id: venue.id }], context('administrator'), { jsonLd: true }))).get(event)!;
      const lockedVenue = embedded.venue as Record<string, unknown>;
      assert.deepEqual([lockedVenue.venue, lockedVenue.description, lockedVenue.state, lockedVenue.city, lockedVenue.show_map], ['Embed Locked', '', '', '', null]);
      assert.equal('json_ld' in lockedVenue, false);
      assert.deepEqual(embedded.organizer[0].json_ld, {
        '@type': 'Person', name: 'Embed Open', description: '', url: '', telephone: '', email: 'e@x.example', sameAs: '',
      });
      const plain = (await read(t.storage.db, embeddedLinkedPostsRead(t.storage.db, [{ id: event, venue_id: venue.id }], context(null), { jsonLd: false }))).get(event)!;
      assert.equal('json_ld' in plain.organizer[0], false);
    });

    test('embedding costs a fixed number of queries for any number of events', async () => {
      const venue = await createLinked(t, VENUES, 'administrator', 'Batch Hall', { image: 'http://img.test/b.jpg' });
      const organizer = await createLinked(t, ORGANIZERS, 'administrator', 'Batch Org', { image: 'http://img.test/c.jpg' });
      const events: Array<{ id: number; venue_id: number }> = [];
      for (let i = 0; i < 6; i++) events.push({ id: await insertEvent(t, { venueId: venue.id, organizerIds: [organizer.id] }), venue_id: venue.id });
      const cost = async (list: typeof events) => {
        const before = await t.queryCount();
        await read(t.storage.db, embeddedLinkedPostsRead(t.storage.db, list, context(null), { jsonLd: false }));
        return (await t.queryCount()) - before;
      };
      // Venues and organizers in one statement on PostgreSQL (one round trip), two on SQLite; then their images.
      const queries = dialect === 'postgres' ? 2 : 3;
      assert.equal(await cost(events.slice(0, 1)), queries);
      assert.equal(await cost(events), queries);
    });
  });
}
