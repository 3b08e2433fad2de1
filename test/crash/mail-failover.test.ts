import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openStorage, type Storage } from '../../src/storage/database.ts';
import { freshDatabase, skipReason, type FreshDatabase } from '../helpers/databases.ts';
import { TestSmtpServer } from '../helpers/smtp-server.ts';
import { encode, formToken, validFields } from '../api/submissions/helpers.ts';
import { startService, type ServiceProcess } from './service-process.ts';

/**
 * 120 §13 item 8 (§10.3 guarantees): two services on one PostgreSQL database; the one sending a
 * submission's alert is killed with SIGKILL while the SMTP server holds its DATA answer. The other
 * claims the message once the lease has run out and delivers it; the only duplicate the server
 * sees (the held copy, which a real server may well have delivered) carries the same Message-ID.
 */

const LEASE_SECONDS = 10;

describe('mail survives a killed instance [postgres]', { skip: skipReason('postgres') }, () => {
  let database: FreshDatabase;
  let storage: Storage;
  let smtp: TestSmtpServer;
  const services: ServiceProcess[] = [];

  before(async () => {
    database = await freshDatabase('postgres');
    // The first message's DATA answer never comes: its sender is mid-send until it dies.
    smtp = await TestSmtpServer.start({ hold: () => smtp.held.length === 0 });
    const env = {
      DATABASE_URL: database.url,
      CALENDAR_ADMIN_PASSWORD: 'mail-failover-administrator-secret-0123',
      CALENDAR_SUBMISSIONS: 'anyone',
      CALENDAR_SUBMISSIONS_POW: 'off',
      CALENDAR_SUBMISSIONS_MIN_SECONDS: '0',
      CALENDAR_SUBMISSIONS_NOTIFY: 'editor@example.org',
      CALENDAR_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      CALENDAR_MAIL_FROM: 'Calendar <calendar@example.org>',
      CALENDAR_MAIL_POLL_MS: '100',
      CALENDAR_MAIL_TIMEOUT_MS: '5000',
      CALENDAR_MAIL_LEASE_SECONDS: String(LEASE_SECONDS),
    };
    // One after the other: the first start migrates the new database and creates the administrator.
    services.push(await startService(env));
    services.push(await startService(env));
    storage = await openStorage(database.url);
  });
  after(async () => {
    for (const service of services) await service.kill();
    for (const held of smtp?.held ?? []) held.release();
    await smtp?.close();
    await storage?.close();
    await database?.dispose();
  });

  test('the instance mid-send dies; the other delivers after the lease, with the same Message-ID', async () => {
    const [a] = services as [ServiceProcess, ServiceProcess];
    const form = await fetch(`${a.origin}/events/community/add/`);
    assert.equal(form.status, 200);
    const posted = await fetch(`${a.origin}/events/community/add/`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: encode({ _form: formToken(await form.text()), ...validFields({ title: 'Failover concert' }) }),
    });
    assert.equal(posted.status, 303);

    // Whichever instance claimed it is sending it now: the server holds the DATA answer.
    await smtp.until(() => smtp.held.length === 1);
    const claimed = await storage.db.selectFrom('mail_messages').select(['id', 'message_id', 'lease_owner', 'status', 'attempts']).executeTakeFirstOrThrow();
    assert.deepEqual([claimed.status, claimed.attempts], ['sending', 1]);
    const sender = services.find((service) => claimed.lease_owner?.startsWith(`${service.child.pid}-`));
    assert.ok(sender, `the lease names one of the instances: ${claimed.lease_owner}`);
    await sender.kill();

    await smtp.until(() => smtp.received.length >= 1, (LEASE_SECONDS + 30) * 1000);
    let finished = await storage.db.selectFrom('mail_messages').select(['status', 'attempts', 'lease_owner', 'smtp_response']).where('id', '=', claimed.id).executeTakeFirstOrThrow();
    for (let tries = 0; finished.status !== 'sent' && tries < 500; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      finished = await storage.db.selectFrom('mail_messages').select(['status', 'attempts', 'lease_owner', 'smtp_response']).where('id', '=', claimed.id).executeTakeFirstOrThrow();
    }
    assert.equal(finished.status, 'sent');
    assert.equal(finished.attempts, 2, 'claimed again once, after the lease');
    assert.match(finished.smtp_response ?? '', /^250 /);

    const copies = [...smtp.held, ...smtp.received];
    assert.equal(smtp.received.length, 1, 'delivered once by the survivor');
    for (const copy of copies) {
      assert.equal(copy.mail.messageId, claimed.message_id);
      assert.deepEqual(copy.envelope, ['editor@example.org']);
      assert.match(copy.mail.subject ?? '', /Failover concert/);
    }
    // The survivor is still serving.
    const survivor = services.find((service) => service !== sender)!;
    assert.equal((await fetch(`${survivor.origin}/readyz`)).status, 200);
  });
});
