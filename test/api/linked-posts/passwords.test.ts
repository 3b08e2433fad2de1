import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { ORGANIZERS, VENUES, createLinked } from './support.ts';

// 20 §7 and 40 §8: password-protected venues and organizers.
for (const dialect of DIALECTS) {
  describe(`venue/organizer passwords [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let venue: any;
    let organizer: any;
    before(async () => {
      t = await startTestApp(dialect);
      venue = await createLinked(t, VENUES, 'author', 'Locked Hall', {
        password: 'Sesame', description: 'Secret', image: 'http://img.test/l.jpg', address: 'A', city: 'B', country: 'C',
        province: 'D', state: 'E', zip: 'F', phone: 'G', website: 'http://h.example',
      });
      organizer = await createLinked(t, ORGANIZERS, 'author', 'Locked Org', { password: 'Sesame', email: 'o@x.example', phone: '1', website: 'http://o.example' });
    });
    after(() => t.close());

    const REDACTED_VENUE = {
      venue: [], description: '', image: false, address: '', city: '', country: '', province: '', state: 'E', zip: '',
      phone: '', website: '', stateprovince: '', show_map: null, show_map_link: null,
    };

    const pick = (body: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.map((key) => [key, body[key]]));

    test('a locked venue answers 200 with content blanked, state leaking, no json_ld; other keys untouched', async () => {
      for (const as of ['visitor', 'administrator'] as const) {
        const res = await t.request('GET', `${NS}/venues/${venue.id}`, { as });
        assert.equal(res.status, 200);
        assert.deepEqual(pick(res.body, Object.keys(REDACTED_VENUE)), REDACTED_VENUE, as);
        assert.equal('json_ld' in res.body, false);
        assert.deepEqual([res.body.id, res.body.slug, res.body.status, res.body.url], [venue.id, 'locked-hall', 'publish', 'http://calendar.test/venue/locked-hall/']);
        assert.equal(res.body.global_id, `calendar.test?id=${venue.id}`);
      }
    });

    test('a locked organizer blanks its name as [] and its contact fields', async () => {
      const res = await t.request('GET', `${NS}/organizers/by-slug/locked-org`);
      assert.deepEqual(pick(res.body, ['organizer', 'phone', 'website', 'email']), { organizer: [], phone: '', website: '', email: '' });
      assert.equal('description' in res.body, false, 'only keys already present are blanked');
    });

    test('the exact password unlocks the single GET, with json_ld; a wrong one does not', async () => {
      const open = await t.request('GET', `${NS}/venues/${venue.id}?password=Sesame`);
      assert.equal(open.body.venue, 'Locked Hall');
      assert.equal(open.body.description, '<p>Secret</p>');
      assert.ok('json_ld' in open.body);
      const bySlug = await t.request('GET', `${NS}/venues/by-slug/locked-hall?password=Sesame`);
      assert.equal(bySlug.body.venue, 'Locked Hall');
      for (const wrong of ['sesame', 'Sesame ', '']) {
        const res = await t.request('GET', `${NS}/venues/${venue.id}?password=${encodeURIComponent(wrong)}`);
        assert.deepEqual(res.body.venue, [], JSON.stringify(wrong));
      }
    });

    test('context=edit unlocks for callers who may edit the record, never the role alone', async () => {
      assert.equal((await t.request('GET', `${NS}/venues/${venue.id}?context=edit`, { as: 'editor' })).body.venue, 'Locked Hall');
      assert.equal((await t.request('GET', `${NS}/venues/${venue.id}?context=edit`, { as: 'author' })).body.venue, 'Locked Hall');
      assert.deepEqual((await t.request('GET', `${NS}/venues/${venue.id}?context=edit`, { as: 'contributor' })).body.venue, []);
      assert.deepEqual((await t.request('GET', `${NS}/venues/${venue.id}?context=edit`)).body.venue, []);
      assert.deepEqual((await t.request('GET', `${NS}/venues/${venue.id}`, { as: 'editor' })).body.venue, []);
    });

    test('lists show locked items redacted; one password unlocks every item it fits', async () => {
      const other = await createLinked(t, ORGANIZERS, 'author', 'Locked Org Two', { password: 'Other', phone: '2' });
      const listed = await t.request('GET', `${NS}/organizers?search=locked`);
      assert.equal(listed.body.total, 2);
      assert.ok(listed.body.organizers.every((item: any) => Array.isArray(item.organizer)));
      const unlocked = await t.request('GET', `${NS}/organizers?search=locked&password=Sesame`);
      const byId = Object.fromEntries(unlocked.body.organizers.map((item: any) => [item.id, item]));
      assert.equal(byId[organizer.id].organizer, 'Locked Org');
      assert.deepEqual(byId[other.id].organizer, []);
      const edit = await t.request('GET', `${NS}/organizers?search=locked&context=edit`, { as: 'editor' });
      assert.ok(edit.body.organizers.every((item: any) => typeof item.organizer === 'string'));
    });

    test('create and update responses are always redacted; a delete response opens with the password', async () => {
      assert.deepEqual(venue.venue, [], 'create response');
      const updated = await t.request('PATCH', `${NS}/venues/${venue.id}?password=Sesame`, { as: 'author', body: { city: 'Z' } });
      assert.equal(updated.status, 200);
      assert.deepEqual(updated.body.venue, []);
      const doomed = await createLinked(t, ORGANIZERS, 'author', 'Locked Doomed', { password: 'pw', phone: '3' });
      const deleted = await t.request('DELETE', `${NS}/organizers/${doomed.id}`, { as: 'author', body: { password: 'pw' } });
      assert.equal(deleted.body.organizer, 'Locked Doomed');
      const doomed2 = await createLinked(t, ORGANIZERS, 'author', 'Locked Doomed 2', { password: 'pw' });
      const deleted2 = await t.request('DELETE', `${NS}/organizers/${doomed2.id}`, { as: 'author' });
      assert.deepEqual(deleted2.body.organizer, []);
    });

    test('an update sets or (with "") removes the password', async () => {
      const open = await createLinked(t, VENUES, 'author', 'Open Hall', { city: 'X' });
      assert.equal(open.venue, 'Open Hall');
      await t.request('PUT', `${NS}/venues/${open.id}`, { as: 'author', body: { password: 'new' } });
      assert.deepEqual((await t.request('GET', `${NS}/venues/${open.id}`)).body.venue, []);
      await t.request('PUT', `${NS}/venues/${open.id}`, { as: 'author', body: { password: '' } });
      const reopened = await t.request('GET', `${NS}/venues/${open.id}`);
      assert.equal(reopened.body.venue, 'Open Hall');
      assert.equal(reopened.body.city, 'X');
    });
  });
}
