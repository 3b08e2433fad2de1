import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type Caller, type TestApp } from '../../helpers/test-app.ts';
import { conformance } from '../docs/schema-conformance.ts';
import { movableClock, submitForm, validFields } from './helpers.ts';

const ADMIN_NS = '/calendar/admin/v1';
const ALIAS = '/tribe/events/v1';
const KEYS = ['submitter_name', 'submitter_email', 'member', 'edition', 'flags', 'submitted', 'decision', 'reason'];

// 120 §7: `submission` under context=edit, for editors and administrators only, on every mount of
// the events endpoint; the hashes never leave the database; no cache hands it to anyone else.
for (const dialect of DIALECTS) {
  describe(`GET {ns}/events/{id}?context=edit: the submission [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    const time = movableClock();
    let pending: number;
    let published: number;
    let plain: number;
    let hashes: string[];

    before(async () => {
      t = await startTestApp(dialect, {
        clock: time.clock,
        overHttp: true,
        env: { CALENDAR_SUBMISSIONS: 'anyone', CALENDAR_SUBMISSIONS_POW: 'off', CALENDAR_SUBMISSIONS_PER_HOUR: '1000', CALENDAR_NAMESPACE_ALIASES: 'tribe/events/v1' },
      });
      const submit = async (title: string, edition = '') => {
        assert.equal((await submitForm(t, time.advance, validFields({ title, submitter_name: 'Ada Submitter', submitter_email: 'ada@example.org' }), { edition })).status, 303);
        return (await t.storage.db.selectFrom('submissions').selectAll().orderBy('created_utc', 'desc').orderBy('event_id', 'desc').executeTakeFirstOrThrow());
      };
      pending = (await submit('Pending one')).event_id;
      // A contributor's own event from here on: readable by them with context=edit.
      await t.storage.db.updateTable('events').set({ author: t.users.contributor.id }).where('id', '=', pending).execute();
      const second = await submit('Published one', '/da');
      published = second.event_id;
      assert.equal((await t.request('POST', `${ADMIN_NS}/events/${published}/moderation`, { as: 'editor', body: { decision: 'reject', reason: 'Too late', notify: false } })).status, 200);
      assert.equal((await t.request('POST', `${NS}/events/${published}`, { as: 'editor', body: { status: 'publish' } })).status, 200);
      plain = (await t.request('POST', `${NS}/events`, { as: 'editor', body: { title: 'Not submitted', start_date: '2031-06-01 10:00:00', end_date: '2031-06-01 11:00:00', status: 'publish' } })).body.id;
      const rows = await t.storage.db.selectFrom('submissions').select(['address_hash', 'email_hash']).execute();
      hashes = rows.flatMap((row) => [row.address_hash, row.email_hash]).filter((hash): hash is string => hash !== null);
      assert.ok(hashes.length >= 2);
    });
    after(() => t.close());

    const read = (id: number, as: Caller, query = '?context=edit', prefix = NS, headers: Record<string, string> = {}) =>
      t.request('GET', `${prefix}/events/${id}${query}`, { as, headers });

    test('editors and administrators get every key, in every edition and alias; the hashes never', async () => {
      for (const as of ['editor', 'administrator'] as const) {
        for (const prefix of [NS, `/da${NS}`, `/es${NS}`, ALIAS, `/it${ALIAS}`]) {
          const res = await read(pending, as, '?context=edit', prefix);
          assert.equal(res.status, 200, `${as} ${prefix}`);
          assert.deepEqual(Object.keys(res.body.submission), KEYS, `${as} ${prefix}`);
          assert.equal(res.body.submission.submitter_name, 'Ada Submitter');
          assert.equal(res.body.submission.submitter_email, 'ada@example.org');
          assert.equal(res.body.submission.member, null);
          assert.equal(res.body.submission.edition, 'en');
          assert.deepEqual(res.body.submission.flags, []);
          assert.match(res.body.submission.submitted, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
          assert.equal(res.body.submission.decision, null);
          assert.equal(res.body.submission.reason, null);
          for (const hash of hashes) assert.ok(!res.text.includes(hash), 'no hash in the answer');
          assert.ok(!res.text.includes('_hash'));
        }
      }
      const rejected = await read(published, 'editor');
      assert.deepEqual({ ...rejected.body.submission, submitted: '' }, {
        submitter_name: 'Ada Submitter', submitter_email: 'ada@example.org', member: null, edition: 'da', flags: [], submitted: '', decision: 'rejected', reason: 'Too late',
      });
      const bySlug = await t.request('GET', `${NS}/events/by-slug/${rejected.body.slug}?context=edit`, { as: 'administrator' });
      assert.equal(bySlug.body.submission.decision, 'rejected');
    });

    test('an event that was not submitted: submission null', async () => {
      const res = await read(plain, 'editor');
      assert.equal(res.status, 200);
      assert.ok('submission' in res.body);
      assert.equal(res.body.submission, null);
    });

    test('nobody else gets the key: view context, contributors, authors, subscribers, visitors', async () => {
      for (const as of ['editor', 'administrator'] as const) {
        assert.ok(!('submission' in (await read(pending, as, '')).body), `${as}, view context`);
        assert.ok(!('submission' in (await read(pending, as, '?context=view')).body), `${as}, context=view`);
      }
      const own = await read(pending, 'contributor');
      assert.equal(own.status, 200, 'the contributor reads their own pending event');
      assert.ok(!('submission' in own.body));
      for (const as of ['author', 'contributor', 'subscriber', 'visitor'] as const) {
        for (const id of [published, plain]) {
          const res = await read(id, as);
          assert.equal(res.status, 200, as);
          assert.ok(!('submission' in res.body), `${as} ${id}`);
          assert.ok(!res.text.includes('ada@example.org'), as);
        }
      }
    });

    test('the key costs one statement, and only with context=edit', async () => {
      const cost = async (query: string) => {
        await read(pending, 'editor', query);
        const before = await t.queryCount();
        assert.equal((await read(pending, 'editor', query)).status, 200);
        return (await t.queryCount()) - before;
      };
      assert.equal((await cost('?context=edit')) - (await cost('')), 1);
    });

    test('lists carry no submission, with context=edit either', async () => {
      const list = await t.request('GET', `${NS}/events?context=edit&status=pending,publish&start_date=2031-01-01`, { as: 'editor' });
      assert.equal(list.status, 200);
      assert.ok(list.body.events.some((event: { id: number }) => event.id === pending));
      assert.ok(!list.text.includes('ada@example.org'));
      assert.ok(list.body.events.every((event: object) => !('submission' in event)));
    });

    test('the caches and the replay never hand an editor\'s answer to someone else', async () => {
      for (let round = 0; round < 2; round++) {
        const editor = await read(published, 'editor');
        assert.equal(editor.body.submission.submitter_email, 'ada@example.org');
        assert.match(String(editor.headers['cache-control']), /private/);
        assert.match(String(editor.headers['cache-control']), /no-store/);
        for (const as of ['visitor', 'visitor', 'author', 'contributor'] as const) {
          const other = await read(published, as);
          assert.equal(other.status, 200);
          assert.ok(!('submission' in other.body), `${as} after the editor, round ${round}`);
          // The editor's validator names another body: a full answer, never a 304 on the editor's copy.
          const conditional = await read(published, as, '?context=edit', NS, { 'if-none-match': String(editor.headers.etag) });
          assert.equal(conditional.status, 200, as);
          assert.ok(!('submission' in conditional.body));
          assert.notEqual(conditional.headers.etag, editor.headers.etag);
        }
        assert.equal((await read(published, 'editor')).body.submission.decision, 'rejected', 'and the editor still gets it after the others');
        // Another editor's view of the same data is theirs as much.
        assert.equal((await read(published, 'administrator')).body.submission.decision, 'rejected');
      }
      // A change of the submission alone (the retention job's erasure) shows at once.
      await t.storage.db.updateTable('submissions').set({ submitter_name: null, submitter_email: null }).where('event_id', '=', published).execute();
      assert.equal((await read(published, 'editor')).body.submission.submitter_email, null);
    });

    test('the answer conforms to the documented Event schema; {ns}/doc documents the key in every edition', async () => {
      const doc = (await t.request('GET', `${NS}/doc`)).body;
      const schemas = doc.components.schemas;
      assert.deepEqual(Object.keys(schemas.Submission.properties), KEYS);
      assert.deepEqual(schemas.Event.properties.submission.allOf, [{ $ref: '#/components/schemas/Submission' }]);
      assert.equal(schemas.Event.properties.submission.nullable, true);
      assert.match(schemas.Event.properties.submission.description, /context=edit/);
      for (const id of [pending, plain]) {
        const value = (await read(id, 'editor')).body;
        assert.deepEqual(conformance(value, { $ref: '#/components/schemas/Event' }, schemas), [], JSON.stringify(value.submission));
      }
      const danish = (await t.request('GET', `/da${NS}/doc`)).body.components.schemas;
      assert.notEqual(danish.Event.properties.submission.description, schemas.Event.properties.submission.description);
      assert.notEqual(danish.Submission.properties.flags.description, schemas.Submission.properties.flags.description);
    });

    test('the admin document lists the moderation route with its answers', async () => {
      for (const prefix of ['', '/da']) {
        const doc = (await t.request('GET', `${prefix}${ADMIN_NS}/doc`)).body;
        const operation = doc.paths['/events/{id}/moderation'].post;
        assert.deepEqual(Object.keys(operation.responses), ['200', '400', '401', '403', '404', '409']);
        assert.deepEqual(Object.keys(operation.responses['200'].content['application/json'].schema.properties), ['id', 'decision', 'status', 'mail']);
        assert.match(operation.responses['404'].description, /rest-event-not-found/);
        assert.match(operation.responses['404'].description, /submission-not-found/);
        assert.match(operation.responses['409'].description, /submission-already-decided/);
        assert.match(operation.responses['400'].description, /rest_invalid_param/);
        assert.deepEqual(Object.keys(operation.requestBody.content['application/json'].schema.properties), ['decision', 'reason', 'notify']);
        if (prefix === '/da') assert.doesNotMatch(operation.summary, /^Decides/);
      }
    });
  });
}
