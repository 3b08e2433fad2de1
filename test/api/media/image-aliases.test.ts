import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { jpeg } from '../../helpers/images.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';

for (const dialect of DIALECTS) {
  describe(`featured_media / featured_image as image, and the item's alt text on pages [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let directory: string;
    let imageId = 0;
    let otherId = 0;

    before(async () => {
      directory = mkdtempSync(join(tmpdir(), 'calendar-aliases-'));
      t = await startTestApp(dialect, { env: { CALENDAR_UPLOADS_DIR: directory } });
      const upload = async (name: string, alt: string) => {
        const response = await t.app.inject({
          method: 'POST',
          url: `/calendar/admin/v1/media?alt_text=${encodeURIComponent(alt)}`,
          headers: { authorization: t.authHeader(t.users.editor), 'content-type': 'image/jpeg', 'content-disposition': `attachment; filename="${name}"` },
          payload: await jpeg(600, 400),
        });
        assert.equal(response.statusCode, 201, response.body);
        return JSON.parse(response.body).id as number;
      };
      imageId = await upload('poster.jpg', 'Crowd at the harbour stage');
      otherId = await upload('other.jpg', '');
    });
    after(async () => {
      await t?.close();
      rmSync(directory, { recursive: true, force: true });
    });

    const event = { title: 'Alias Night', status: 'publish', start_date: '2030-05-01 19:00:00', end_date: '2030-05-01 21:00:00' };

    test('featured_media sets an event\'s image, 0 removes it; image wins when both are sent', async () => {
      const created = await t.request('POST', `${NS}/events`, { as: 'editor', body: { ...event, featured_media: imageId } });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.image.id, imageId);
      const both = await t.request('POST', `${NS}/events/${created.body.id}`, { as: 'editor', body: { image: otherId, featured_media: imageId } });
      assert.equal(both.body.image.id, otherId);
      const removed = await t.request('POST', `${NS}/events/${created.body.id}`, { as: 'editor', body: { featured_media: 0 } });
      assert.equal(removed.body.image, false);
    });

    test('featured_image (digits) sets a venue\'s and an organizer\'s image', async () => {
      const venue = await t.request('POST', `${NS}/venues`, { as: 'editor', body: { venue: 'Alias Hall', featured_image: String(imageId) } });
      assert.equal(venue.status, 201, venue.text);
      assert.equal(venue.body.image.id, imageId);
      const organizer = await t.request('POST', `${NS}/organizers`, { as: 'editor', body: { organizer: 'Alias Crew', featured_media: imageId } });
      assert.equal(organizer.body.image.id, imageId);
    });

    test('an alias naming no image, or not an id, is refused', async () => {
      for (const body of [{ ...event, featured_media: 987654 }, { ...event, featured_image: 'https://example.org/x.jpg' }]) {
        const refused = await t.request('POST', `${NS}/events`, { as: 'editor', body });
        assert.equal(refused.status, 400, refused.text);
        assert.equal(refused.body.code, 'rest_invalid_param');
      }
      const venue = await t.request('POST', `${NS}/venues`, { as: 'editor', body: { venue: 'Alias Nowhere', featured_media: 987654 } });
      assert.equal(venue.status, 400, venue.text);
    });

    test('single pages give the <img> the item\'s alt_text, else the record\'s title', async () => {
      const withAlt = await t.request('POST', `${NS}/events`, { as: 'editor', body: { ...event, title: 'Alt Night', image: imageId } });
      const withoutAlt = await t.request('POST', `${NS}/events`, { as: 'editor', body: { ...event, title: 'Plain Night', image: otherId } });
      const venue = await t.request('POST', `${NS}/venues`, { as: 'editor', body: { venue: 'Alt Hall', status: 'publish', image: imageId } });
      const page = async (url: string) => (await t.app.inject({ method: 'GET', url: new URL(url).pathname })).body;
      assert.match(await page(withAlt.body.url), /<img [^>]*alt="Crowd at the harbour stage"/);
      assert.match(await page(withoutAlt.body.url), /<img [^>]*alt="Plain Night"/);
      assert.match(await page(venue.body.url), /<img [^>]*alt="Crowd at the harbour stage"/);
    });
  });
}
