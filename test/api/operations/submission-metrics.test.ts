import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { readDatabase } from '../../../src/observability/database-gauges.ts';
import { ServiceMetrics } from '../../../src/observability/metrics.ts';
import { startJobs } from '../../../src/process/jobs.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { TestSmtpServer } from '../../helpers/smtp-server.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { encode, FORM_TYPE, formToken, movableClock, submitForm, validFields } from '../submissions/helpers.ts';

/** `name{label="value"}` of a scrape, by label value (0 for a missing series). */
async function samples(t: TestApp, name: string, label: string): Promise<Record<string, number>> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
  assert.equal(res.statusCode, 200);
  const family = parsePrometheusTextFormat(res.body).find((candidate) => candidate.name === name);
  assert.ok(family, `${name} is exposed`);
  return Object.fromEntries(family.metrics.map((metric) => [metric.labels![label], Number(metric.value)]));
}

async function eventually(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// 140 §4.2: calendar_submissions_total{outcome}, calendar_mail_outbox_messages{state}, calendar_mail_deliveries_total{outcome}.
for (const dialect of DIALECTS) {
  describe(`submission and mail metrics [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let smtp: TestSmtpServer;
    const metrics = new ServiceMetrics();
    const time = movableClock();
    before(async () => {
      smtp = await TestSmtpServer.start({
        refuse: (address) => (address.startsWith('later@') ? 451 : address.startsWith('never@') ? 550 : undefined),
        hold: ({ envelope }) => envelope[0].startsWith('held@'),
      });
      t = await startTestApp(dialect, {
        clock: time.clock,
        metrics,
        env: {
          CALENDAR_METRICS: 'on',
          CALENDAR_SUBMISSIONS: 'anyone',
          CALENDAR_SUBMISSIONS_POW: 'off',
          CALENDAR_SUBMISSIONS_PER_HOUR: '1000',
          CALENDAR_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
          CALENDAR_SUBMISSIONS_NOTIFY: 'ok@example.org,later@example.org,never@example.org,held@example.org',
          CALENDAR_MAIL_POLL_MS: '100',
          CALENDAR_MAIL_RETRY_SCHEDULE: '3600',
        },
      });
    });
    after(async () => {
      for (const held of smtp.held) held.release();
      await smtp.close();
      await t.close();
    });

    test('every stored and dropped submission is counted by outcome; a 422 is not', async () => {
      assert.deepEqual(await samples(t, 'calendar_submissions_total', 'outcome'), { stored: 0, 'bad-token': 0, 'too-fast': 0, expired: 0, reused: 0, honeypot: 0 });
      const post = (body: Record<string, string | string[]>) => t.request('POST', '/events/community/add/', { body: encode(body), headers: FORM_TYPE });
      assert.equal((await submitForm(t, time.advance, validFields())).status, 303);
      assert.equal((await post(validFields())).status, 303, 'no token');
      assert.equal((await submitForm(t, time.advance, validFields(), { wait: 1 })).status, 303, 'too fast');
      assert.equal((await submitForm(t, time.advance, validFields(), { wait: 24 * 3600 + 1 })).status, 303, 'expired');
      assert.equal((await submitForm(t, time.advance, validFields({ url_confirm: 'http://spam.example' }))).status, 303, 'honeypot');
      const token = formToken((await t.request('GET', '/events/community/add/')).text);
      time.advance(5);
      assert.equal((await post({ _form: token, ...validFields({ title: 'Once' }) })).status, 303);
      assert.equal((await post({ _form: token, ...validFields({ title: 'Once' }) })).status, 303, 'reused');
      assert.equal((await submitForm(t, time.advance, validFields({ title: '' }))).status, 422);
      assert.deepEqual(await samples(t, 'calendar_submissions_total', 'outcome'), { stored: 2, 'bad-token': 1, 'too-fast': 1, expired: 1, reused: 1, honeypot: 1 });
    });

    test('the job runner counts SMTP attempts by outcome (sent, temporary, permanent, lease_lost); the outbox gauge equals SQL counts', async () => {
      await t.storage.db.deleteFrom('mail_messages').execute();
      assert.deepEqual(await samples(t, 'calendar_mail_deliveries_total', 'outcome'), { sent: 0, temporary: 0, permanent: 0, lease_lost: 0 });
      assert.equal((await submitForm(t, time.advance, validFields())).status, 303);
      const stopJobs = startJobs({ storage: t.storage, config: t.config, metrics, logError: (error) => assert.fail(String(error)), logInfo: () => {} });
      try {
        const row = (recipient: string) => t.storage.db.selectFrom('mail_messages').select(['status', 'attempts']).where('recipient', '=', recipient).executeTakeFirstOrThrow();
        await eventually(async () => (await row('ok@example.org')).status === 'sent', 'sent');
        await eventually(async () => (await row('never@example.org')).status === 'failed', 'failed at once');
        await eventually(async () => (await row('later@example.org')).attempts === 1 && (await row('later@example.org')).status === 'pending', 'retried later');
        await smtp.until(() => smtp.held.length === 1);
        // Another instance took the held message over (its lease, say, had run out): this one's result is dropped.
        await t.storage.db.updateTable('mail_messages').set({ lease_owner: 'another-instance' }).where('recipient', '=', 'held@example.org').execute();
        smtp.held[0].release();
        await eventually(async () => (await samples(t, 'calendar_mail_deliveries_total', 'outcome')).lease_lost === 1, 'lease lost counted');
        assert.deepEqual(await samples(t, 'calendar_mail_deliveries_total', 'outcome'), { sent: 1, temporary: 1, permanent: 1, lease_lost: 1 });

        metrics.readDatabase(await readDatabase(t.storage, new Date()));
        const counted = await t.storage.db.selectFrom('mail_messages').select(['status', (eb) => eb.fn.countAll<number | string>().as('n')]).groupBy('status').execute();
        const expected = { pending: 0, sending: 0, sent: 0, failed: 0, cancelled: 0, ...Object.fromEntries(counted.map((entry) => [entry.status, Number(entry.n)])) };
        assert.deepEqual(expected, { pending: 1, sending: 1, sent: 1, failed: 1, cancelled: 0 });
        assert.deepEqual(await samples(t, 'calendar_mail_outbox_messages', 'state'), expected);
      } finally {
        await stopJobs();
      }
    });
  });
}
