import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { ConfigError, loadConfig, WEBHOOK_RETRY_SCHEDULE } from '../../../src/config.ts';
import { parseRetryAfter, retryDelaySeconds } from '../../../src/domain/webhooks/retry.ts';
import { generateSecret, signedHeaders } from '../../../src/domain/webhooks/signing.ts';
import { isTypePattern, matchesTypes, urlProblem } from '../../../src/domain/webhooks/subscription-rules.ts';
import { SecretBox } from '../../../src/services/webhooks/secret-box.ts';

describe('webhook rules', () => {
  test('signatures verify with the standardwebhooks package, and with either secret during a rotation', () => {
    const [current, previous] = [generateSecret(), generateSecret()];
    const body = JSON.stringify({ type: 'calendar.ping', data: { é: '✓' } });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = signedHeaders([current, previous], 'msg_abc', timestamp, body);
    assert.equal(headers['webhook-id'], 'msg_abc');
    assert.equal(headers['webhook-timestamp'], String(timestamp));
    assert.equal(headers['webhook-signature'].split(' ')[0], new Webhook(current).sign('msg_abc', new Date(timestamp * 1000), body));
    for (const secret of [current, previous]) new Webhook(secret).verify(body, headers);
    assert.throws(() => new Webhook(generateSecret()).verify(body, headers));
    assert.throws(() => new Webhook(current).verify(`${body} `, headers));
  });

  test('the retry schedule: the planned wait ±20 %, Retry-After when longer, 24 h at most, null after the last', () => {
    for (let attempt = 1; attempt <= WEBHOOK_RETRY_SCHEDULE.length; attempt++) {
      const planned = WEBHOOK_RETRY_SCHEDULE[attempt - 1]!;
      const shortest = retryDelaySeconds(WEBHOOK_RETRY_SCHEDULE, attempt, null, () => 0)!;
      const longest = retryDelaySeconds(WEBHOOK_RETRY_SCHEDULE, attempt, null, () => 1)!;
      assert.ok(Math.abs(shortest - planned * 0.8) < 1e-6, `attempt ${attempt}: ${shortest}`);
      assert.ok(Math.abs(longest - Math.min(86_400, planned * 1.2)) < 1e-6, `attempt ${attempt}: ${longest}`);
    }
    assert.equal(retryDelaySeconds(WEBHOOK_RETRY_SCHEDULE, 9, null), null, 'nine attempts in all');
    assert.equal(retryDelaySeconds(WEBHOOK_RETRY_SCHEDULE, 1, 600, () => 0.5), 600);
    assert.equal(retryDelaySeconds(WEBHOOK_RETRY_SCHEDULE, 1, 10 * 86_400, () => 0.5), 86_400);
    const now = new Date('2025-04-12T10:00:00Z');
    assert.equal(parseRetryAfter('120', now), 120);
    assert.equal(parseRetryAfter('Sat, 12 Apr 2025 10:05:00 GMT', now), 300);
    assert.equal(parseRetryAfter('soon', now), null);
    assert.equal(parseRetryAfter(undefined, now), null);
  });

  test('type patterns', () => {
    for (const pattern of ['*', 'event.*', '*.delete', 'tag.create', '*.*']) assert.ok(isTypePattern(pattern), pattern);
    for (const pattern of ['', 'event', 'event.', 'event.move', 'meeting.*', 'event.create.x']) assert.ok(!isTypePattern(pattern), pattern);
    assert.ok(matchesTypes(['venue.*', '*.delete'], 'event', 'delete'));
    assert.ok(matchesTypes(['venue.*'], 'venue', 'trash'));
    assert.ok(!matchesTypes(['venue.*', 'event.create'], 'event', 'update'));
  });

  test('receiver URL form', () => {
    assert.equal(urlProblem('https://hooks.example.org/in', false), null);
    assert.equal(urlProblem('http://hooks.example.org/in', false), 'scheme');
    assert.equal(urlProblem('http://hooks.example.org/in', true), null);
    assert.equal(urlProblem('https://u:p@hooks.example.org/in', true), 'userinfo');
    assert.equal(urlProblem('/relative', true), 'not-absolute');
    assert.equal(urlProblem(`https://x.org/${'a'.repeat(2048)}`, true), 'too-long');
  });

  test('secrets at rest: sealed with the key, opened back, tampering detected; no key = as generated', () => {
    const box = new SecretBox(Buffer.alloc(32, 9));
    const secret = generateSecret();
    const sealed = box.seal(secret);
    assert.ok(sealed.startsWith('aesgcm:') && !sealed.includes(secret.slice(6)));
    assert.equal(box.open(sealed), secret);
    const raw = Buffer.from(sealed.slice(7), 'base64');
    raw[raw.length - 1] ^= 1;
    assert.throws(() => box.open(`aesgcm:${raw.toString('base64')}`));
    assert.throws(() => new SecretBox(null).open(sealed), /CALENDAR_SECRET_KEY/);
    assert.equal(new SecretBox(null).seal(secret), secret);
  });

  test('configuration of webhooks', () => {
    const config = loadConfig({ CALENDAR_WEBHOOKS_ALLOW_INSECURE: 'true', CALENDAR_WEBHOOKS_RETRY_SCHEDULE: '1, 2,3', CALENDAR_SECRET_KEY: Buffer.alloc(32).toString('base64') });
    assert.equal(config.webhooks.allowInsecure, true);
    assert.deepEqual(config.webhooks.retrySchedule, [1, 2, 3]);
    assert.equal(config.webhooks.secretKey?.length, 32);
    assert.deepEqual([loadConfig({}).webhooks.max, loadConfig({}).webhooks.leaseSeconds, loadConfig({}).webhooks.timeoutMs], [50, 60, 10_000]);
    for (const env of [{ CALENDAR_SECRET_KEY: 'c2hvcnQ=' }, { CALENDAR_WEBHOOKS_RETRY_SCHEDULE: '10,x' }, { CALENDAR_WEBHOOKS_RETRY_SCHEDULE: '-1' }, { CALENDAR_WEBHOOKS_LEASE_SECONDS: '0' }]) {
      assert.throws(() => loadConfig(env), ConfigError, JSON.stringify(env));
    }
  });
});
