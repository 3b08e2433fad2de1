import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { CASES, ORGANIZERS, VENUES, createLinked, getLinked, manualClock } from './support.ts';

// 20 §6.4: partial updates by id and by slug; status, trash and restore; 40 §9 on update.
for (const dialect of DIALECTS) {
  describe(`venue/organizer update [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    const clock = manualClock('2025-03-01T09:00:00Z');
    before(async () => {
      t = await startTestApp(dialect, { clock: clock.clock });
    });
    after(() => t.close());

    const update = async (path: string, body: unknown, as: 'administrator' | 'editor' | 'author' | 'contributor' = 'administrator', method = 'PUT') => {
      const res = await t.request(method, `${NS}/${path}`, { as, body });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body;
    };

    test('a full venue keeps every field the update does not send; the name changes, the slug does not', async () => {
      const media = await createLinked(t, VENUES, 'administrator', 'Img Source', { image: 'http://img.test/u.jpg' });
      const created = await createLinked(t, VENUES, 'author', 'Keep Hall', {
        description: 'Desc', address: 'A 1', city: 'C', country: 'Italy', province: 'P', state: 'S', zip: '1', phone: '2',
        website: 'http://k.example', show_map: false, show_map_link: false, image: media.image.id, status: 'private',
      });
      clock.set('2025-03-02T09:00:00Z');
      const updated = await update(`venues/${created.id}`, { venue: 'Kept Hall' }, 'author');
      clock.set('2025-03-01T09:00:00Z');
      const { venue: _a, modified: _b, modified_utc: _c, ...before } = created;
      const { venue, modified, modified_utc, ...after } = updated;
      assert.deepEqual(after, before, 'status, stateprovince, flags, image and all text unchanged');
      assert.equal(venue, 'Kept Hall');
      assert.equal(updated.slug, 'keep-hall');
      assert.equal(updated.status, 'private', 'an omitted status is not republished');
      assert.deepEqual([modified, modified_utc], ['2025-03-02 09:00:00', '2025-03-02 09:00:00']);
    });

    for (const c of CASES) {
      test(`${c.path}: POST, PUT and PATCH on an item are the same partial update`, async () => {
        const created = await createLinked(t, c, 'administrator', `Verb ${c.kind}`, { phone: '1' });
        for (const [i, method] of ['POST', 'PUT', 'PATCH'].entries()) {
          const body = await update(`${c.path}/${created.id}`, { website: `http://v${i}.example` }, 'administrator', method);
          assert.deepEqual([body.website, body.phone], [`http://v${i}.example`, '1']);
        }
      });

      test(`${c.path}: "" and null clear the description and text fields; an empty name is refused`, async () => {
        const created = await createLinked(t, c, 'administrator', `Clear ${c.kind}`, { description: 'D', phone: '1', website: 'http://w.example' });
        const cleared = await update(`${c.path}/${created.id}`, { description: '', phone: null, website: '' });
        assert.equal('description' in cleared, false);
        assert.equal('phone' in cleared, false);
        assert.equal('website' in cleared, false);
        const noName = await t.request('PUT', `${NS}/${c.path}/${created.id}`, { as: 'administrator', body: { [c.kind]: '' } });
        assert.equal(noName.status, 400);
        assert.deepEqual(Object.keys(noName.body.data.params), [c.kind]);
      });

      test(`${c.path}: image "" or null removes it, an absent image keeps it`, async () => {
        const created = await createLinked(t, c, 'administrator', `Pic ${c.kind}`, { image: 'http://img.test/pic.gif' });
        assert.ok((await update(`${c.path}/${created.id}`, { phone: '5' })).image);
        assert.equal('image' in (await update(`${c.path}/${created.id}`, { image: '' })), false);
        await update(`${c.path}/${created.id}`, { image: created.image.id });
        assert.equal('image' in (await update(`${c.path}/${created.id}`, { image: null })), false);
      });

      test(`${c.path}: author, date and date_utc are replaced when sent`, async () => {
        const created = await createLinked(t, c, 'administrator', `Dated ${c.kind}`);
        const body = await update(`${c.path}/${created.id}`, { author: t.users.editor.id, date_utc: '2024-05-05 05:05:05' });
        assert.deepEqual([body.author, body.date, body.date_utc, body.status], [String(t.users.editor.id), '2024-05-05 05:05:05', '2024-05-05 05:05:05', 'publish']);
        const later = await update(`${c.path}/${created.id}`, { date: '2030-01-01 00:00:00' });
        assert.equal(later.status, 'future', 'a published record dated ahead becomes scheduled');
      });

      test(`${c.path}: the by-slug route updates the same way; an unknown id or slug is 400 even for visitors`, async () => {
        const created = await createLinked(t, c, 'administrator', `Slugged ${c.kind}`);
        const body = await update(`${c.path}/by-slug/SLUGGED-${c.kind}`, { phone: '77', slug: 'ignored' });
        assert.deepEqual([body.id, body.phone, body.slug], [created.id, '77', `slugged-${c.kind}`]);
        const unknownId = await t.request('PUT', `${NS}/${c.path}/999999`, { body: { phone: '1' } });
        assert.equal(unknownId.status, 400);
        assert.deepEqual(Object.keys(unknownId.body.data.params), ['id']);
        const unknownSlug = await t.request('PATCH', `${NS}/${c.path}/by-slug/no-such-thing`, { body: { phone: '1' } });
        assert.equal(unknownSlug.status, 400);
        assert.deepEqual(Object.keys(unknownSlug.body.data.params), ['slug']);
      });

      test(`${c.path}: an id of another kind is unknown`, async () => {
        const other = await createLinked(t, c === VENUES ? ORGANIZERS : VENUES, 'administrator', `Other kind of ${c.kind}`);
        const res = await t.request('PUT', `${NS}/${c.path}/${other.id}`, { as: 'administrator', body: { phone: '1' } });
        assert.equal(res.status, 400);
      });

      test(`${c.path}: status=trash trashes; an update without status keeps it in the trash; a status restores the slug`, async () => {
        const created = await createLinked(t, c, 'administrator', `Bin ${c.kind}`);
        const binned = await update(`${c.path}/${created.id}`, { status: 'trash' });
        assert.deepEqual([binned.status, binned.slug], ['trash', `bin-${c.kind}__trashed`]);
        const stillBinned = await update(`${c.path}/${created.id}`, { phone: '3' });
        assert.deepEqual([stillBinned.status, stillBinned.slug, stillBinned.phone], ['trash', `bin-${c.kind}__trashed`, '3']);
        const restored = await update(`${c.path}/${created.id}`, { status: 'publish' });
        assert.deepEqual([restored.status, restored.slug], ['publish', `bin-${c.kind}`]);
        assert.equal(restored.url, `http://calendar.test/${c.kind}/bin-${c.kind}/`);
      });

      test(`${c.path}: a restored slug taken meanwhile is made unique`, async () => {
        const created = await createLinked(t, c, 'administrator', `Taken ${c.kind}`);
        await t.request('DELETE', `${NS}/${c.path}/${created.id}`, { as: 'administrator' });
        const newcomer = await createLinked(t, c, 'administrator', `Taken ${c.kind}`);
        assert.equal(newcomer.slug, `taken-${c.kind}`);
        const restored = await update(`${c.path}/${created.id}`, { status: 'publish' });
        assert.equal(restored.slug, `taken-${c.kind}-2`);
      });
    }

    test('contributors: own draft stays draft, asking publish gives pending (40 §9)', async () => {
      const draft = await createLinked(t, ORGANIZERS, 'contributor', 'Contrib Org');
      const renamed = await update(`organizers/${draft.id}`, { organizer: 'Contrib Org B' }, 'contributor');
      assert.equal(renamed.status, 'draft');
      const asked = await update(`organizers/${draft.id}`, { status: 'publish' }, 'contributor');
      assert.equal(asked.status, 'pending');
      assert.equal(asked.date_utc, '0000-00-00 00:00:00');
    });

    test('publishing a floating draft dates it now', async () => {
      const draft = await createLinked(t, VENUES, 'contributor', 'Floating Hall', { date: '2020-01-01 00:00:00' });
      assert.equal(draft.date_utc, '0000-00-00 00:00:00');
      const published = await update(`venues/${draft.id}`, { status: 'publish' }, 'editor');
      assert.deepEqual([published.status, published.date, published.date_utc], ['publish', '2025-03-01 09:00:00', '2025-03-01 09:00:00']);
    });

    test('venue flags change only when sent; stateprovince is recomputed only when region fields are sent', async () => {
      const created = await createLinked(t, VENUES, 'administrator', 'Region Hall', { state: 'TX', country: 'US' });
      assert.equal(created.stateprovince, 'TX');
      const city = await update(`venues/${created.id}`, { city: 'Austin' });
      assert.deepEqual([city.stateprovince, city.show_map, city.show_map_link], ['TX', true, true]);
      const flags = await update(`venues/${created.id}`, { show_map: 'false' });
      assert.deepEqual([flags.show_map, flags.show_map_link], [false, true]);
      const province = await update(`venues/${created.id}`, { province: 'Ontario', country: 'Canada' });
      assert.equal(province.stateprovince, 'Ontario');
      const explicit = await update(`venues/${created.id}`, { stateprovince: 'Somewhere' });
      assert.equal(explicit.stateprovince, 'Somewhere');
      const cleared = await update(`venues/${created.id}`, { stateprovince: '' });
      assert.equal('stateprovince' in cleared, false);
    });

    test('update validation is the create validation, reported before permission', async () => {
      const created = await createLinked(t, VENUES, 'administrator', 'Valid Hall');
      const res = await t.request('PATCH', `${NS}/venues/${created.id}`, { body: { website: 'foo', author: 'x' } });
      assert.equal(res.status, 400);
      assert.deepEqual(Object.keys(res.body.data.params).sort(), ['author', 'website']);
      assert.deepEqual((await getLinked(t, VENUES, created.id)).venue, 'Valid Hall');
    });
  });
}
