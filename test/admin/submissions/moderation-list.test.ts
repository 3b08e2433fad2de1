import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, type TestApp } from '../../helpers/test-app.ts';
import { encode, FORM_TYPE, formToken as submitToken, movableClock, submitForm, validFields } from '../../api/submissions/helpers.ts';
import { adminGet, createSigninUser, form, ORIGIN, signIn, startAdminApp, type AdminSession } from '../helpers.ts';

// 120 §8.1: the pending list's submissions, bulk decisions and the dashboard's counts.
for (const dialect of DIALECTS) {
  describe(`back office moderation list [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    const time = movableClock();
    let editor: AdminSession;
    let address = 0;
    before(async () => {
      t = await startAdminApp(dialect, {
        clock: time.clock,
        // Proof of work on: a visitor posting without the widget is stored flagged "unverified".
        env: { CALENDAR_SUBMISSIONS: 'anyone', CALENDAR_SMTP_URL: 'smtp://127.0.0.1:1', CALENDAR_SUBMISSIONS_PER_HOUR: '1000' },
      });
      editor = await signIn(t, await createSigninUser(t, 'editor'));
    });
    after(() => t.close());

    /** A visitor's submission from its own address (or `from`); its submissions row. */
    const submit = async (title: string, overrides: Record<string, string> = {}, from?: string) => {
      const remoteAddress = from ?? `192.0.2.${++address}`;
      assert.equal((await submitForm(t, time.advance, validFields({ title, 'venue_new[venue]': `${title} hall`, 'organizer_new[organizer]': `${title} crew`, ...overrides }), { remoteAddress })).status, 303);
      const row = await t.storage.db.selectFrom('submissions').innerJoin('events', 'events.id', 'submissions.event_id').selectAll('submissions').where('events.title', '=', title).executeTakeFirstOrThrow();
      return { ...row, remoteAddress };
    };
    const eventStatus = async (id: number | null) => (await t.storage.db.selectFrom('events').select('status').where('id', '=', id ?? 0).executeTakeFirst())?.status;
    const linkedStatus = async (table: 'venues' | 'organizers', id: number | null) => (await t.storage.db.selectFrom(table).select('status').where('id', '=', id ?? 0).executeTakeFirst())?.status;
    const mailKinds = async (eventId: number) => (await t.storage.db.selectFrom('mail_messages').select(['kind', 'status']).where('event_id', '=', eventId).execute()).map((row) => `${row.kind}:${row.status}`);
    const pendingList = (session: AdminSession, extra = '&submissions=1') => adminGet(t, session, `/events/?status=pending${extra}`);

    test('submissions=1 keeps submitted events; each row shows submitter, time, edition, flags and a decision form', async () => {
      const visitor = await submit('Choir evening', { submitter_name: 'Ada Submitter', submitter_email: 'ada@example.org' });
      const staff = await t.request('POST', `${NS}/events`, { as: 'contributor', body: { title: 'Staff pending', status: 'pending', start_date: '2031-06-01 10:00:00', end_date: '2031-06-01 11:00:00' } });
      assert.equal(staff.status, 201);
      // A signed-in member's submission: the account is the submitter, no proof of work asked.
      const member = await createSigninUser(t, 'subscriber');
      const session = await signIn(t, member, { lang: '/da' });
      const page = await t.request('GET', '/da/events/community/add/', { headers: { cookie: session.cookie } });
      time.advance(5);
      const { submitter_name: _n, submitter_email: _e, ...fields } = validFields({ title: 'Member picnic' });
      const posted = await t.request('POST', '/da/events/community/add/', {
        body: encode({ _form: submitToken(page.text), _token: session.token, ...fields }),
        headers: { ...FORM_TYPE, cookie: session.cookie, origin: ORIGIN },
      });
      assert.equal(posted.status, 303);
      const memberRow = await t.storage.db.selectFrom('submissions').selectAll().where('member_id', '=', member.id).executeTakeFirstOrThrow();

      const list = await pendingList(editor);
      assert.equal(list.status, 200);
      assert.ok(list.text.includes('Choir evening'), 'visitor');
      assert.ok(list.text.includes('Member picnic'), 'member');
      assert.ok(!list.text.includes('Staff pending'), 'an event not submitted is filtered out');
      assert.ok((await pendingList(editor, '')).text.includes('Staff pending'), 'without the filter it is listed');
      assert.ok(list.text.includes('Submitted by Ada Submitter &lt;ada@example.org>'));
      assert.ok(list.text.includes(`Submitted by ${member.login}`), 'a member is named by login');
      assert.ok(list.text.includes('Edition: English') && list.text.includes('Edition: Danish'));
      assert.match(list.text, /Received <time datetime="2031-05-01T10:00:\d\dZ">May 1, 2031, 10:00 AM UTC<\/time>/);
      assert.equal(list.text.split('Unverified (no proof of work)').length - 1, 1, 'the visitor is flagged, the member is not');
      for (const id of [visitor.event_id, memberRow.event_id]) {
        assert.match(list.text, new RegExp(`<form id="moderate-${id}" method="post" action="/admin/events/${id}/moderate"[^>]*><input type="hidden" name="_token" value="${editor.token}"`));
        assert.match(list.text, new RegExp(`<input id="field-notify-${id}" type="checkbox" name="notify" form="moderate-${id}" value="1" checked`));
        assert.match(list.text, new RegExp(`<textarea id="field-reason-${id}" name="reason" form="moderate-${id}"`));
        assert.match(list.text, new RegExp(`<select id="field-decision-${id}" name="decision" form="moderate-${id}"`));
      }
      for (const action of ['approve', 'reject', 'spam']) assert.ok(list.text.includes(`<option value="${action}">`), action);
      const danish = await adminGet(t, { ...editor, prefix: '/da/admin' }, '/events/?status=pending&submissions=1');
      assert.ok(danish.text.includes('Indsendt af Ada Submitter') && danish.text.includes('Udgave: dansk'));

      // The row's form decides through the moderation route, and the list says so.
      const decided = await form(t, editor, `/events/${visitor.event_id}/moderate`, { decision: 'reject', reason: 'Not local', notify: '1' });
      assert.equal(decided.status, 303);
      const after = await adminGet(t, editor, String(decided.headers.location).replace('/admin', ''));
      assert.ok(after.text.includes('The event was rejected.'));
      assert.ok(!after.text.includes('Choir evening') && after.text.includes('Member picnic'));
    });

    test('authors and contributors get no submitter data, no decisions, and 403 on the decision post', async () => {
      const submission = await submit('Quiet reading', { submitter_email: 'quiet@example.org' });
      for (const role of ['author', 'contributor'] as const) {
        const session = await signIn(t, await createSigninUser(t, role));
        const list = await pendingList(session);
        assert.equal(list.status, 200);
        assert.ok(!list.text.includes('quiet@example.org'), role);
        assert.ok(!list.text.includes('Unverified (no proof of work)'), role);
        assert.ok(!list.text.includes('id="moderate-'), role);
        assert.ok(!list.text.includes('<option value="approve">'), role);
        assert.equal((await form(t, session, `/events/${submission.event_id}/moderate`, { decision: 'approve', notify: '1' })).status, 403, role);
        const bulk = await form(t, session, '/events/?status=pending', { bulk_action: 'approve', 'ids[]': String(submission.event_id), bulk_apply: '1' });
        assert.equal(bulk.status, 303);
        assert.match(String(bulk.headers.location), new RegExp(`message=bulk&done=0&refused=${submission.event_id}%3Arest_forbidden`));
        assert.equal(await eventStatus(submission.event_id), 'pending');
      }
    });

    test('bulk approve, reject and spam decide each id, report per id, and queue mail or not', async () => {
      const approved = await submit('Bulk approved');
      const rejected = await submit('Bulk rejected');
      const spam = await submit('Bulk spam');
      const staff = await t.request('POST', `${NS}/events`, { as: 'editor', body: { title: 'Not submitted', status: 'pending', start_date: '2031-06-02 10:00:00', end_date: '2031-06-02 11:00:00' } });
      const bulk = (action: string, ids: number[]) => form(t, editor, '/events/?status=pending&submissions=1', { bulk_action: action, 'ids[]': ids.map(String), bulk_apply: '1' });

      const approve = await bulk('approve', [approved.event_id, staff.body.id]);
      assert.equal(approve.status, 303);
      assert.match(String(approve.headers.location), new RegExp(`\\?status=pending&submissions=1&message=bulk&done=1&refused=${staff.body.id}%3Asubmission-not-found$`));
      assert.equal(await eventStatus(approved.event_id), 'publish');
      assert.equal(await linkedStatus('venues', approved.created_venue_id), 'publish');
      assert.equal(await linkedStatus('organizers', approved.created_organizer_id), 'publish');
      assert.deepEqual(await mailKinds(approved.event_id), ['submission.approved:pending']);
      const again = await bulk('approve', [approved.event_id]);
      assert.match(String(again.headers.location), new RegExp(`done=0&refused=${approved.event_id}%3Asubmission-already-decided`));

      assert.match(String((await bulk('reject', [rejected.event_id])).headers.location), /done=1$/);
      assert.equal(await eventStatus(rejected.event_id), 'trash');
      assert.equal(await linkedStatus('venues', rejected.created_venue_id), 'trash');
      assert.deepEqual(await mailKinds(rejected.event_id), ['submission.rejected:pending']);

      assert.match(String((await bulk('spam', [spam.event_id])).headers.location), /done=1$/);
      assert.equal(await eventStatus(spam.event_id), undefined);
      assert.equal(await linkedStatus('venues', spam.created_venue_id), undefined);
      assert.deepEqual(await mailKinds(spam.event_id), []);
      // The spammer's next submission is stored, flagged in the list.
      await submit('Spam again', {}, spam.remoteAddress);
      const list = await pendingList(editor);
      assert.ok(list.text.includes('Known spammer'));
      const message = await adminGet(t, editor, String(approve.headers.location).replace('/admin', ''));
      assert.ok(message.text.includes('Not submitted') || message.text.includes(`#${staff.body.id}`));
      assert.ok(message.text.includes('This event was not submitted through the form.'));
    });

    test('dashboard: awaiting review with flagged count, drops of the last 24 hours, failed mail for administrators', async () => {
      const awaiting = await t.storage.db.selectFrom('submissions').innerJoin('events', 'events.id', 'submissions.event_id')
        .select(['submissions.flags']).where('events.status', '=', 'pending').where('submissions.decision', 'is', null).execute();
      const flagged = awaiting.filter((row) => row.flags !== '').length;
      assert.ok(awaiting.length > flagged && flagged > 0, 'the earlier tests left flagged and unflagged submissions');
      // Two honeypot drops and one forged token, then one honeypot older than a day.
      await submitForm(t, time.advance, validFields({ url_confirm: 'x' }), { remoteAddress: '198.51.100.1' });
      await submitForm(t, time.advance, validFields({ url_confirm: 'y' }), { remoteAddress: '198.51.100.1' });
      await t.request('POST', '/events/community/add/', { body: encode({ _form: 'v1.1.forged.mac', ...validFields() }), headers: FORM_TYPE, remoteAddress: '198.51.100.2' });
      await t.storage.db.insertInto('submission_attempts').values({ token_id: null, key_hash: 'old', outcome: 'honeypot', created_utc: '2031-04-29 10:00:00' }).execute();
      const [failing] = await t.storage.db.selectFrom('mail_messages').select('id').limit(1).execute();
      await t.storage.db.updateTable('mail_messages').set({ status: 'failed' }).where('id', '=', failing.id).execute();

      const dashboard = await adminGet(t, editor, '/');
      assert.ok(dashboard.text.includes(`<a href="/admin/events/?status=pending&amp;submissions=1">Submissions awaiting review: ${awaiting.length} (${flagged} flagged)</a>`));
      assert.ok(dashboard.text.includes('Hidden field filled in: 2'));
      assert.ok(dashboard.text.includes('Invalid form token: 1'));
      assert.ok(dashboard.text.includes('Form expired: 0'));
      assert.ok(!dashboard.text.includes('Failed mail'), 'editors see no mail count');
      const admin = await signIn(t, await createSigninUser(t, 'administrator'));
      assert.ok((await adminGet(t, admin, '/')).text.includes('<a href="/admin/mail/?status=failed">Failed mail: 1</a>'));
      const author = await signIn(t, await createSigninUser(t, 'author'));
      const authors = await adminGet(t, author, '/');
      assert.ok(!authors.text.includes('Submissions awaiting review') && !authors.text.includes('Failed mail'));
      const danish = await adminGet(t, { ...admin, prefix: '/da/admin' }, '/');
      assert.ok(danish.text.includes(`Indsendelser der venter på gennemgang: ${awaiting.length} (${flagged} markeret)`));
      assert.ok(danish.text.includes('Mislykkede e-mails: 1'));
    });
  });
}
