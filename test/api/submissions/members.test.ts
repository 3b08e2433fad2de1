import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, type TestApp } from '../../helpers/test-app.ts';
import { createSigninUser, form, ORIGIN, postLogin, signIn, startAdminApp, type AdminSession } from '../../admin/helpers.ts';
import { assertUnchanged, snapshotDatabase } from '../../reliability/db-snapshot.ts';
import { encode, FORM_TYPE, formToken, movableClock, validFields } from './helpers.ts';

/** The form's fields as a member sends them: no submitter fields (their account is the submitter). */
function memberFields(overrides: Record<string, string | string[]> = {}): Record<string, string | string[]> {
  const { submitter_name: _name, submitter_email: _email, ...fields } = validFields(overrides);
  return fields;
}

/**
 * 120 §9 and §13 item 7: members list, edit and withdraw their own submissions; another's id,
 * a rejected one and an unknown id are 404 pages; an own published one is read-only; `members`
 * mode sends visitors to sign-in; a member's form posted after sign-out is no silent drop.
 */
for (const dialect of DIALECTS) {
  describe(`members' own submissions [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    const time = movableClock();
    before(async () => {
      t = await startAdminApp(dialect, { clock: time.clock, env: { CALENDAR_SUBMISSIONS: 'members', CALENDAR_SUBMISSIONS_POW: 'off', CALENDAR_SUBMISSIONS_PER_HOUR: '1000' } });
    });
    after(() => t.close());

    const get = (session: AdminSession | null, path: string) => t.request('GET', path, { headers: session ? { cookie: session.cookie } : {} });
    const post = (session: AdminSession, path: string, fields: Record<string, string | string[]>, token: string | null = session.token) =>
      t.request('POST', path, { body: encode({ ...(token === null ? {} : { _token: token }), ...fields }), headers: { ...FORM_TYPE, cookie: session.cookie, origin: ORIGIN } });

    /** Submits through the add form as the member; the new event's id. */
    async function submit(session: AdminSession, overrides: Record<string, string | string[]> = {}, edition = ''): Promise<number> {
      const path = `${edition}/events/community/add/`;
      const page = await get(session, path);
      time.advance(5);
      const answer = await post(session, path, { _form: formToken(page.text), ...memberFields(overrides) });
      assert.equal(answer.status, 303, answer.text);
      const row = await t.storage.db.selectFrom('submissions').select('event_id').orderBy('event_id', 'desc').executeTakeFirstOrThrow();
      return row.event_id;
    }
    const member = async (role: 'subscriber' | 'contributor' | 'editor' = 'subscriber') => {
      const user = await createSigninUser(t, role);
      return { ...(await signIn(t, user)), id: user.id };
    };
    const eventRow = (id: number) => t.storage.db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    test('visitors are sent to sign-in from the form, the list and the edit page, in every edition', async () => {
      for (const edition of ['', '/da', '/it', '/es']) {
        for (const path of ['/events/community/add/', '/events/community/list/', '/events/community/edit/1/']) {
          const answer = await t.request('GET', `${edition}${path}`);
          assert.equal(answer.status, 303, `${edition}${path}`);
          assert.equal(answer.headers.location, `${edition}/admin/login?redirect_to=${encodeURIComponent(edition + path)}`);
        }
      }
    });

    test('the list shows the member\'s own submissions newest first, with Edit and Withdraw while open, in each edition', async () => {
      const ada = await member();
      const other = await member();
      const first = await submit(ada, { title: 'First choir' });
      const second = await submit(ada, { title: 'Second choir' });
      const foreign = await submit(other, { title: 'Not Ada’s' });
      const list = await get(ada, '/events/community/list/');
      assert.equal(list.status, 200);
      assert.equal(list.headers['cache-control'], 'private, no-store');
      assert.ok(list.text.indexOf('Second choir') < list.text.indexOf('First choir'), 'newest first');
      assert.ok(!list.text.includes('Not Ada'), 'only the member\'s own');
      assert.match(list.text, /Status: Awaiting review/);
      for (const id of [first, second]) {
        assert.ok(list.text.includes(`href="/events/community/edit/${id}/"`));
        assert.ok(list.text.includes(`action="/events/community/edit/${id}/"`));
      }
      assert.ok(!list.text.includes(`/edit/${foreign}/`));
      const danish = await get(ada, '/da/events/community/list/');
      assert.equal(danish.status, 200);
      assert.match(danish.text, /<html lang="da"/);
      assert.match(danish.text, /Afventer gennemgang/);
      assert.ok(danish.text.includes(`href="/da/events/community/edit/${first}/"`));
      for (const edition of ['/it', '/es']) assert.equal((await get(ada, `${edition}/events/community/list/`)).status, 200);
    });

    test('the list loads in batches: the same statements for 1 and 20 rows; 20 a page', async () => {
      const one = await member();
      await submit(one, { title: 'Only one' });
      const many = await member();
      const pages: string[] = [];
      for (let i = 0; i < 21; i += 1) pages.push(formToken((await get(many, '/events/community/add/')).text));
      time.advance(5);
      for (const [i, token] of pages.entries()) {
        assert.equal((await post(many, '/events/community/add/', { _form: token, ...memberFields({ title: `Event ${i}` }) })).status, 303);
      }
      const cost = async (session: AdminSession, path: string) => {
        await get(session, path);
        const before = await t.queryCount();
        const answer = await get(session, path);
        assert.equal(answer.status, 200);
        return { statements: (await t.queryCount()) - before, text: answer.text };
      };
      const single = await cost(one, '/events/community/list/');
      const full = await cost(many, '/events/community/list/');
      assert.equal(full.statements, single.statements, 'statements per page do not grow with the rows');
      assert.equal((full.text.match(/class="own-submission"/g) ?? []).length, 20);
      assert.ok(full.text.includes('Event 20') && !full.text.includes('>Event 0<'), 'newest first, 20 a page');
      const second = await get(many, '/events/community/list/?paged=2');
      assert.equal((second.text.match(/class="own-submission"/g) ?? []).length, 1);
      assert.ok(second.text.includes('>Event 0<'));
      assert.equal((await get(many, '/events/community/list/?paged=3')).status, 404);
    });

    test('edit: pre-filled form with _token and no _form, honeypot or widget; save keeps the status and goes back to the list', async () => {
      const ada = await member('editor');
      const id = await submit(ada, { title: 'Choir evening', cost: '5', categories: [], website: 'https://choir.example/?a=1&b=2' });
      const page = await get(ada, `/events/community/edit/${id}/`);
      assert.equal(page.status, 200);
      assert.match(page.text, /name="title"[^>]*value="Choir evening"|value="Choir evening"[^>]*name="title"/);
      assert.ok(page.text.includes(`name="_token" value="${ada.token}"`));
      assert.ok(!page.text.includes('name="_form"'));
      assert.ok(!page.text.includes('url_confirm'));
      assert.ok(!page.text.includes('altcha'));
      assert.match(page.text, /value="2031-05-08"/);
      assert.match(page.text, /value="19:00"/);
      assert.ok(page.text.includes('value="https://choir.example/?a=1&amp;b=2"'), 'the address itself, escaped once in the page');
      const venue = (await eventRow(id)).venue_id;
      assert.ok(page.text.includes(`<option value="${venue}" selected`), 'the submission\'s own pending venue is offered and chosen');
      time.advance(5);
      const stored = (await eventRow(id)).website;
      const saved = await post(ada, `/events/community/edit/${id}/`, { action: 'save', ...memberFields({ title: 'Choir evening (new time)', venue: String(venue), start_time: '18:30', cost: '', website: 'https://choir.example/?a=1&b=2' }) });
      assert.equal(saved.status, 303, saved.text);
      assert.equal(saved.headers.location, '/events/community/list/?message=saved');
      const row = await eventRow(id);
      assert.equal(row.title, 'Choir evening (new time)');
      assert.equal(row.status, 'pending', 'an editor\'s save through this form is still a contributor\'s: not published');
      assert.equal(row.start_local, '2031-05-08 18:30:00');
      assert.equal(row.author, ada.id);
      assert.equal(row.website, stored, 'the pre-filled address saves back unchanged');
      const list = await get(ada, '/events/community/list/?message=saved');
      assert.match(list.text, /Your changes were saved/);
    });

    test('edit: a new organizer named in a save belongs to the submission, so approval publishes it', async () => {
      const ada = await member();
      const id = await submit(ada, { title: 'No organizer yet', organizer: '', 'organizer_new[organizer]': '' });
      const venue = String((await eventRow(id)).venue_id);
      const saved = await post(ada, `/events/community/edit/${id}/`, { action: 'save', ...memberFields({ title: 'No organizer yet', venue, organizer: 'new', 'organizer_new[organizer]': 'Late choir' }) });
      assert.equal(saved.status, 303, saved.text);
      const submission = await t.storage.db.selectFrom('submissions').selectAll().where('event_id', '=', id).executeTakeFirstOrThrow();
      assert.ok(submission.created_organizer_id !== null, 'the new organizer is the submission\'s');
      assert.ok(submission.created_venue_id !== null, 'the venue it created before stays its own');
      const organizer = await t.storage.db.selectFrom('organizers').select(['name', 'status']).where('id', '=', submission.created_organizer_id!).executeTakeFirstOrThrow();
      assert.deepEqual(organizer, { name: 'Late choir', status: 'pending' });
      const editor = await member('editor');
      assert.equal((await form(t, editor, `/events/${id}/moderate`, { decision: 'approve' })).status, 303);
      assert.equal((await t.storage.db.selectFrom('organizers').select('status').where('id', '=', submission.created_organizer_id!).executeTakeFirstOrThrow()).status, 'publish');
    });

    test('edit: a refused save answers 422 in the edition\'s language with the values kept, and writes nothing', async () => {
      const ada = await member();
      const id = await submit(ada, { title: 'Keep me' });
      const before = await snapshotDatabase(t.storage);
      const refused = await post(ada, `/da/events/community/edit/${id}/`, { action: 'save', ...memberFields({ title: '', description: 'Still here' }) });
      assert.equal(refused.status, 422);
      assert.equal(refused.headers['x-calendar-error'], 'rest_invalid_param');
      assert.match(refused.text, /<html lang="da"/);
      assert.match(refused.text, /role="alert"/);
      assert.ok(refused.text.includes('Still here'), 'values kept');
      assert.ok(refused.text.includes('aria-invalid="true"'));
      assertUnchanged(before, await snapshotDatabase(t.storage), 'a refused save');
    });

    test('withdraw: trashed with decision withdrawn, its new venue too; shown as Withdrawn without actions', async () => {
      const ada = await member();
      const id = await submit(ada, { title: 'Changed my mind', 'venue_new[venue]': 'A hall nobody else names' });
      const venue = (await eventRow(id)).venue_id!;
      const answer = await post(ada, `/events/community/edit/${id}/`, { action: 'withdraw' });
      assert.equal(answer.status, 303);
      assert.equal(answer.headers.location, '/events/community/list/?message=withdrawn');
      assert.equal((await eventRow(id)).status, 'trash');
      const submission = await t.storage.db.selectFrom('submissions').selectAll().where('event_id', '=', id).executeTakeFirstOrThrow();
      assert.equal(submission.decision, 'withdrawn');
      assert.equal((await t.storage.db.selectFrom('venues').select('status').where('id', '=', venue).executeTakeFirstOrThrow()).status, 'trash');
      const list = await get(ada, '/events/community/list/');
      assert.match(list.text, /Status: Withdrawn/);
      assert.ok(!list.text.includes(`/edit/${id}/`));
      assert.equal((await get(ada, `/events/community/edit/${id}/`)).status, 404, 'a withdrawn one is no longer editable');
    });

    test('another user\'s, an unknown and a rejected id answer the 404 page and change nothing; an own published one is read-only', async () => {
      const ada = await member();
      const bob = await member();
      const bobs = await submit(bob, { title: 'Bob’s' });
      const before = await snapshotDatabase(t.storage);
      for (const path of [`/events/community/edit/${bobs}/`, '/events/community/edit/999999/', `/da/events/community/edit/${bobs}/`]) {
        const page = await get(ada, path);
        assert.equal(page.status, 404, path);
        assert.match(String(page.headers['content-type']), /text\/html/);
      }
      assert.equal((await post(ada, `/events/community/edit/${bobs}/`, { action: 'withdraw' })).status, 404);
      assert.equal((await post(ada, `/events/community/edit/${bobs}/`, { action: 'save', ...memberFields({ title: 'Taken over' }) })).status, 404);
      assertUnchanged(before, await snapshotDatabase(t.storage), 'posts to another user\'s submission');

      const editor = await member('editor');
      const published = await submit(ada, { title: 'Approved one' });
      const rejected = await submit(ada, { title: 'Rejected one' });
      assert.equal((await form(t, editor, `/events/${published}/moderate`, { decision: 'approve' })).status, 303);
      assert.equal((await form(t, editor, `/events/${rejected}/moderate`, { decision: 'reject', reason: 'Not local' })).status, 303);
      const readOnly = await get(ada, `/events/community/edit/${published}/`);
      assert.equal(readOnly.status, 200);
      assert.ok(!readOnly.text.includes('<form method="post" action="/events/community/edit/'), 'no form');
      assert.match(readOnly.text, /can no longer be changed here/);
      const event = await eventRow(published);
      assert.ok(readOnly.text.includes(`/event/${event.slug}/`), 'links the public page');
      const late = await post(ada, `/events/community/edit/${published}/`, { action: 'save', ...memberFields({ title: 'Sneaky' }) });
      assert.equal(late.status, 409);
      assert.equal((await eventRow(published)).title, 'Approved one');
      assert.equal((await get(ada, `/events/community/edit/${rejected}/`)).status, 404);
      const list = await get(ada, '/events/community/list/');
      assert.match(list.text, /Status: Published/);
      assert.ok(list.text.includes(`href="/event/${event.slug}/"`));
      assert.match(list.text, /Status: Not accepted/);
      assert.match(list.text, /Reason: Not local/);
      assert.equal((await t.request('GET', `${NS}/events/${published}`)).status, 200);
    });

    test('a member\'s form posted after sign-out: 303 to sign-in with expired=1, nothing written', async () => {
      const ada = await member();
      const id = await submit(ada, { title: 'Before sign-out' });
      const add = await get(ada, '/events/community/add/');
      const edit = await get(ada, `/events/community/edit/${id}/`);
      assert.equal(edit.status, 200);
      assert.equal((await form(t, ada, '/logout', {})).status, 303);
      time.advance(5);
      const before = await snapshotDatabase(t.storage);
      const posts = [
        ['/events/community/add/', { _form: formToken(add.text), ...memberFields({ title: 'Lost' }) }],
        [`/events/community/edit/${id}/`, { action: 'save', ...memberFields({ title: 'Lost edit' }) }],
        [`/events/community/edit/${id}/`, { action: 'withdraw' }],
        [`/da/events/community/edit/${id}/`, { action: 'withdraw' }],
      ] as const;
      for (const [path, fields] of posts) {
        const answer = await post(ada, path, fields);
        assert.equal(answer.status, 303, path);
        assert.equal(answer.headers.location, `${path.startsWith('/da') ? '/da' : ''}/admin/login?expired=1&redirect_to=${encodeURIComponent(path)}`);
      }
      assertUnchanged(before, await snapshotDatabase(t.storage), 'forms posted after sign-out');
    });

    test('the sign-in page says the form was not kept, and signing in returns to the community page', async () => {
      const expired = await t.request('GET', `/da/admin/login?expired=1&redirect_to=${encodeURIComponent('/da/events/community/add/')}`);
      assert.equal(expired.status, 200);
      assert.ok(expired.text.includes('Det, du skrev i formularen, blev ikke gemt.'));
      const adminExpired = await t.request('GET', `/admin/login?expired=1&redirect_to=${encodeURIComponent('/admin/events/')}`);
      assert.ok(!adminExpired.text.includes('What you entered in the form was not kept.'), 'only for the community forms');
      const user = await createSigninUser(t, 'subscriber');
      const signedIn = await postLogin(t, { login: user.login, password: user.password, redirect_to: '/events/community/list/' });
      assert.equal(signedIn.status, 303);
      assert.equal(signedIn.headers.location, '/events/community/list/');
      const elsewhere = await postLogin(t, { login: user.login, password: user.password, redirect_to: '/events/' });
      assert.equal(elsewhere.headers.location, '/admin/', 'other public pages stay off the allow-list');
    });

    test('a member\'s post needs the session\'s _token and our origin', async () => {
      const ada = await member();
      const id = await submit(ada, { title: 'Guarded' });
      const before = await snapshotDatabase(t.storage);
      const wrong = await post(ada, `/events/community/edit/${id}/`, { action: 'withdraw' }, 'not-the-token');
      assert.equal(wrong.status, 403);
      assert.equal(wrong.headers['x-calendar-error'], 'admin_token_invalid');
      const foreign = await t.request('POST', `/events/community/edit/${id}/`, { body: encode({ _token: ada.token, action: 'withdraw' }), headers: { ...FORM_TYPE, cookie: ada.cookie, origin: 'https://evil.example' } });
      assert.equal(foreign.status, 403);
      assert.equal(foreign.headers['x-calendar-error'], 'admin_origin_mismatch');
      assertUnchanged(before, await snapshotDatabase(t.storage), 'refused member posts');
    });

    test('§11: a body over 64 KiB answers the 413 page in the edition\'s language', async () => {
      for (const [edition, lang] of [['', 'en'], ['/da', 'da']] as const) {
        const answer = await t.request('POST', `${edition}/events/community/add/`, { body: encode({ title: 'x'.repeat(70 * 1024) }), headers: FORM_TYPE });
        assert.equal(answer.status, 413);
        assert.equal(answer.headers['x-calendar-error'], 'rest_request_too_large');
        assert.match(String(answer.headers['content-type']), /text\/html/);
        assert.match(answer.text, new RegExp(`<html lang="${lang}"`));
        assert.equal(answer.headers['cache-control'], 'private, no-store');
      }
    });
  });
}
