import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../helpers/cli-process.ts';
import { TestSmtpServer } from '../helpers/smtp-server.ts';

/** The command as an operator runs it, asynchronously: the SMTP server answering it lives in this process. */
const cli = runCli;

// 120 §10.3: `calendar mail test ADDRESS` sends one message directly and prints the server's answer.
// It reads the configuration only (no database), so one run serves both engines.
describe('calendar mail test (command line)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'calendar-mail-cli-'));
  let smtp: TestSmtpServer;
  let env: Record<string, string>;
  before(async () => {
    smtp = await TestSmtpServer.start({ refuse: (address) => (address.startsWith('refused@') ? 550 : undefined) });
    env = { DATABASE_URL: `sqlite:${join(dir, 'unused.db')}`, CALENDAR_SMTP_URL: `smtp://user:s3cret-pass@127.0.0.1:${smtp.port}`, CALENDAR_MAIL_FROM: 'Calendar <calendar@example.org>', CALENDAR_MAIL_TIMEOUT_MS: '5000' };
  });
  after(async () => {
    await smtp.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('accepted: exit 0, the server\'s answer on stdout, one message as configured', async () => {
    const result = await cli(env, 'mail', 'test', 'operator@example.org');
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^250 .+\n$/);
    assert.equal(smtp.received.length, 1);
    const [{ envelope, mail }] = smtp.received;
    assert.deepEqual(envelope, ['operator@example.org']);
    assert.equal(mail.from?.value[0].address, 'calendar@example.org');
    assert.equal(mail.subject, 'Test message from the calendar');
    assert.match(mail.messageId ?? '', /^<[0-9a-f]{32}@example\.org>$/);
    assert.ok(mail.text?.includes('mail settings'));
    assert.equal(mail.headers.get('auto-submitted'), 'auto-generated');
  });

  test('refused, unreachable, or no SMTP configured: exit 1 with one line (never the password); a bad address is usage (2)', async () => {
    const refused = await cli(env, 'mail', 'test', 'refused@example.org');
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /^calendar: .*550.*\n$/);
    const closed = await TestSmtpServer.freePort();
    const unreachable = await cli({ ...env, CALENDAR_SMTP_URL: `smtp://user:s3cret-pass@127.0.0.1:${closed}` }, 'mail', 'test', 'operator@example.org');
    assert.equal(unreachable.status, 1);
    assert.match(unreachable.stderr, /^calendar: .*ECONNREFUSED.*\n$/);
    for (const output of [refused, unreachable]) assert.ok(!(output.stdout + output.stderr).includes('s3cret'));
    const off = await cli({ ...env, CALENDAR_SMTP_URL: '' }, 'mail', 'test', 'operator@example.org');
    assert.equal(off.status, 1);
    assert.equal(off.stderr, 'calendar: Mail is off: CALENDAR_SMTP_URL is not set.\n');
    const bad = await cli(env, 'mail', 'test', 'not an address');
    assert.equal(bad.status, 2);
    assert.equal(smtp.received.length, 1, 'nothing more was accepted');
  });
});
