import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MailOutbox } from '../../../src/services/mail/mail-outbox.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { TestSmtpServer } from '../../helpers/smtp-server.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { movableClock, submitForm, validFields } from '../submissions/helpers.ts';

const RECIPIENTS = ['one@example.org', 'two@example.org', 'three@example.org', 'four@example.org'];

/** Polls until `check` holds (a database state another promise is bringing about). */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// 140 §5 "jobs" for the mail outbox: a stopping process hands back the messages it claimed and did not begin to send.
for (const dialect of DIALECTS) {
  describe(`mail claims released by a stop [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let smtp: TestSmtpServer;
    const time = movableClock();
    before(async () => {
      // The first two messages' DATA answers wait: their sends have begun and stay running.
      smtp = await TestSmtpServer.start({ hold: () => smtp.held.length < 2 });
      t = await startTestApp(dialect, {
        clock: time.clock,
        env: {
          CALENDAR_SUBMISSIONS: 'anyone',
          CALENDAR_SUBMISSIONS_POW: 'off',
          CALENDAR_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
          CALENDAR_SUBMISSIONS_NOTIFY: RECIPIENTS.join(','),
        },
      });
    });
    after(async () => {
      for (const held of smtp.held) held.release();
      await smtp.close();
      await t.close();
    });

    const rows = () => t.storage.db.selectFrom('mail_messages').select(['id', 'recipient', 'status', 'lease_owner', 'lease_until', 'attempts']).orderBy('id').execute();

    test('claimed and waiting for a connection → pending, lease cleared, no attempt; begun sends finish; another instance sends the rest before the lease ends', async () => {
      assert.equal((await submitForm(t, time.advance, validFields())).status, 303);
      const settings = { ...t.config.mail, smtp: t.config.mail.smtp! };
      const stopping = new MailOutbox(t.storage, settings, { onError: (error) => assert.fail(String(error)) });
      assert.equal(await stopping.poll(), 4, 'four claimed');
      await smtp.until(() => smtp.held.length === 2);
      assert.ok((await rows()).every((row) => row.status === 'sending' && row.attempts === 1 && row.lease_owner !== null));
      const begun = new Set(smtp.held.map((held) => held.envelope[0]));

      const stopped = stopping.stop();
      await eventually(async () => (await rows()).filter((row) => row.status === 'pending').length === 2, 'two claims released');
      for (const row of await rows()) {
        if (begun.has(row.recipient)) assert.deepEqual([row.status, row.attempts, row.lease_owner !== null], ['sending', 1, true], row.recipient);
        else assert.deepEqual([row.status, row.attempts, row.lease_owner, row.lease_until], ['pending', 0, null, null], row.recipient);
      }

      // Another instance takes the released ones at once (their 120 s lease is far from over).
      const other = new MailOutbox(t.storage, settings, { onError: (error) => assert.fail(String(error)) });
      assert.equal(await other.poll(), 2);
      await other.idle();
      await other.stop();
      assert.deepEqual(new Set(smtp.received.map((received) => received.envelope[0])), new Set(RECIPIENTS.filter((address) => !begun.has(address))));

      // The begun sends were left to finish: the stop ends once the server answers them.
      for (const held of smtp.held) held.release();
      await stopped;
      assert.deepEqual((await rows()).map((row) => [row.status, row.attempts]), RECIPIENTS.map(() => ['sent', 1]));
    });
  });
}
