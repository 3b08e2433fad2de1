import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { TestSmtpServer } from '../../helpers/smtp-server.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { MailOutbox } from '../../../src/services/mail/mail-outbox.ts';
import { movableClock, submitForm, validFields } from './helpers.ts';


for (const dialect of DIALECTS) {
  describe(`submission mail [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let port: number;
    let outbox: MailOutbox;
    const time = movableClock();
    before(async () => {
      port = await TestSmtpServer.freePort();
      t = await startTestApp(dialect, {
        clock: time.clock,
        env: {
          CALENDAR_SUBMISSIONS: 'anyone',
          CALENDAR_SUBMISSIONS_POW: 'off',
          CALENDAR_SMTP_URL: `smtp://127.0.0.1:${port}`,
          CALENDAR_SUBMISSIONS_NOTIFY: 'editor@example.org,second@example.org',
          CALENDAR_MAIL_RETRY_SCHEDULE: '0,0,0',
          CALENDAR_MAIL_TIMEOUT_MS: '2000',
        },
      });
      outbox = new MailOutbox(t.storage, { ...t.config.mail, smtp: t.config.mail.smtp! });
    });
    after(async () => {
      await outbox.stop();
      await t.close();
    });

    const statuses = async () => (await t.storage.db.selectFrom('mail_messages').select(['status', 'recipient']).orderBy('id').execute()).map((row) => row.status);
    const round = async () => {
      await outbox.poll();
      await outbox.idle();
    };

    test('the server down at submission: mail waits, then goes out when it answers, in the edition\'s language, with no header injection', async () => {
      const response = await submitForm(t, time.advance, validFields({ title: 'Koncert\r\nBcc: victim@example.org', submitter_name: 'Eve\r\nTo: other@example.org' }), { edition: '/da' });
      assert.equal(response.status, 303);
      assert.deepEqual(await statuses(), ['pending', 'pending']);
      await round();
      assert.deepEqual(await statuses(), ['pending', 'pending'], 'refused connection: retried later');
      const errors = await t.storage.db.selectFrom('mail_messages').select(['last_error', 'attempts']).execute();
      assert.ok(errors.every((row) => row.attempts === 1 && /ECONNREFUSED/.test(row.last_error ?? '')), JSON.stringify(errors));

      const server = await TestSmtpServer.start({}, port);
      const { received } = server;
      try {
        await round();
        assert.deepEqual(await statuses(), ['sent', 'sent']);
        assert.equal(received.length, 2);
        const ids = new Set<string>();
        for (const { envelope, mail } of received) {
          assert.equal(envelope.length, 1, 'the envelope is exactly the To');
          assert.ok(['editor@example.org', 'second@example.org'].includes(envelope[0]));
          assert.equal(mail.subject, 'Ny begivenhed indsendt: Koncert  Bcc: victim@example.org');
          assert.equal(mail.headers.get('content-language'), 'da');
          assert.equal(mail.headers.get('auto-submitted'), 'auto-generated');
          assert.equal(mail.headers.has('bcc'), false);
          assert.deepEqual((mail.to as { value: { address: string }[] }).value.map((to) => to.address), envelope);
          assert.equal(mail.from?.value[0].address, 'noreply@calendar.test');
          assert.equal(mail.replyTo?.value[0].address, 'ada@example.org');
          assert.match(mail.messageId ?? '', /^<[0-9a-f]{32}@calendar\.test>$/);
          ids.add(mail.messageId!);
          assert.ok(mail.text?.includes('Eve  To: other@example.org <ada@example.org>'));
          assert.ok(typeof mail.html === 'string' && mail.html.includes('http://calendar.test/da/admin/events/'));
          assert.ok(!(mail.html as string).includes('<img'));
        }
        assert.equal(ids.size, 2);
        const stored = await t.storage.db.selectFrom('mail_messages').select('message_id').execute();
        assert.deepEqual(new Set(stored.map((row) => row.message_id)), ids, 'the Message-ID fixed at enqueue');
      } finally {
        await server.close();
      }
    });

    test('5xx for the recipient fails at once; 4xx is retried, then fails when the schedule is spent', async () => {
      await t.storage.db.deleteFrom('mail_messages').execute();
      const permanent = await TestSmtpServer.start({ refuse: () => 550 }, port);
      try {
        await submitForm(t, time.advance, validFields());
        await round();
        assert.deepEqual(await statuses(), ['failed', 'failed'], JSON.stringify(await t.storage.db.selectFrom('mail_messages').select(['last_error', 'attempts']).execute()));
      } finally {
        await permanent.close();
      }
      await t.storage.db.deleteFrom('mail_messages').execute();
      const busy = await TestSmtpServer.start({ refuse: () => 451 }, port);
      try {
        await submitForm(t, time.advance, validFields());
        for (let n = 0; n < 3; n++) {
          await round();
          assert.deepEqual(await statuses(), ['pending', 'pending'], `attempt ${n + 1}`);
        }
        await round();
        assert.deepEqual(await statuses(), ['failed', 'failed'], 'after the last wait');
      } finally {
        await busy.close();
      }
    });
  });
}
