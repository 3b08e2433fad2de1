import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, type TestApp } from '../../helpers/test-app.ts';
import { adminGet, createSigninUser, signIn, startAdminApp, type AdminSession } from '../helpers.ts';

const preview = (id: number, edition = '') => `${edition}/?post_type=tribe_events&p=${id}&preview=1`;

// 55 §7.5 with 100 §2: the preview accepts a live back office session instead of the Basic prompt.
// Over a real socket, so that the visitors' page replay in front of the framework is part of it.
for (const dialect of DIALECTS) {
  describe(`draft preview with a back office session (${dialect})`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let editor: AdminSession;
    let contributor: AdminSession;
    let othersDraft: number;
    let ownDraft: number;
    before(async () => {
      t = await startAdminApp(dialect, { overHttp: true });
      editor = await signIn(t, await createSigninUser(t, 'editor'));
      contributor = await signIn(t, await createSigninUser(t, 'contributor'));
      const draft = await t.request('POST', `${NS}/events`, { as: 'administrator', body: { title: 'Secret Launch', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00', status: 'draft' } });
      assert.equal(draft.status, 201);
      othersDraft = draft.body.id;
      const own = await t.request('POST', `${NS}/events`, {
        body: { title: 'Own Pitch', start_date: '2030-02-01 10:00:00', end_date: '2030-02-01 11:00:00', status: 'pending' },
        headers: { cookie: contributor.cookie, 'x-wp-nonce': contributor.token },
      });
      assert.equal(own.status, 201);
      ownDraft = own.body.id;
    });
    after(() => t?.close());

    it('a visitor still gets the Basic prompt; a signed-in editor sees the draft, privately', async () => {
      const first = await t.request('GET', preview(othersDraft));
      assert.equal(first.status, 401);
      assert.equal(first.headers['www-authenticate'], 'Basic realm="calendar"');
      for (const edition of ['', '/da']) {
        const answer = await t.request('GET', preview(othersDraft, edition), { headers: { cookie: editor.cookie } });
        assert.equal(answer.status, 200, edition);
        assert.match(answer.text, /<h1>Secret Launch<\/h1>/);
        assert.equal(answer.headers['cache-control'], 'private, no-store');
        assert.equal(answer.headers['x-robots-tag'], 'noindex');
        assert.equal(answer.headers.etag, undefined);
      }
      const head = await t.request('HEAD', preview(othersDraft), { headers: { cookie: editor.cookie } });
      assert.equal(head.status, 200);
    });

    it('the session counts only on the preview: without preview=1 the draft stays hidden', async () => {
      const plain = await t.request('GET', `/?post_type=tribe_events&p=${othersDraft}`, { headers: { cookie: editor.cookie } });
      assert.equal(plain.status, 404);
    });

    it('a contributor previews own events only (the API\'s read rule)', async () => {
      const own = await t.request('GET', preview(ownDraft), { headers: { cookie: contributor.cookie } });
      assert.equal(own.status, 200);
      assert.match(own.text, /<h1>Own Pitch<\/h1>/);
      const others = await t.request('GET', preview(othersDraft), { headers: { cookie: contributor.cookie } });
      assert.equal(others.status, 404);
      assert.doesNotMatch(others.text, /Secret Launch/);
      // The same judgement as the API's read of the event.
      const api = await t.request('GET', `${NS}/events/${othersDraft}`, { headers: { cookie: contributor.cookie, 'x-wp-nonce': contributor.token } });
      assert.notEqual(api.status, 200);
    });

    it('a dead or unknown session is a visitor', async () => {
      const unknown = await t.request('GET', preview(othersDraft), { headers: { cookie: `cal_session=${'x'.repeat(43)}` } });
      assert.equal(unknown.status, 401);
      assert.equal(unknown.headers['www-authenticate'], 'Basic realm="calendar"');
    });

    it('visitors after an editor\'s previews never get the draft (page cache and replay)', async () => {
      for (let i = 0; i < 3; i++) assert.equal((await t.request('GET', preview(othersDraft), { headers: { cookie: editor.cookie } })).status, 200);
      // Concurrent requests too: a visitor waiting on an editor's answer in flight does not take it.
      const answers = await Promise.all([
        t.request('GET', preview(othersDraft), { headers: { cookie: editor.cookie } }),
        t.request('GET', preview(othersDraft)),
        t.request('GET', preview(othersDraft), { headers: { cookie: editor.cookie } }),
        t.request('GET', preview(othersDraft)),
      ]);
      assert.deepEqual(answers.map((answer) => answer.status), [200, 401, 200, 401]);
      const visitor = await t.request('GET', preview(othersDraft));
      assert.equal(visitor.status, 401);
      assert.doesNotMatch(visitor.text, /Secret Launch/);
    });

    it('the editor links unpublished events to their preview, not published ones', async () => {
      const page = await adminGet(t, editor, `/events/${othersDraft}/`);
      assert.equal(page.status, 200);
      const href = `/?post_type=tribe_events&amp;p=${othersDraft}&amp;preview=1`;
      assert.ok(page.text.includes(`<a href="${href}">Preview</a>`), 'preview link');
      const danish = await t.request('GET', `/da/admin/events/${othersDraft}/`, { headers: { cookie: editor.cookie } });
      assert.ok(danish.text.includes(`<a href="/da${href}">`), 'Danish preview link');
      const published = await t.request('POST', `${NS}/events`, { as: 'administrator', body: { title: 'Out Now', start_date: '2030-03-01 10:00:00', end_date: '2030-03-01 11:00:00', status: 'publish' } });
      const shown = await adminGet(t, editor, `/events/${published.body.id}/`);
      assert.doesNotMatch(shown.text, /preview=1/);
    });
  });
}
