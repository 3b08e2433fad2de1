import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, type TestApp } from '../../helpers/test-app.ts';
import { adminGet, createSigninUser, form, signIn, startAdminApp } from '../helpers.ts';
import { movableClock, submitForm, validFields } from '../../api/submissions/helpers.ts';

for (const dialect of DIALECTS) {
  describe(`back office moderation pages [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    const time = movableClock();
    before(async () => {
      t = await startAdminApp(dialect, { clock: time.clock, env: { CALENDAR_SUBMISSIONS: 'anyone', CALENDAR_SUBMISSIONS_POW: 'off', CALENDAR_SMTP_URL: 'smtp://127.0.0.1:1' } });
    });
    after(() => t.close());

    test('an editor approves through the form; a contributor is refused; administrators see the mail', async () => {
      assert.equal((await submitForm(t, time.advance, validFields())).status, 303);
      const { event_id: id } = await t.storage.db.selectFrom('submissions').select('event_id').executeTakeFirstOrThrow();
      const contributor = await signIn(t, await createSigninUser(t, 'contributor'));
      assert.equal((await adminGet(t, contributor, `/events/${id}/moderate`)).status, 403);
      const editor = await signIn(t, await createSigninUser(t, 'editor'));
      const page = await adminGet(t, editor, `/events/${id}/moderate`);
      assert.equal(page.status, 200);
      assert.ok(page.text.includes('ada@example.org'), 'editors see the submitter');
      const decided = await form(t, editor, `/events/${id}/moderate`, { decision: 'approve', notify: '1' });
      assert.equal(decided.status, 303);
      assert.match(String(decided.headers.location), /\/admin\/events\/\?status=pending&submissions=1&message=moderated_approve/);
      assert.equal((await t.request('GET', `${NS}/events/${id}`)).status, 200);
      assert.equal((await form(t, editor, `/events/${id}/moderate`, { decision: 'approve' })).status, 409);
      const admin = await signIn(t, await createSigninUser(t, 'administrator'));
      const mail = await adminGet(t, admin, '/mail/');
      assert.equal(mail.status, 200);
      assert.ok(mail.text.includes('Your event is published: Choir evening'));
      assert.equal((await adminGet(t, editor, '/mail/')).status, 403);
    });
  });
}
