import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, type TestApp } from '../../helpers/test-app.ts';
import { adminGet, createSigninUser, form, signIn, startAdminApp, type AdminSession } from '../helpers.ts';

/** The value of a form control on a page, by name. */
function fieldValue(html: string, name: string): string | undefined {
  const input = new RegExp(`<input[^>]*name="${name.replace(/[[\]]/g, '\\$&')}"[^>]*value="([^"]*)"`).exec(html);
  if (input) return input[1].replaceAll('&quot;', '"').replaceAll('&amp;', '&');
  const area = new RegExp(`<textarea[^>]*name="${name}"[^>]*>([^<]*)</textarea>`).exec(html);
  return area?.[1];
}

async function rowCount(t: TestApp, table: 'venues' | 'organizers' | 'terms'): Promise<number> {
  const row = await t.storage.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

for (const dialect of DIALECTS) {
  describe(`venue, organizer, category and tag editors (100 §9) [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let editor: AdminSession;
    let other: AdminSession;
    before(async () => {
      t = await startAdminApp(dialect);
      editor = await signIn(t, await createSigninUser(t, 'editor'));
      other = await signIn(t, await createSigninUser(t, 'administrator'));
    });
    after(() => t.close());

    test('a venue is created by form, shown again as stored, and updated', async () => {
      const empty = await adminGet(t, editor, '/venues/new');
      assert.equal(empty.status, 200);
      assert.match(empty.text, /<form method="post" action="\/admin\/venues\/new" novalidate/);
      const created = await form(t, editor, '/venues/new', { venue: 'Town Hall', city: 'Aarhus', country: 'Denmark', website: 'https://example.org/hall', show_map: '1', status: 'draft', action: 'publish' });
      assert.equal(created.status, 303);
      const location = String(created.headers.location);
      const match = /\/admin\/venues\/(\d+)\/\?message=rec_published$/.exec(location);
      assert.ok(match, location);
      const id = Number(match[1]);
      const api = await t.request('GET', `${NS}/venues/${id}`, { as: 'administrator' });
      assert.equal(api.body.venue, 'Town Hall');
      assert.equal(api.body.status, 'publish');
      assert.equal(api.body.show_map, true);
      assert.equal(api.body.show_map_link, false);

      const page = await adminGet(t, editor, location.slice('/admin'.length));
      assert.equal(page.status, 200);
      assert.equal(fieldValue(page.text, 'venue'), 'Town Hall');
      assert.equal(fieldValue(page.text, 'city'), 'Aarhus');
      assert.match(page.text, /Published\./);
      const revision = fieldValue(page.text, 'revision');
      assert.ok(revision);
      const saved = await form(t, editor, `/venues/${id}/`, { revision: revision!, venue: 'Town Hall', city: 'Odense', country: 'Denmark', status: 'publish', action: 'save' });
      assert.equal(saved.status, 303);
      assert.equal((await t.request('GET', `${NS}/venues/${id}`)).body.city, 'Odense');
    });

    test('a refused value answers 422 with the values kept, the summary linking the field, and nothing written', async () => {
      const before = await rowCount(t, 'venues');
      const refused = await form(t, editor, '/venues/new', { venue: 'Bad site', city: 'Ribe', website: 'not a url', action: 'save' });
      assert.equal(refused.status, 422);
      assert.equal(refused.headers['x-calendar-error'], 'rest_invalid_param');
      assert.match(refused.text, /id="error-summary"/);
      assert.match(refused.text, /href="#field-website"/);
      assert.match(refused.text, /id="field-website"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="field-website"/);
      assert.equal(fieldValue(refused.text, 'city'), 'Ribe');
      assert.equal(fieldValue(refused.text, 'website'), 'not a url');
      assert.equal(await rowCount(t, 'venues'), before);
    });

    test('a stale revision answers 409, keeps the entered values and the first save, names the changed field; saving again overwrites', async () => {
      const created = await form(t, editor, '/organizers/new', { organizer: 'Choir', phone: '111', action: 'save' });
      const id = Number(/organizers\/(\d+)\//.exec(String(created.headers.location))![1]);
      const opened = await adminGet(t, editor, `/organizers/${id}/`);
      const revision = fieldValue(opened.text, 'revision')!;
      const otherPage = await adminGet(t, other, `/organizers/${id}/`);
      const first = await form(t, other, `/organizers/${id}/`, { revision: fieldValue(otherPage.text, 'revision')!, organizer: 'Choir', phone: '222', status: 'draft', action: 'save' });
      assert.equal(first.status, 303);
      const stale = await form(t, editor, `/organizers/${id}/`, { revision, organizer: 'Choir', phone: '333', status: 'draft', action: 'save' });
      assert.equal(stale.status, 409);
      assert.equal(stale.headers['x-calendar-error'], 'admin_edit_conflict');
      assert.equal(fieldValue(stale.text, 'phone'), '333');
      assert.match(stale.text, /Changed meanwhile: Phone\./);
      assert.equal((await t.request('GET', `${NS}/organizers/${id}`, { as: 'administrator' })).body.phone, '222');
      const again = await form(t, editor, `/organizers/${id}/`, { revision: fieldValue(stale.text, 'revision')!, organizer: 'Choir', phone: '333', status: 'draft', action: 'save' });
      assert.equal(again.status, 303);
      assert.equal((await t.request('GET', `${NS}/organizers/${id}`, { as: 'administrator' })).body.phone, '333');
    });

    test('an organizer lists its linked events with a link to the filtered event list, and goes to the trash', async () => {
      const created = await form(t, editor, '/organizers/new', { organizer: 'Band', action: 'publish' });
      const id = Number(/organizers\/(\d+)\//.exec(String(created.headers.location))![1]);
      await t.request('POST', `${NS}/events`, { as: 'administrator', body: { title: 'Gig night', start_date: '2030-05-01 20:00:00', end_date: '2030-05-01 22:00:00', organizer: [id], status: 'publish' } });
      const page = await adminGet(t, editor, `/organizers/${id}/`);
      assert.match(page.text, /Gig night/);
      assert.match(page.text, new RegExp(`href="/admin/events/\\?organizer=${id}"`));
      const revision = fieldValue(page.text, 'revision')!;
      const trashed = await form(t, editor, `/organizers/${id}/`, { revision, action: 'trash' });
      assert.equal(trashed.status, 303);
      assert.match(String(trashed.headers.location), /\/admin\/organizers\/\?message=rec_trashed$/);
      assert.equal((await t.request('GET', `${NS}/organizers/${id}`, { as: 'administrator' })).body.status, 'trash');
    });

    test('categories and tags: create with a parent, update, 422 keeps values, delete permanently; Danish edition', async () => {
      const parent = await form(t, editor, '/categories/new', { name: 'Music', action: 'save' });
      assert.equal(parent.status, 303);
      const parentId = Number(/categories\/(\d+)\//.exec(String(parent.headers.location))![1]);
      const child = await form(t, editor, '/categories/new', { name: 'Jazz', parent: String(parentId), description: 'Swing', action: 'save' });
      const childId = Number(/categories\/(\d+)\//.exec(String(child.headers.location))![1]);
      const stored = (await t.request('GET', `${NS}/categories/${childId}`)).body;
      assert.equal(stored.parent, parentId);
      const page = await adminGet(t, editor, `/categories/${childId}/`);
      assert.match(page.text, new RegExp(`<option value="${parentId}" selected`));
      // Emptied fields: the description is cleared, the slug kept (a term needs one).
      const emptied = await form(t, editor, `/categories/${childId}/`, { name: 'Jazz', parent: String(parentId), slug: '', description: '', revision: fieldValue(page.text, 'revision') ?? '', action: 'save' });
      assert.equal(emptied.status, 303);
      const after = (await t.request('GET', `${NS}/categories/${childId}`)).body;
      assert.equal(after.description, '');
      assert.equal(after.slug, stored.slug);
      const before = await rowCount(t, 'terms');
      const refused = await form(t, editor, '/tags/new', { name: '', slug: 'kept-slug', action: 'save' });
      assert.equal(refused.status, 422);
      assert.equal(fieldValue(refused.text, 'slug'), 'kept-slug');
      assert.equal(await rowCount(t, 'terms'), before);
      const tag = await form(t, editor, '/tags/new', { name: 'Outdoor', action: 'save' });
      const tagId = Number(/tags\/(\d+)\//.exec(String(tag.headers.location))![1]);
      const danish = await t.request('GET', `/da/admin/tags/${tagId}/`, { headers: { cookie: editor.cookie } });
      assert.match(danish.text, /Rediger tag/);
      const tagPage = await adminGet(t, editor, `/tags/${tagId}/`);
      const deleted = await form(t, editor, `/tags/${tagId}/`, { revision: fieldValue(tagPage.text, 'revision') ?? '', action: 'delete' });
      assert.equal(deleted.status, 303);
      assert.equal((await adminGet(t, editor, `/tags/${tagId}/`)).status, 404);
    });

    test('a contributor may not open the category editor (403 page) and sees "Submit for review" on a venue', async () => {
      const contributor = await signIn(t, await createSigninUser(t, 'contributor'));
      const refused = await adminGet(t, contributor, '/categories/new');
      assert.equal(refused.status, 403);
      const venue = await adminGet(t, contributor, '/venues/new');
      assert.match(venue.text, /Submit for review/);
      assert.doesNotMatch(venue.text, /<option value="private"/);
      assert.equal((await adminGet(t, editor, '/venues/99999/')).status, 404);
    });
  });
}
