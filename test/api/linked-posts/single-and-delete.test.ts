import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type Caller, type TestApp } from '../../helpers/test-app.ts';
import { CASES, ORGANIZERS, VENUES, createLinked, insertEvent } from './support.ts';

// 20 §1 (routes), §8 (single GET and DELETE), §9 (error rows of these routes).
for (const dialect of DIALECTS) {
  describe(`venue/organizer single GET and DELETE [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect);
    });
    after(() => t.close());

    for (const c of CASES) {
      test(`${c.path}: paths that are no route are 404 rest_no_route`, async () => {
        for (const [method, path] of [
          ['GET', `${c.path}/abc`], ['GET', `${c.path}/by-slug/`], ['GET', `${c.path}/by-slug/a/b`],
          ['PUT', c.path], ['PATCH', c.path], ['DELETE', c.path],
        ] as const) {
          const res = await t.request(method, `${NS}/${path}`, { as: 'administrator' });
          assert.equal(res.status, 404, `${method} ${path}`);
          assert.equal(res.body.code, 'rest_no_route');
        }
      });

      test(`${c.path}: an unknown id or slug is 400 rest_invalid_param, for GET and for an anonymous DELETE`, async () => {
        for (const [method, path, param] of [
          ['GET', '999999', 'id'], ['GET', 'by-slug/nothing-here', 'slug'], ['DELETE', '999999', 'id'], ['DELETE', 'by-slug/nothing-here', 'slug'],
        ] as const) {
          const res = await t.request(method, `${NS}/${c.path}/${path}`);
          assert.equal(res.status, 400, `${method} ${path}`);
          assert.equal(res.body.code, 'rest_invalid_param');
          assert.deepEqual(Object.keys(res.body.data.params), [param]);
        }
      });

      test(`${c.path}: a bad JSON body is 400 rest_invalid_json`, async () => {
        const res = await t.request('POST', `${NS}/${c.path}`, { as: 'administrator', body: '{"broken', headers: { 'content-type': 'application/json' } });
        assert.equal(res.status, 400);
        assert.equal(res.body.code, 'rest_invalid_json');
      });

      test(`${c.path}: by-slug finds any status, normalises the segment, and the oldest wins`, async () => {
        const draft = await createLinked(t, c, 'contributor', `Lookup ${c.kind}`);
        const res = await t.request('GET', `${NS}/${c.path}/by-slug/${encodeURIComponent(`LOOKUP ${c.kind.toUpperCase()}`)}`, { as: 'editor' });
        assert.equal(res.status, 200);
        assert.equal(res.body.id, draft.id);
        const twin = await createLinked(t, c, 'contributor', `LOOKUP ${c.kind}!`);
        assert.equal(twin.slug, draft.slug, 'drafts share the slug');
        const again = await t.request('GET', `${NS}/${c.path}/by-slug/lookup-${c.kind}`, { as: 'editor' });
        assert.equal(again.body.id, draft.id);
        assert.ok('json_ld' in res.body);
      });

      test(`${c.path}: readability of non-published records follows 40 §6.2; refusals are 403 ${c.kind}-not-accessible for visitors too`, async () => {
        const draft = await createLinked(t, c, 'contributor', `Readable draft ${c.kind}`);
        const priv = await createLinked(t, c, 'author', `Readable private ${c.kind}`, { status: 'private' });
        const trashed = await createLinked(t, c, 'author', `Readable trash ${c.kind}`);
        await t.request('DELETE', `${NS}/${c.path}/${trashed.id}`, { as: 'author' });
        const expectations: Array<[number, Caller, number]> = [
          [draft.id, 'visitor', 403], [draft.id, 'subscriber', 403], [draft.id, 'contributor', 200], [draft.id, 'author', 403], [draft.id, 'editor', 200],
          [priv.id, 'visitor', 403], [priv.id, 'contributor', 403], [priv.id, 'author', 200], [priv.id, 'editor', 200], [priv.id, 'administrator', 200],
          [trashed.id, 'visitor', 403], [trashed.id, 'contributor', 403], [trashed.id, 'author', 200], [trashed.id, 'editor', 200],
        ];
        for (const [id, as, status] of expectations) {
          const res = await t.request('GET', `${NS}/${c.path}/${id}`, { as });
          assert.equal(res.status, status, `${as} on ${id}`);
          if (status === 403) assert.equal(res.body.code, `${c.kind}-not-accessible`);
        }
        const trashedBody = await t.request('GET', `${NS}/${c.path}/${trashed.id}`, { as: 'editor' });
        assert.equal(trashedBody.body.status, 'trash');
        assert.ok('json_ld' in trashedBody.body);
      });

      test(`${c.path}: an id of another kind is unknown (400)`, async () => {
        const other = await createLinked(t, c === VENUES ? ORGANIZERS : VENUES, 'administrator', `Kind check ${c.kind}`);
        const res = await t.request('GET', `${NS}/${c.path}/${other.id}`);
        assert.equal(res.status, 400);
      });

      test(`${c.path}: DELETE trashes (200, trash status, __trashed slug, plain url), then 410; the old slug is then unknown (400)`, async () => {
        const created = await createLinked(t, c, 'administrator', `Doomed ${c.kind}`);
        const res = await t.request('DELETE', `${NS}/${c.path}/by-slug/doomed-${c.kind}`, { as: 'administrator' });
        assert.equal(res.status, 200);
        assert.equal(res.body.id, created.id);
        assert.equal(res.body.status, 'trash');
        assert.equal(res.body.slug, `doomed-${c.kind}__trashed`);
        assert.equal(res.body.url, `http://calendar.test/?post_type=${c.kind === 'venue' ? 'tribe_venue' : 'tribe_organizer'}&p=${created.id}`);
        assert.equal('json_ld' in res.body, false);
        const again = await t.request('DELETE', `${NS}/${c.path}/${created.id}`, { as: 'administrator' });
        assert.equal(again.status, 410);
        assert.equal(again.body.code, `${c.kind}-is-in-trash`);
        const bySlug = await t.request('DELETE', `${NS}/${c.path}/by-slug/doomed-${c.kind}`, { as: 'administrator' });
        assert.equal(bySlug.status, 400);
        const listed = await t.request('GET', `${NS}/${c.path}?status=trash`, { as: 'editor' });
        assert.ok(listed.body[c.path].some((item: any) => item.id === created.id));
        const notListed = await t.request('GET', `${NS}/${c.path}?per_page=50`, { as: 'editor' });
        assert.equal(notListed.body[c.path].some((item: any) => item.id === created.id), false);
      });

      test(`${c.path}: force=true deletes for good, also from the trash, and answers {deleted, previous}`, async () => {
        const created = await createLinked(t, c, 'administrator', `Gone ${c.kind}`, { phone: '9' });
        const res = await t.request('DELETE', `${NS}/${c.path}/${created.id}?force=true`, { as: 'editor' });
        assert.equal(res.status, 200);
        assert.equal(res.body.deleted, true);
        assert.equal(res.body.previous.id, created.id);
        assert.equal(res.body.previous.status, 'publish');
        assert.equal(res.body.previous.phone, '9');
        assert.equal((await t.request('GET', `${NS}/${c.path}/${created.id}`, { as: 'editor' })).status, 400);
        const trashed = await createLinked(t, c, 'administrator', `Gone twice ${c.kind}`);
        await t.request('DELETE', `${NS}/${c.path}/${trashed.id}`, { as: 'administrator' });
        const forced = await t.request('DELETE', `${NS}/${c.path}/${trashed.id}`, { as: 'administrator', body: { force: true } });
        assert.equal(forced.status, 200);
        assert.equal(forced.body.previous.status, 'trash');
        const refused = await createLinked(t, c, 'administrator', `Kept ${c.kind}`);
        const contributor = await t.request('DELETE', `${NS}/${c.path}/${refused.id}?force=true`, { as: 'contributor' });
        assert.equal(contributor.status, 403);
        const bad = await t.request('DELETE', `${NS}/${c.path}/${refused.id}?force=maybe`, { as: 'administrator' });
        assert.equal(bad.status, 400);
        assert.deepEqual(Object.keys(bad.body.data.params), ['force']);
      });
    }

    test('trashing keeps the links to events; force removes exactly this record’s links', async () => {
      const venue = await createLinked(t, VENUES, 'administrator', 'Linked Hall');
      const keep = await createLinked(t, ORGANIZERS, 'administrator', 'Linked Keep');
      const drop = await createLinked(t, ORGANIZERS, 'administrator', 'Linked Drop');
      const event = await insertEvent(t, { venueId: venue.id, organizerIds: [keep.id, drop.id] });
      await t.request('DELETE', `${NS}/venues/${venue.id}`, { as: 'administrator' });
      await t.request('DELETE', `${NS}/organizers/${drop.id}`, { as: 'administrator' });
      const links = () => t.storage.db.selectFrom('event_organizers').select('organizer_id').where('event_id', '=', event).orderBy('position').execute();
      const venueOf = async () => (await t.storage.db.selectFrom('events').select('venue_id').where('id', '=', event).executeTakeFirstOrThrow()).venue_id;
      assert.equal(await venueOf(), venue.id);
      assert.deepEqual((await links()).map((row) => row.organizer_id), [keep.id, drop.id]);
      await t.request('DELETE', `${NS}/organizers/${drop.id}?force=1`, { as: 'administrator' });
      await t.request('DELETE', `${NS}/venues/${venue.id}?force=true`, { as: 'administrator' });
      assert.deepEqual((await links()).map((row) => row.organizer_id), [keep.id]);
      assert.equal(await venueOf(), null);
      const objects = await t.storage.db.selectFrom('objects').select('id').where('id', 'in', [venue.id, drop.id]).execute();
      assert.deepEqual(objects, []);
    });
  });
}
