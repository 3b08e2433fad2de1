import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { movableClock, submitForm, validFields } from './helpers.ts';

const ADMIN_NS = '/calendar/admin/v1';

for (const dialect of DIALECTS) {
  describe(`submission moderation [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    const time = movableClock();
    before(async () => {
      t = await startTestApp(dialect, {
        clock: time.clock,
        env: { CALENDAR_SUBMISSIONS: 'anyone', CALENDAR_SUBMISSIONS_POW: 'off', CALENDAR_SMTP_URL: 'smtp://127.0.0.1:1', CALENDAR_SUBMISSIONS_PER_HOUR: '1000' },
      });
    });
    after(() => t.close());

    const submit = async (overrides: Record<string, string> = {}) => {
      assert.equal((await submitForm(t, time.advance, validFields(overrides), { remoteAddress: overrides.address ?? '192.0.2.1' })).status, 303);
      return (await t.storage.db.selectFrom('submissions').selectAll().orderBy('created_utc', 'desc').orderBy('event_id', 'desc').executeTakeFirstOrThrow());
    };
    const moderate = (id: number, body: object, as: 'editor' | 'administrator' | 'contributor' | 'author' = 'editor') =>
      t.request('POST', `${ADMIN_NS}/events/${id}/moderation`, { as, body });

    test('the submitter\'s name and e-mail reach no visitor surface', async () => {
      const submission = await submit({ submitter_email: 'private.person@example.org', submitter_name: 'Private Person' });
      await moderate(submission.event_id, { decision: 'approve' });
      const surfaces = [
        `${NS}/events/${submission.event_id}`,
        `${NS}/events`,
        `${NS}/events.ics`,
        `${NS}/changes?include=object`,
        '/events/list/',
        '/events/list/feed/',
        '/sitemap.xml',
      ];
      for (const url of surfaces) {
        const response = await t.request('GET', url);
        assert.ok(!response.text.includes('private.person@example.org') && !response.text.includes('Private Person'), url);
      }
      const edit = await t.request('GET', `${NS}/changes?include=object`, { as: 'contributor' });
      assert.ok(!edit.text.includes('private.person@example.org'), 'not even for contributors');
    });

    test('approve publishes the event, its new venue and organizer, and queues the approval mail', async () => {
      const submission = await submit();
      assert.equal((await moderate(submission.event_id, { decision: 'approve' }, 'contributor')).status, 403);
      assert.equal((await moderate(submission.event_id, { decision: 'approve' }, 'author')).status, 403);
      const response = await moderate(submission.event_id, { decision: 'approve' });
      assert.equal(response.status, 200);
      assert.deepEqual(response.body, { id: submission.event_id, decision: 'approve', status: 'publish', mail: 'queued' });
      const event = await t.request('GET', `${NS}/events/${submission.event_id}`);
      assert.equal(event.status, 200);
      assert.equal(event.body.venue.status, 'publish');
      assert.equal(event.body.organizer[0].status, 'publish');
      const mail = await t.storage.db.selectFrom('mail_messages').selectAll().where('event_id', '=', submission.event_id).executeTakeFirstOrThrow();
      assert.equal(mail.kind, 'submission.approved');
      assert.equal(mail.recipient, 'ada@example.org');
      assert.equal((await moderate(submission.event_id, { decision: 'reject' })).status, 409);
      assert.equal((await moderate(submission.event_id, { decision: 'approve' })).body.code, 'submission-already-decided');
    });

    test('reject trashes the event and what it created, with the reason in the mail', async () => {
      const submission = await submit({ 'venue_new[venue]': 'Barn far away', 'organizer_new[organizer]': 'Someone else' });
      const response = await moderate(submission.event_id, { decision: 'reject', reason: 'Not in our town' });
      assert.equal(response.status, 200);
      assert.equal(response.body.status, 'trash');
      const venue = await t.storage.db.selectFrom('venues').select('status').where('id', '=', submission.created_venue_id!).executeTakeFirstOrThrow();
      assert.equal(venue.status, 'trash');
      assert.equal(response.body.mail, 'queued', JSON.stringify(response.body));
      const mail = await t.storage.db.selectFrom('mail_messages').selectAll().where('event_id', '=', submission.event_id).executeTakeFirstOrThrow();
      assert.equal(mail.kind, 'submission.rejected');
      assert.ok(mail.body!.includes('Not in our town'));
      const stored = await t.storage.db.selectFrom('submissions').selectAll().where('event_id', '=', submission.event_id).executeTakeFirstOrThrow();
      assert.equal(stored.decision, 'rejected');
      assert.equal(stored.reason, 'Not in our town');
    });

    test('spam deletes everything and flags later submissions by address and by e-mail for 30 days', async () => {
      const submission = await submit({ address: '198.51.100.9', submitter_email: 'spammer@example.org', 'venue_new[venue]': 'Spam hall' });
      const response = await moderate(submission.event_id, { decision: 'spam' });
      assert.equal(response.status, 200);
      assert.equal((await t.request('GET', `${NS}/events/${submission.event_id}`, { as: 'administrator' })).status, 404);
      assert.equal(await t.storage.db.selectFrom('venues').select('id').where('id', '=', submission.created_venue_id!).executeTakeFirst(), undefined);
      assert.equal(await t.storage.db.selectFrom('submissions').select('event_id').where('event_id', '=', submission.event_id).executeTakeFirst(), undefined);
      assert.equal((await submit({ address: '198.51.100.9' })).flags, 'known-spammer', 'by address');
      assert.equal((await submit({ submitter_email: 'SPAMMER@example.org' })).flags, 'known-spammer', 'by e-mail');
      time.advance(31 * 86_400);
      assert.equal((await submit({ address: '198.51.100.9', start_date: '2031-07-08', end_date: '2031-07-08' })).flags, '', 'expired');
    });

    test('an event not submitted: 404 submission-not-found', async () => {
      const created = await t.request('POST', `${NS}/events`, { as: 'administrator', body: { title: 'Plain', start_date: '2031-09-01 10:00:00', end_date: '2031-09-01 11:00:00', status: 'pending' } });
      const response = await moderate(created.body.id, { decision: 'approve' });
      assert.equal(response.status, 404);
      assert.equal(response.body.code, 'submission-not-found');
    });
  });
}
