import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { purgeSubmissionData } from '../../../src/services/submissions/retention.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { encode, FORM_TYPE, movableClock, submitForm, validFields } from './helpers.ts';

const ADMIN_NS = '/calendar/admin/v1';
const DAY = 86_400_000;
const RETENTION_DAYS = 10;

// The daily job of 120 §7, §8.3, §6.1 and §10.3, run with a fixed clock: every limit holds to the second.
for (const dialect of DIALECTS) {
  describe(`the daily purge of submission data and mail [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    const time = movableClock();
    before(async () => {
      t = await startTestApp(dialect, {
        clock: time.clock,
        env: {
          CALENDAR_SUBMISSIONS: 'anyone',
          CALENDAR_SUBMISSIONS_POW: 'off',
          CALENDAR_SMTP_URL: 'smtp://127.0.0.1:1',
          CALENDAR_SUBMISSIONS_PER_HOUR: '1000',
          CALENDAR_SUBMISSIONS_RETENTION_DAYS: String(RETENTION_DAYS),
        },
      });
    });
    after(() => t.close());

    const purge = (at: number) => purgeSubmissionData(t.storage, t.config.submissions.retentionDays, new Date(at));
    const submission = (eventId: number) => t.storage.db.selectFrom('submissions').select(['submitter_name', 'submitter_email', 'address_hash', 'email_hash', 'decision', 'reason', 'edition']).where('event_id', '=', eventId).executeTakeFirstOrThrow();
    const latest = async () => (await t.storage.db.selectFrom('submissions').select('event_id').orderBy('event_id', 'desc').executeTakeFirstOrThrow()).event_id;

    test('name, e-mail and hashes are erased RETENTION_DAYS after the decision; undecided submissions keep them', async () => {
      assert.equal((await submitForm(t, time.advance, validFields({ submitter_name: 'Decided Person' }))).status, 303);
      const decided = await latest();
      assert.equal((await submitForm(t, time.advance, validFields({ submitter_name: 'Waiting Person' }))).status, 303);
      const waiting = await latest();
      const rejected = await t.request('POST', `${ADMIN_NS}/events/${decided}/moderation`, { as: 'editor', body: { decision: 'reject', reason: 'Not local' } });
      assert.equal(rejected.status, 200, rejected.text);
      const decidedAt = time.clock().getTime();

      await purge(decidedAt + RETENTION_DAYS * DAY - 1000);
      const kept = await submission(decided);
      assert.equal(kept.submitter_name, 'Decided Person');
      assert.ok(kept.address_hash && kept.email_hash);

      await purge(decidedAt + RETENTION_DAYS * DAY + 1000);
      assert.deepEqual(await submission(decided), { submitter_name: null, submitter_email: null, address_hash: null, email_hash: null, decision: 'rejected', reason: 'Not local', edition: 'en' });
      const undecided = await submission(waiting);
      assert.equal(undecided.submitter_email, 'ada@example.org');
      assert.ok(undecided.address_hash);
    });

    test('spam marks go when expired; attempts after 25 hours (a consumed token stays consumed for its whole life)', async () => {
      await t.storage.db.deleteFrom('submission_attempts').execute();
      const start = time.clock().getTime();
      await t.storage.db.insertInto('submission_spam_marks').values([
        { kind: 'address', hash: 'a'.repeat(64), expires_utc: '2031-06-01 00:00:00' },
        { kind: 'email', hash: 'b'.repeat(64), expires_utc: '2031-06-03 00:00:00' },
      ]).execute();
      // A drop (honeypot) and a stored submission, each an attempt row.
      const form = await t.request('GET', '/events/community/add/');
      time.advance(5);
      const token = /name="_form" value="([^"]+)"/.exec(form.text)![1];
      assert.equal((await t.request('POST', '/events/community/add/', { body: encode({ _form: token, ...validFields({ url_confirm: 'http://spam.example' }) }), headers: FORM_TYPE })).status, 303);
      assert.equal((await submitForm(t, time.advance, validFields())).status, 303);
      const attempts = async () => (await t.storage.db.selectFrom('submission_attempts').select('outcome').orderBy('outcome').execute()).map((row) => row.outcome);
      assert.deepEqual(await attempts(), ['honeypot', 'stored']);

      await purge(start + 25 * 3600_000);
      assert.deepEqual(await attempts(), ['honeypot', 'stored'], 'kept 25 hours');
      await purge(time.clock().getTime() + 25 * 3600_000 + 1000);
      assert.deepEqual(await attempts(), []);

      await purge(Date.parse('2031-06-01T00:00:00Z') - 1000);
      assert.equal((await t.storage.db.selectFrom('submission_spam_marks').select('hash').execute()).length, 2);
      await purge(Date.parse('2031-06-01T00:00:00Z'));
      assert.deepEqual((await t.storage.db.selectFrom('submission_spam_marks').select('kind').execute()).map((row) => row.kind), ['email']);
    });

    test('mail keeping: bodies of sent messages after 7 days, rows after 30; unsent ones keep their body', async () => {
      await t.storage.db.deleteFrom('mail_messages').execute();
      const now = Date.parse('2031-07-01T12:00:00Z');
      const iso = (ms: number) => new Date(ms).toISOString();
      const row = (subject: string, status: 'sent' | 'failed' | 'pending', created: number, finished: number | null) => ({
        kind: 'submission.new', event_id: null, lang: 'en', message_id: `<${subject}@calendar.test>`, recipient: 'editor@example.org', subject, body: '{"frozen":true}',
        status, attempts: 1, next_attempt_utc: iso(created), created_utc: iso(created), finished_utc: finished === null ? null : iso(finished),
      });
      await t.storage.db.insertInto('mail_messages').values([
        row('sent-6-days', 'sent', now - 6 * DAY - 60_000, now - 6 * DAY),
        row('sent-8-days', 'sent', now - 8 * DAY - 60_000, now - 8 * DAY),
        row('failed-8-days', 'failed', now - 8 * DAY - 60_000, now - 8 * DAY),
        row('pending-29-days', 'pending', now - 29 * DAY, null),
        row('sent-31-days', 'sent', now - 31 * DAY, now - 31 * DAY + 60_000),
        row('failed-31-days', 'failed', now - 31 * DAY, now - 31 * DAY + 60_000),
      ]).execute();
      await purge(now);
      const rows = await t.storage.db.selectFrom('mail_messages').select(['subject', 'body']).orderBy('subject').execute();
      assert.deepEqual(rows, [
        { subject: 'failed-8-days', body: '{"frozen":true}' },
        { subject: 'pending-29-days', body: '{"frozen":true}' },
        { subject: 'sent-6-days', body: '{"frozen":true}' },
        { subject: 'sent-8-days', body: null },
      ]);
    });
  });
}
