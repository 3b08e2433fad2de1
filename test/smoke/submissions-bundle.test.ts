import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { DIALECTS, freshDatabase, skipReason, type FreshDatabase } from '../helpers/databases.ts';
import { TestSmtpServer, type ReceivedMail } from '../helpers/smtp-server.ts';
import { startBundle, type StartedService } from './bundle-process.ts';

/** Every hidden field of the page's forms, as a browser posts them (`_form` among them). */
function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [tag] of html.matchAll(/<input\b[^>]*\btype="hidden"[^>]*>/g)) {
    const name = /\bname="([^"]*)"/.exec(tag)?.[1];
    if (name !== undefined) fields[name] = /\bvalue="([^"]*)"/.exec(tag)?.[1].replaceAll('&amp;', '&') ?? '';
  }
  return fields;
}

/** The first message `smtp` accepted for `address`, waiting for the outbox's next poll. */
async function mailTo(smtp: TestSmtpServer, address: string): Promise<ReceivedMail> {
  const to = (received: ReceivedMail) => received.envelope.includes(address);
  await smtp.until((server) => server.received.some(to), 15_000);
  return smtp.received.find(to)!;
}

/**
 * 120 §13 items 10 and §14: the `npm start` bundle on each database with submissions open to anyone
 * and an SMTP server in this process — the form and the widget's files fetched, the form posted as
 * a browser without scripts posts it, the pending event read through the API with the
 * administrator's application password, the editors' alert received, the submission approved, the
 * approval mail received and the event's public page shown.
 */
for (const dialect of DIALECTS) {
  describe(`submissions in the started bundle [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let database: FreshDatabase;
    let service: StartedService;
    let uploads = '';
    let smtp: TestSmtpServer;

    before(async () => {
      database = await freshDatabase(dialect);
      smtp = await TestSmtpServer.start();
      uploads = mkdtempSync(join(tmpdir(), 'calendar-submissions-smoke-'));
      service = await startBundle(database.url, uploads, {
        CALENDAR_SUBMISSIONS: 'anyone', CALENDAR_SUBMISSIONS_MIN_SECONDS: '1', CALENDAR_SUBMISSIONS_NOTIFY: 'editors@calendar.test',
        CALENDAR_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, CALENDAR_MAIL_FROM: 'Calendar <noreply@calendar.test>', CALENDAR_MAIL_POLL_MS: '100',
      });
    });
    after(async () => {
      await service?.stop();
      await smtp?.close();
      await database?.dispose();
      if (uploads) rmSync(uploads, { recursive: true, force: true });
    });

    test('GET the form, post it without scripts, the event waits pending; the alert, the approval and its mail, the public page', async () => {
      const form = await fetch(`${service.origin}/events/community/add/`);
      assert.equal(form.status, 200);
      const html = await form.text();
      const hidden = hiddenFields(html);
      assert.ok(hidden._form, 'the form carries its token');
      // The widget's files, from our origin, found by the bundle (scripts on would load them).
      for (const path of ['/assets/submit.js', '/assets/altcha/altcha.js', '/assets/altcha/altcha.css', '/assets/altcha/workers/pbkdf2.js', '/assets/altcha/i18n/da.js']) {
        assert.equal((await fetch(`${service.origin}${path}`)).status, 200, path);
      }
      assert.ok(html.includes('src="/assets/submit.js"'));
      await sleep(1100); // the minimum fill time
      const day = `${new Date().getUTCFullYear() + 1}-03-15`;
      const body = new URLSearchParams({
        ...hidden, title: 'Smoke choir evening', description: 'Songs', start_date: day, start_time: '19:00', end_date: day, end_time: '21:00',
        timezone: 'UTC', venue: 'new', 'venue_new[venue]': 'Church hall', organizer: '', submitter_name: 'Ada', submitter_email: 'ada@example.org', url_confirm: '',
      });
      const posted = await fetch(`${service.origin}/events/community/add/`, { method: 'POST', body, redirect: 'manual' });
      assert.equal(posted.status, 303, await posted.text());
      assert.equal(posted.headers.get('location'), '/events/community/thanks/');

      const authorization = `Basic ${Buffer.from(`admin:${service.adminPassword}`).toString('base64')}`;
      const list = await fetch(`${service.origin}/calendar/events/v1/events?status=pending&start_date=${day}`, { headers: { authorization } });
      assert.equal(list.status, 200);
      const events: Array<{ id: number; title: string; status: string; url: string }> = (await list.json()).events;
      assert.deepEqual(events.map((event) => [event.title, event.status]), [['Smoke choir evening', 'pending']]);
      // Not public before review.
      const anonymous = await (await fetch(`${service.origin}/calendar/events/v1/events?start_date=${day}`)).json();
      assert.deepEqual(anonymous.events, []);

      const alert = await mailTo(smtp, 'editors@calendar.test');
      assert.equal(alert.mail.subject, 'New event submitted: Smoke choir evening');
      assert.equal(alert.mail.replyTo?.value[0].address, 'ada@example.org');

      const decided = await fetch(`${service.origin}/calendar/admin/v1/events/${events[0].id}/moderation`, {
        method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify({ decision: 'approve' }),
      });
      assert.equal(decided.status, 200, await decided.clone().text());
      assert.deepEqual(await decided.json(), { id: events[0].id, decision: 'approve', status: 'publish', mail: 'queued' });
      const approval = await mailTo(smtp, 'ada@example.org');
      assert.equal(approval.mail.subject, 'Your event is published: Smoke choir evening');
      const published: { url: string } = await (await fetch(`${service.origin}/calendar/events/v1/events/${events[0].id}`)).json();
      assert.ok(approval.mail.text?.includes(published.url), `the approval mail links the public page ${published.url}: ${approval.mail.text}`);
      const page = await fetch(published.url);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /Smoke choir evening/);
      const venues = await (await fetch(`${service.origin}/calendar/events/v1/venues`)).json();
      assert.deepEqual(venues.venues.map((venue: { venue: string }) => venue.venue), ['Church hall']);
    });
  });
}
