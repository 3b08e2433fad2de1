import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import type { TestApp } from '../../helpers/test-app.ts';
import { clock, createEvent, EVENTS } from '../../api/events/fixtures.ts';
import { adminGet, createSigninUser, form, signIn, startAdminApp, type AdminSession } from '../helpers.ts';
import type { Role } from '../../../src/domain/auth/capabilities.ts';

const NS = '/calendar/events/v1';

/** The Location of a 303, below /admin, as a path with its query. */
function location(res: { status: number; headers: Record<string, unknown> }): URL {
  assert.equal(res.status, 303);
  return new URL(String(res.headers.location), 'http://calendar.test');
}

// 100 §7.2, §7.3, §17.9: the dashboard, the lists and their bulk actions through the back office, both databases.
for (const dialect of DIALECTS) {
  describe(`back office dashboard and lists [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    const sessions = {} as Record<Role, AdminSession>;
    const users = {} as Record<Role, { id: number }>;
    const status = async (id: number) => (await t.storage.db.selectFrom('events').select('status').where('id', '=', id).executeTakeFirst())?.status;

    before(async () => {
      t = await startAdminApp(dialect, { clock });
      for (const role of ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as Role[]) {
        const user = await createSigninUser(t, role);
        users[role] = user;
        sessions[role] = await signIn(t, user);
      }
    });
    after(() => t.close());

    const event = (role: Role, title: string, extra: Record<string, unknown> = {}) =>
      createEvent(t, 'administrator', { title, author: users[role].id, start_date: '2025-04-12 19:30:00', end_date: '2025-04-12 22:00:00', ...extra });

    test('dashboard per role: blocks and navigation', async () => {
      await event('contributor', 'Waiting review', { status: 'pending' });
      const editor = await adminGet(t, sessions.editor, '/');
      assert.equal(editor.status, 200);
      assert.match(editor.text, /<h1[^>]*>Dashboard<\/h1>/);
      for (const id of ['dashboard-counts', 'dashboard-next', 'dashboard-review', 'dashboard-changes']) assert.ok(editor.text.includes(`id="${id}"`), id);
      assert.match(editor.text, /Waiting review/);
      assert.match(editor.text, /name="bulk_action" value="publish"/);
      assert.match(editor.text, /href="\/admin\/events\/"/);
      const subscriber = await adminGet(t, sessions.subscriber, '/');
      assert.equal(subscriber.status, 200);
      assert.ok(!subscriber.text.includes('id="dashboard-review"'));
      assert.ok(!subscriber.text.includes('Waiting review'));
      assert.ok(!/<nav[^>]*aria-label="Back office"[\s\S]*?href="\/admin\/events\/"[\s\S]*?<\/nav>/.test(subscriber.text), 'no Events item for a subscriber');
      assert.equal((await adminGet(t, sessions.subscriber, '/events/')).status, 403);
      assert.equal((await adminGet(t, sessions.subscriber, '/tags/')).status, 403);
      const contributor = await adminGet(t, sessions.contributor, '/');
      assert.match(contributor.text, /Waiting review/);
      assert.ok(!contributor.text.includes('name="bulk_action" value="publish"'), 'no Publish button below the publish right');
    });

    test('event list: tabs with counts and aria-current, sortable start, caption in a labelled region', async () => {
      await event('editor', 'Listed gig');
      const page = await adminGet(t, sessions.editor, '/events/');
      assert.equal(page.status, 200);
      assert.match(page.text, /<a href="\/admin\/events\/\?when=upcoming"[^>]*aria-current="page"[^>]*>Upcoming \(\d+\)<\/a>/);
      assert.match(page.text, /Drafts \(\d+\)/);
      assert.match(page.text, /<th scope="col" aria-sort="ascending"><a href="\/admin\/events\/\?orderby=start&amp;order=desc">/);
      assert.match(page.text, /<div class="table-region" role="region" aria-labelledby="event-list-caption" tabindex="0"><table class="list-table" id="event-list"><caption id="event-list-caption">/);
      assert.match(page.text, /Listed gig/);
      const past = await adminGet(t, sessions.editor, '/events/?when=past');
      assert.match(past.text, /aria-sort="descending"/);
      assert.equal((await adminGet(t, sessions.editor, '/events/?paged=9')).status, 404);
      assert.equal((await adminGet(t, sessions.editor, '/events/?paged=9')).headers['x-calendar-error'], 'admin_not_found');
    });

    test('series collapse and expand through the page', async () => {
      const series = await t.request('POST', EVENTS, { as: 'editor', body: { title: 'Weekly yoga', start_date: '2025-04-07 18:00:00', end_date: '2025-04-07 19:00:00', recurrence: { rrule: 'FREQ=WEEKLY;COUNT=3' } } });
      assert.equal(series.status, 201);
      const page = await adminGet(t, sessions.editor, '/events/?s=yoga');
      assert.equal((page.text.match(/>Weekly yoga</g) ?? []).length, 1);
      assert.match(page.text, new RegExp(`href="/admin/events/\\?s=yoga&amp;series=${series.body.id}">Series · 3 dates</a>`));
      const dates = await adminGet(t, sessions.editor, `/events/?s=yoga&series=${series.body.id}`);
      assert.equal((dates.text.match(/>Weekly yoga</g) ?? []).length, 3);
      const all = await adminGet(t, sessions.editor, '/events/?s=yoga&all_occurrences=1');
      assert.equal((all.text.match(/>Weekly yoga</g) ?? []).length, 3);
    });

    test('bulk publish with mixed rights reports per id; a contributor\'s becomes pending', async () => {
      const own = await event('contributor', 'Contributor draft', { status: 'draft' });
      const others = await event('editor', 'Editor draft', { status: 'draft' });
      const res = await form(t, sessions.contributor, '/events/?status=draft', { bulk_action: 'publish', 'ids[]': [String(own.id), String(others.id)], bulk_apply: '1' });
      const back = location(res);
      assert.equal(back.pathname, '/admin/events/');
      assert.equal(back.searchParams.get('status'), 'draft');
      assert.equal(back.searchParams.get('message'), 'bulk');
      assert.equal(back.searchParams.get('done'), '1');
      assert.match(back.searchParams.get('refused')!, new RegExp(`^${others.id}:[a-z_-]+$`));
      assert.equal(await status(own.id), 'pending');
      assert.equal(await status(others.id), 'draft');
      const shown = await adminGet(t, sessions.contributor, back.pathname.replace('/admin', '') + back.search);
      assert.match(shown.text, /role="status"[^>]*>[\s\S]*1 updated\./);
      assert.match(shown.text, /Not changed: Editor draft — /);
    });

    test('bulk trash: an author cannot trash another\'s event; Undo restores; restore gives the status before the trash', async () => {
      const mine = await event('author', 'Author gig');
      const theirs = await event('editor', 'Not the author\'s');
      const trash = location(await form(t, sessions.author, '/events/', { bulk_action: 'trash', 'ids[]': [String(mine.id), String(theirs.id)] }));
      assert.equal(trash.searchParams.get('done'), '1');
      assert.match(trash.searchParams.get('refused')!, new RegExp(`^${theirs.id}:`));
      assert.equal(trash.searchParams.get('undo'), String(mine.id));
      assert.equal(await status(mine.id), 'trash');
      assert.equal(await status(theirs.id), 'publish');
      const shown = await adminGet(t, sessions.author, trash.pathname.replace('/admin', '') + trash.search);
      assert.match(shown.text, /<input type="hidden" name="bulk_action" value="restore"\/>/);
      assert.match(shown.text, />Undo<\/button>/);
      // Undo: a bulk restore of the trashed ids, back to published (the status before the trash).
      const undo = location(await form(t, sessions.author, '/events/', { bulk_action: 'restore', 'ids[]': String(mine.id) }));
      assert.equal(undo.searchParams.get('done'), '1');
      assert.equal(await status(mine.id), 'publish');
      // A contributor's restore of what was published is scaled back by 40 §9 … and needs the right to it.
      const pendingBefore = await event('contributor', 'Was pending', { status: 'pending' });
      assert.equal((await t.request('DELETE', `${EVENTS}/${pendingBefore.id}`, { as: 'editor' })).status, 200);
      const restored = location(await form(t, sessions.contributor, '/events/?status=trash', { bulk_action: 'restore', 'ids[]': String(pendingBefore.id) }));
      assert.equal(restored.searchParams.get('done'), '1');
      assert.equal(await status(pendingBefore.id), 'pending');
      const draftBefore = await event('editor', 'Was a draft', { status: 'draft' });
      assert.equal((await t.request('DELETE', `${EVENTS}/${draftBefore.id}`, { as: 'editor' })).status, 200);
      location(await form(t, sessions.editor, '/events/?status=trash', { bulk_action: 'restore', 'ids[]': String(draftBefore.id) }));
      assert.equal(await status(draftBefore.id), 'draft');
      const published = await event('editor', 'Published then trashed by contributor view');
      assert.equal((await t.request('DELETE', `${EVENTS}/${published.id}`, { as: 'editor' })).status, 200);
      location(await form(t, sessions.editor, '/events/?status=trash', { bulk_action: 'restore', 'ids[]': String(published.id) }));
      assert.equal(await status(published.id), 'publish');
    });

    test('bulk delete only for trashed ids; nothing selected; unknown action → 422', async () => {
      const live = await event('editor', 'Still live');
      const gone = await event('editor', 'To be deleted');
      assert.equal((await t.request('DELETE', `${EVENTS}/${gone.id}`, { as: 'editor' })).status, 200);
      const res = location(await form(t, sessions.editor, '/events/?status=trash', { bulk_action: 'delete', 'ids[]': [String(live.id), String(gone.id)] }));
      assert.equal(res.searchParams.get('done'), '1');
      assert.equal(res.searchParams.get('refused'), `${live.id}:admin_not_in_trash`);
      assert.equal(await status(gone.id), undefined);
      assert.equal(await status(live.id), 'publish');
      const shown = await adminGet(t, sessions.editor, res.pathname.replace('/admin', '') + res.search);
      // A refused record not on the page shown is named by its id.
      assert.match(shown.text, new RegExp(`Not changed: #${live.id} — not in the Trash`));
      const nothing = location(await form(t, sessions.editor, '/events/?when=past', { bulk_action: 'trash' }));
      assert.equal(nothing.search, '?when=past&message=nothing_selected');
      assert.match((await adminGet(t, sessions.editor, '/events/?message=nothing_selected')).text, /Nothing selected\./);
      const unknown = await form(t, sessions.editor, '/events/', { bulk_action: 'explode', 'ids[]': String(live.id) });
      assert.equal(unknown.status, 422);
      assert.equal(unknown.headers['x-calendar-error'], 'rest_invalid_param');
      assert.equal(await status(live.id), 'publish');
    });

    test('venue list: columns, search, bulk trash and restore; term lists read-only below the right, bulk delete with it', async () => {
      const hall = await t.request('POST', `${NS}/venues`, { as: 'editor', body: { venue: 'Riverside hall', city: 'Odense', country: 'Denmark' } });
      const page = await adminGet(t, sessions.editor, '/venues/?s=riverside');
      assert.equal(page.status, 200);
      assert.match(page.text, /Riverside hall[\s\S]*Odense[\s\S]*Denmark/);
      const trashed = location(await form(t, sessions.editor, '/venues/', { bulk_action: 'trash', 'ids[]': String(hall.body.id) }));
      assert.equal(trashed.searchParams.get('done'), '1');
      assert.match((await adminGet(t, sessions.editor, '/venues/?status=trash')).text, /Riverside hall/);
      location(await form(t, sessions.editor, '/venues/?status=trash', { bulk_action: 'restore', 'ids[]': String(hall.body.id) }));
      assert.equal((await t.storage.db.selectFrom('venues').select('status').where('id', '=', hall.body.id).executeTakeFirst())?.status, 'publish');

      const tag = await t.request('POST', `${NS}/tags`, { as: 'editor', body: { name: 'outdoors' } });
      const readOnly = await adminGet(t, sessions.author, '/tags/');
      assert.equal(readOnly.status, 200);
      assert.match(readOnly.text, /outdoors/);
      assert.ok(!readOnly.text.includes('name="ids[]"'));
      assert.ok(!readOnly.text.includes('href="/admin/tags/new"'));
      assert.match(readOnly.text, /needs a higher role/);
      const refused = location(await form(t, sessions.author, '/tags/', { bulk_action: 'delete', 'ids[]': String(tag.body.id) }));
      assert.match(refused.searchParams.get('refused')!, new RegExp(`^${tag.body.id}:`));
      const editorTags = await adminGet(t, sessions.editor, '/tags/');
      assert.match(editorTags.text, /name="ids\[\]" value="\d+"/);
      const deleted = location(await form(t, sessions.editor, '/tags/', { bulk_action: 'delete', 'ids[]': String(tag.body.id) }));
      assert.equal(deleted.searchParams.get('done'), '1');
      assert.equal(await t.storage.db.selectFrom('terms').select('id').where('id', '=', tag.body.id).executeTakeFirst(), undefined);
      const categories = await adminGet(t, sessions.contributor, '/categories/');
      assert.equal(categories.status, 200);
    });

    test('Danish edition: links and forms keep the prefix', async () => {
      const page = await adminGet(t, { ...sessions.editor, prefix: '/da/admin' }, '/events/');
      assert.equal(page.status, 200);
      assert.match(page.text, /href="\/da\/admin\/events\/\?when=past"/);
      assert.match(page.text, /Kommende \(\d+\)/);
    });
  });
}
