import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MediaRepository } from '../../../src/storage/repositories/media-repository.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { ORGANIZERS, VENUES, createLinked, getLinked, manualClock } from './support.ts';

// 20 §2-§4: the venue and organizer objects and their computed fields.
for (const dialect of DIALECTS) {
  describe(`venue and organizer objects [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    const clock = manualClock('2025-03-01T09:00:00Z');
    before(async () => {
      t = await startTestApp(dialect, { clock: clock.clock, env: { CALENDAR_TIMEZONE: 'Europe/Rome' } });
    });
    after(() => t.close());

    test('a full venue has every key in the reference order, dates in site zone and UTC', async () => {
      const media = await new MediaRepository(t.storage.db).registerUrl('http://img.test/hall.png', '2025-01-01 00:00:00');
      const created = await createLinked(t, VENUES, 'administrator', 'Teatro Verdi', {
        description: 'Venue description', image: String(media), address: 'Via Palestro 40', city: 'Pisa', country: 'Italy',
        province: 'PI', state: 'Toscana', zip: '56127', phone: '050 941111', website: 'http://teatro.example',
      });
      const body = await getLinked(t, VENUES, created.id, 'visitor');
      assert.deepEqual(Object.keys(body), [
        'id', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url', 'venue', 'description', 'slug', 'image',
        'address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website', 'stateprovince', 'json_ld',
        'show_map', 'show_map_link', 'global_id', 'global_id_lineage',
      ]);
      assert.equal(body.id, created.id);
      assert.equal(body.author, String(t.users.administrator.id));
      assert.equal(body.status, 'publish');
      assert.equal(body.date, '2025-03-01 10:00:00');
      assert.equal(body.date_utc, '2025-03-01 09:00:00');
      assert.equal(body.modified, '2025-03-01 10:00:00');
      assert.equal(body.modified_utc, '2025-03-01 09:00:00');
      assert.equal(body.url, 'http://calendar.test/venue/teatro-verdi/');
      assert.equal(body.description, '<p>Venue description</p>');
      assert.deepEqual(body.image, { url: 'http://img.test/hall.png', id: media, extension: 'png' });
      assert.equal(body.stateprovince, 'PI');
      assert.equal(body.show_map, true);
      assert.equal(body.show_map_link, true);
      assert.equal(body.global_id, `calendar.test?id=${created.id}`);
      assert.deepEqual(body.global_id_lineage, [`calendar.test?id=${created.id}`]);
      assert.equal('excerpt' in body, false);
      assert.equal('geo_lat' in body, false);
    });

    test('empty keys are omitted, show_map* and global_id* always present', async () => {
      const created = await createLinked(t, VENUES, 'administrator', 'Bare Hall', { zip: '0', show_map: false, show_map_link: 'no' });
      assert.deepEqual(Object.keys(created), [
        'id', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url', 'venue', 'slug',
        'show_map', 'show_map_link', 'global_id', 'global_id_lineage',
      ]);
      assert.equal(created.show_map, false);
      assert.equal(created.show_map_link, false);
      const organizer = await createLinked(t, ORGANIZERS, 'administrator', 'Bare Org');
      assert.deepEqual(Object.keys(organizer), [
        'id', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url', 'organizer', 'slug', 'global_id', 'global_id_lineage',
      ]);
    });

    test('an organizer has its keys and a Person json_ld on single GET', async () => {
      const created = await createLinked(t, ORGANIZERS, 'administrator', 'Acme', {
        description: 'Hosts', phone: '555', website: 'http://acme.example', email: 'a@acme.example',
      });
      const body = await getLinked(t, ORGANIZERS, created.id, 'visitor');
      assert.deepEqual(Object.keys(body), [
        'id', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url', 'organizer', 'description', 'slug',
        'phone', 'website', 'email', 'json_ld', 'global_id', 'global_id_lineage',
      ]);
      assert.equal(body.url, 'http://calendar.test/organizer/acme/');
      assert.deepEqual(body.json_ld, {
        '@type': 'Person', name: 'Acme', description: '<p>Hosts</p>', url: 'http://acme.example', telephone: '555',
        email: 'a@acme.example', sameAs: 'http://acme.example',
      });
      assert.equal('json_ld' in created, false, 'never in create responses');
      const list = await t.request('GET', `${NS}/organizers`);
      assert.equal(list.body.organizers.some((item: any) => 'json_ld' in item), false, 'never in lists');
    });

    test('venue json_ld is a Place with a PostalAddress; the region follows stateprovince, state (US) or province', async () => {
      const us = await createLinked(t, VENUES, 'administrator', 'US Hall', { address: '1 Main St', city: 'Austin', state: 'TX', country: 'United States', zip: '73301', phone: '1', website: 'http://us.example' });
      const usBody = await getLinked(t, VENUES, us.id, 'visitor');
      assert.deepEqual(usBody.json_ld, {
        '@type': 'Place', name: 'US Hall', description: '', url: '',
        address: { '@type': 'PostalAddress', streetAddress: '1 Main St', addressLocality: 'Austin', addressRegion: 'TX', postalCode: '73301', addressCountry: 'United States' },
        telephone: '1', sameAs: 'http://us.example',
      });
      const media = await new MediaRepository(t.storage.db).registerUrl('http://img.test/ca.jpg', '2025-01-01 00:00:00');
      const ca = await createLinked(t, VENUES, 'administrator', 'CA Hall', { province: 'Ontario', country: 'Canada', image: media });
      const caBody = await getLinked(t, VENUES, ca.id, 'visitor');
      assert.deepEqual(caBody.json_ld.address, { '@type': 'PostalAddress', addressRegion: 'Ontario', addressCountry: 'Canada' });
      assert.equal(caBody.json_ld.image, 'http://img.test/ca.jpg');
    });

    test('url: pretty link for published records, plain link otherwise; editions keep their prefix, global_id does not', async () => {
      const draft = await createLinked(t, VENUES, 'contributor', 'Draft Hall');
      assert.equal(draft.url, `http://calendar.test/?post_type=tribe_venue&p=${draft.id}`);
      const org = await createLinked(t, ORGANIZERS, 'contributor', 'Draft Org');
      assert.equal(org.url, `http://calendar.test/?post_type=tribe_organizer&p=${org.id}`);
      const pub = await createLinked(t, VENUES, 'administrator', 'Edition Hall');
      const italian = await t.request('GET', `/it${NS}/venues/${pub.id}`);
      assert.equal(italian.body.url, 'http://calendar.test/it/venue/edition-hall/');
      assert.equal(italian.body.global_id, `calendar.test?id=${pub.id}`);
      const priv = await createLinked(t, VENUES, 'administrator', 'Private Hall', { status: 'private' });
      assert.equal(priv.url, 'http://calendar.test/venue/private-hall/', 'private and readable by its author');
      const seenByContributor = await t.request('GET', `${NS}/venues?status=private`, { as: 'contributor' });
      const item = seenByContributor.body.venues.find((v: any) => v.id === priv.id);
      assert.equal(item.url, `http://calendar.test/?post_type=tribe_venue&p=${priv.id}`, 'private and unreadable');
    });

    test('description renders as paragraphs with line breaks', async () => {
      const created = await createLinked(t, ORGANIZERS, 'administrator', 'Para Org', { description: 'First line\nsecond line\n\nNext block' });
      assert.equal(created.description, '<p>First line<br />\nsecond line</p>\n<p>Next block</p>');
    });

    test('slug: from the name, accents and case removed; renaming keeps it; published clashes get -2, drafts may share', async () => {
      const first = await createLinked(t, VENUES, 'administrator', 'Café  Zürich!');
      assert.equal(first.slug, 'cafe-zurich');
      const clash = await createLinked(t, VENUES, 'administrator', 'Cafe Zurich');
      assert.equal(clash.slug, 'cafe-zurich-2');
      const renamed = await t.request('PUT', `${NS}/venues/${first.id}`, { as: 'administrator', body: { venue: 'Something Else' } });
      assert.equal(renamed.body.slug, 'cafe-zurich');
      const draft = await createLinked(t, VENUES, 'contributor', 'CAFE zurich?');
      assert.equal(draft.slug, 'cafe-zurich', 'a draft may share a slug');
      const published = await t.request('PUT', `${NS}/venues/${draft.id}`, { as: 'administrator', body: { status: 'publish' } });
      assert.equal(published.body.slug, 'cafe-zurich-3', 'made unique when published');
      const symbols = await createLinked(t, ORGANIZERS, 'administrator', '!!!');
      assert.equal(symbols.slug, String(symbols.id), 'a name without letters falls back to the id');
    });

    test('names and descriptions keep HTML for editors, lose unsafe HTML for authors; text fields lose all tags for everyone', async () => {
      const html = '<b>Bold</b><script>alert(1)</script>';
      const byEditor = await createLinked(t, ORGANIZERS, 'editor', `Ed ${html}`, { description: html, phone: '<i>555</i>\n 123', email: 'x%20y@z.example' });
      const editorRow = await t.storage.db.selectFrom('organizers').selectAll().where('id', '=', byEditor.id).executeTakeFirstOrThrow();
      assert.equal(editorRow.name, `Ed ${html}`);
      assert.equal(editorRow.description, html);
      assert.equal(byEditor.phone, '555 123');
      assert.equal(byEditor.email, 'xy@z.example');
      const byAuthor = await createLinked(t, ORGANIZERS, 'author', `Au ${html}`, { description: html });
      const authorRow = await t.storage.db.selectFrom('organizers').selectAll().where('id', '=', byAuthor.id).executeTakeFirstOrThrow();
      assert.equal(authorRow.name, 'Au <b>Bold</b>');
      assert.equal(authorRow.description, '<b>Bold</b>');
    });

    test('an image URL is registered once and reused; a media id links that image', async () => {
      const a = await createLinked(t, VENUES, 'author', 'Img A', { image: 'http://img.test/photo.JPG' });
      const b = await createLinked(t, ORGANIZERS, 'author', 'Img B', { image: 'http://img.test/photo.JPG' });
      assert.equal(a.image.id, b.image.id);
      assert.deepEqual(a.image, { url: 'http://img.test/photo.JPG', id: a.image.id, extension: 'jpg' });
      const c = await createLinked(t, VENUES, 'contributor', 'Img C', { image: a.image.id });
      const row = await t.storage.db.selectFrom('venues').select('image_id').where('id', '=', c.id).executeTakeFirstOrThrow();
      assert.equal(row.image_id, a.image.id);
    });

    test('a scheduled record reads as published once its date has passed', async () => {
      const scheduled = await createLinked(t, VENUES, 'administrator', 'Later Hall', { date_utc: '2025-03-02 09:00:00' });
      assert.equal(scheduled.status, 'future');
      assert.equal(scheduled.url, `http://calendar.test/?post_type=tribe_venue&p=${scheduled.id}`);
      const hidden = await t.request('GET', `${NS}/venues/${scheduled.id}`);
      assert.equal(hidden.status, 403);
      clock.set('2025-03-02T09:00:00Z');
      const body = await getLinked(t, VENUES, scheduled.id, 'visitor');
      assert.equal(body.status, 'publish');
      assert.equal(body.url, 'http://calendar.test/venue/later-hall/');
      const list = await t.request('GET', `${NS}/venues?search=later`);
      assert.deepEqual(list.body.venues.map((v: any) => v.id), [scheduled.id]);
      clock.set('2025-03-01T09:00:00Z');
    });
  });
}
