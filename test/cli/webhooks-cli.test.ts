import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openStorage } from '../../src/storage/database.ts';

describe('calendar webhooks (command line)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'calendar-cli-'));
  const databaseUrl = `sqlite:${join(dir, 'cli.db')}`;
  after(() => rmSync(dir, { recursive: true, force: true }));
  const cli = (env: Record<string, string>, ...args: string[]) => spawnSync(process.execPath, ['bin/calendar.js', 'webhooks', ...args], { env: { ...process.env, DATABASE_URL: databaseUrl, ...env }, encoding: 'utf8' });
  const insecure = { CALENDAR_WEBHOOKS_ALLOW_INSECURE: '1' };

  test('add prints the secret once; list shows the subscription without it', () => {
    const added = cli(insecure, 'add', 'http://127.0.0.1:9/hook', '--types', 'event.*,*.delete', '--visibility', 'full', '--description', 'crm');
    assert.equal(added.status, 0, added.stderr);
    const secret = /signing secret: (whsec_\S+)/.exec(added.stdout)?.[1];
    assert.ok(secret);
    const listed = cli({}, 'list');
    assert.equal(listed.status, 0, listed.stderr);
    assert.match(listed.stdout, /^1\tactive\tfull\tevent\.\*,\*\.delete\thttp:\/\/127\.0\.0\.1:9\/hook\tcrm$/m);
    assert.ok(!listed.stdout.includes(secret.slice(6)));
    // --include-objects: the messages carry their records (80 §4.2), and the list says so.
    assert.equal(cli(insecure, 'add', 'http://127.0.0.1:9/objects', '--include-objects').status, 0);
    assert.match(cli({}, 'list').stdout, /^2\tactive\tpublic\+objects\t\*\thttp:\/\/127\.0\.0\.1:9\/objects\t$/m);
    assert.equal(cli({}, 'remove', '2').status, 0);
  });

  test('add refuses private targets and bad patterns outside insecure mode, with the reason', () => {
    const loopback = cli({}, 'add', 'https://127.0.0.1/hook');
    assert.equal(loopback.status, 1);
    assert.match(loopback.stderr, /url points to a private, loopback or link-local address/);
    const plain = cli({}, 'add', 'http://example.org/hook');
    assert.equal(plain.status, 1);
    assert.match(plain.stderr, /url must be an absolute https URL/);
    const types = cli(insecure, 'add', 'http://127.0.0.1:9/x', '--types', 'event.explode');
    assert.equal(types.status, 1);
    assert.match(types.stderr, /types must list patterns/);
  });

  test('disable, ping, deliveries, rotate-secret, redeliver and remove', async () => {
    assert.match(cli({}, 'disable', '1').stdout, /^1\tdisabled\t/);
    assert.match(cli({}, 'enable', '1').stdout, /^1\tactive\t/);
    const ping = cli({}, 'ping', '1');
    assert.equal(ping.status, 0, ping.stderr);
    const [, messageId, webhookId] = /queued message (\d+) \((msg_\S+)\)/.exec(ping.stdout)!;
    assert.match(cli({}, 'deliveries', '1').stdout, new RegExp(`^${messageId}\\t${webhookId}\\tpending\\t0\\tcalendar\\.ping\\t$`, 'm'));
    assert.equal(cli({}, 'deliveries', '1', '--status', 'failed').stdout, '');
    assert.equal(cli({}, 'deliveries', '1', '--status', 'lost').status, 2);
    assert.match(cli({}, 'rotate-secret', '1').stdout, /new signing secret for webhook 1: whsec_/);
    const pending = cli({}, 'redeliver', '1', messageId!);
    assert.equal(pending.status, 1, 'a message still waiting is not queued twice');
    assert.match(pending.stderr, /Only a message that succeeded, failed or was cancelled/);
    assert.equal(cli({}, 'remove', '1').status, 0);
    const storage = await openStorage(databaseUrl);
    try {
      assert.equal((await storage.db.selectFrom('webhook_messages').select('id').execute()).length, 0);
    } finally {
      await storage.close();
    }
    const gone = cli({}, 'ping', '1');
    assert.equal(gone.status, 1);
    assert.match(gone.stderr, /Invalid webhook ID/);
    assert.equal(cli({}, 'frobnicate').status, 2);
  });
});
