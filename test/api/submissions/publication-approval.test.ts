import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, type TestApp } from '../../helpers/test-app.ts';
import { adminGet, createSigninUser, form, signIn, startAdminApp, type AdminSession } from '../../admin/helpers.ts';
import { fields, formState } from '../../admin/editor/form-state.ts';
import { movableClock, submitForm, validFields } from './helpers.ts';

const ADMIN_NS = '/calendar/admin/v1';

// 120 §8.2 last row: publishing a submitted event by any route other than the moderation one
// counts as its approval — once.
for (const dialect of DIALECTS) {
  describe(`publication of a submission counts as approval [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let editor: AdminSession;
    let editorId: number;
    const time = movableClock();
    before(async () => {
      t = await startAdminApp(dialect, {
        clock: time.clock,
        env: { CALENDAR_SUBMISSIONS: 'anyone', CALENDAR_SUBMISSIONS_POW: 'off', CALENDAR_SMTP_URL: 'smtp://127.0.0.1:1', CALENDAR_SUBMISSIONS_PER_HOUR: '1000' },
      });
      const user = await createSigninUser(t, 'editor');
      editorId = user.id;
      editor = await signIn(t, user);
    });
    after(() => t.close());

    let count = 0;
    /** A stored submission with a new venue and organizer of its own. */
    const submit = async () => {
      count += 1;
      const sent = validFields({ title: `Submitted ${count}`, 'venue_new[venue]': `Hall ${count}`, 'organizer_new[organizer]': `Choir ${count}`, submitter_email: `sub${count}@example.org` });
      assert.equal((await submitForm(t, time.advance, sent)).status, 303);
      return t.storage.db.selectFrom('submissions').selectAll().orderBy('created_utc', 'desc').orderBy('event_id', 'desc').executeTakeFirstOrThrow();
    };
    const submission = (id: number) => t.storage.db.selectFrom('submissions').selectAll().where('event_id', '=', id).executeTakeFirstOrThrow();
    const approvalMails = async (id: number) => (await t.storage.db.selectFrom('mail_messages').selectAll().where('event_id', '=', id).where('kind', '=', 'submission.approved').execute());
    const statusOf = async (table: 'venues' | 'organizers', id: number | null) => (await t.storage.db.selectFrom(table).select('status').where('id', '=', id!).executeTakeFirstOrThrow()).status;

    /** The effects of an approval by `by`: venue and organizer public, decided, one mail to the submitter. */
    const assertApproved = async (id: number, by: number) => {
      const row = await submission(id);
      assert.equal(row.decision, 'approved');
      assert.equal(row.decided_by, by);
      assert.ok(row.decided_utc, 'decided_utc set');
      assert.equal(await statusOf('venues', row.created_venue_id), 'publish');
      assert.equal(await statusOf('organizers', row.created_organizer_id), 'publish');
      const mails = await approvalMails(id);
      assert.equal(mails.length, 1);
      assert.equal(mails[0].recipient, row.submitter_email);
    };

    test('REST update status=publish approves once; publishing again or updating after queues no second mail', async () => {
      const { event_id: id, created_venue_id: venueId } = await submit();
      // Read (and so cached) before the publication: no cache may keep the venue pending after it.
      assert.ok(!(await t.request('GET', `${NS}/venues`)).body.venues.some((venue: { id: number }) => venue.id === venueId));
      assert.equal((await t.request('GET', `${NS}/events/${id}`, { as: 'editor' })).body.venue.status, 'pending');
      const published = await t.request('POST', `${NS}/events/${id}`, { as: 'editor', body: { status: 'publish' } });
      assert.equal(published.status, 200);
      assert.equal(published.body.status, 'publish');
      assert.equal(published.body.venue.status, 'publish', 'the answer shows the venue as the approval left it');
      assert.equal(published.body.organizer[0].status, 'publish');
      await assertApproved(id, t.users.editor.id);
      assert.ok((await t.request('GET', `${NS}/venues`)).body.venues.some((venue: { id: number }) => venue.id === venueId), 'the venue is public');
      assert.equal((await t.request('GET', `${NS}/events/${id}`, { as: 'editor' })).body.venue.status, 'publish');
      assert.equal((await t.request('PATCH', `${NS}/events/${id}`, { as: 'editor', body: { title: 'Renamed' } })).status, 200);
      assert.equal((await t.request('PUT', `${NS}/events/${id}`, { as: 'editor', body: { status: 'draft' } })).body.status, 'draft');
      assert.equal((await t.request('PUT', `${NS}/events/${id}`, { as: 'administrator', body: { status: 'publish' } })).body.status, 'publish');
      await assertApproved(id, t.users.editor.id);
      const moderated = await t.request('POST', `${ADMIN_NS}/events/${id}/moderation`, { as: 'editor', body: { decision: 'approve' } });
      assert.equal(moderated.status, 409);
      assert.equal(moderated.body.code, 'submission-already-decided');
    });

    test('concurrent publications approve once', async () => {
      const { event_id: id } = await submit();
      const answers = await Promise.all(['editor', 'administrator', 'editor'].map((as) => t.request('PATCH', `${NS}/events/${id}`, { as: as as 'editor', body: { status: 'publish' } })));
      assert.deepEqual(answers.map((answer) => answer.status), [200, 200, 200]);
      assert.equal((await approvalMails(id)).length, 1);
      assert.equal((await submission(id)).decision, 'approved');
    });

    test('a publication scheduled for later is the approval too; other updates decide nothing', async () => {
      const { event_id: id } = await submit();
      assert.equal((await t.request('PATCH', `${NS}/events/${id}`, { as: 'editor', body: { title: 'Still pending' } })).body.status, 'pending');
      assert.equal((await t.request('PATCH', `${NS}/events/${id}`, { as: 'editor', body: { status: 'private' } })).body.status, 'private');
      assert.equal((await submission(id)).decision, null);
      assert.equal((await approvalMails(id)).length, 0);
      const scheduled = await t.request('PATCH', `${NS}/events/${id}`, { as: 'administrator', body: { status: 'publish', date: '2031-05-06 09:00:00' } });
      assert.equal(scheduled.body.status, 'future');
      await assertApproved(id, t.users.administrator.id);
    });

    test('a contributor asking for publish gets pending: no approval', async () => {
      const { event_id: id } = await submit();
      await t.storage.db.updateTable('events').set({ author: t.users.contributor.id }).where('id', '=', id).execute();
      assert.equal((await t.request('POST', `${NS}/events/${id}`, { as: 'contributor', body: { status: 'publish' } })).body.status, 'pending');
      assert.equal((await submission(id)).decision, null);
      assert.equal((await approvalMails(id)).length, 0);
    });

    test('a rejected submission published later stays rejected, with no approval mail', async () => {
      const { event_id: id } = await submit();
      assert.equal((await t.request('POST', `${ADMIN_NS}/events/${id}/moderation`, { as: 'editor', body: { decision: 'reject', notify: false } })).status, 200);
      assert.equal((await t.request('POST', `${NS}/events/${id}`, { as: 'editor', body: { status: 'publish' } })).body.status, 'publish');
      assert.equal((await submission(id)).decision, 'rejected');
      assert.equal((await approvalMails(id)).length, 0);
    });

    test('the back office editor\'s Publish approves', async () => {
      const { event_id: id } = await submit();
      const shown = await adminGet(t, editor, `/events/${id}/`);
      assert.equal(shown.status, 200);
      const saved = await form(t, editor, `/events/${id}/`, { ...fields(formState(shown.text)), action: ['publish'] });
      assert.equal(saved.status, 303, saved.text);
      await assertApproved(id, editorId);
      assert.equal((await t.request('GET', `${NS}/events/${id}`)).status, 200);
    });

    test('a CSV import whose row publishes the event approves it', async () => {
      const { event_id: id } = await submit();
      const csv = (await t.request('GET', `${ADMIN_NS}/exports/events.csv`, { as: 'administrator' })).text;
      const [header, ...rows] = csv.split(/\r?\n/);
      const row = rows.find((line) => line.includes(`Submitted ${count}`))!;
      assert.match(row, /,pending,/);
      const report = await t.request('POST', `${ADMIN_NS}/imports?kind=events`, { as: 'administrator', body: `${header}\r\n${row.replace(',pending,', ',publish,')}\r\n`, headers: { 'content-type': 'text/csv' } });
      assert.equal(report.status, 200, report.text);
      assert.deepEqual(report.body.totals, { created: 0, updated: 1, unchanged: 0, skipped: 0 }, JSON.stringify(report.body.items));
      await assertApproved(id, t.users.administrator.id);
    });

    test('bulk publish approves each submission once', async () => {
      const first = await submit();
      const second = await submit();
      const res = await form(t, editor, '/events/?status=pending', { bulk_action: 'publish', 'ids[]': [String(first.event_id), String(second.event_id)], bulk_apply: '1' });
      assert.equal(res.status, 303);
      assert.equal(new URL(String(res.headers.location), 'http://calendar.test').searchParams.get('done'), '2');
      await assertApproved(first.event_id, editorId);
      await assertApproved(second.event_id, editorId);
      await form(t, editor, '/events/?status=publish', { bulk_action: 'publish', 'ids[]': [String(first.event_id)], bulk_apply: '1' });
      assert.equal((await approvalMails(first.event_id)).length, 1);
    });
  });
}
