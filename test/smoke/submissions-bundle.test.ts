import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { DIALECTS, freshDatabase, skipReason, type FreshDatabase } from '../helpers/databases.ts';
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

/**
 * 120 §13: the `npm start` bundle on each database with submissions open to anyone — the form
 * and the widget's files fetched, the form posted as a browser without scripts posts it, then the pending event read through
 * the API with the administrator's application password.
 */
for (const dialect of DIALECTS) {
  describe(`submissions in the started bundle [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let database: FreshDatabase;
    let service: StartedService;
    let uploads = '';

    before(async () => {
      database = await freshDatabase(dialect);
      uploads = mkdtempSync(join(tmpdir(), 'calendar-submissions-smoke-'));
      service = await startBundle(database.url, uploads, { CALENDAR_SUBMISSIONS: 'anyone', CALENDAR_SUBMISSIONS_MIN_SECONDS: '1' });
    });
    after(async () => {
      await service?.stop();
      await database?.dispose();
      if (uploads) rmSync(uploads, { recursive: true, force: true });
    });

    test('GET the form, post it without scripts, the event waits pending in the API', async () => {
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
      const events: Array<{ title: string; status: string }> = (await list.json()).events;
      assert.deepEqual(events.map((event) => [event.title, event.status]), [['Smoke choir evening', 'pending']]);
      // Not public before review.
      const anonymous = await (await fetch(`${service.origin}/calendar/events/v1/events?start_date=${day}`)).json();
      assert.deepEqual(anonymous.events, []);
    });
  });
}
