import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { EDITION_PREFIXES, LANGUAGES, translate, type MessageKey, type MessageVars } from '../../../src/i18n/catalog.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { startTestApp, type Caller, type TestApp } from '../../helpers/test-app.ts';
import { clock, createEvent, EVENTS, eventBody } from './fixtures.ts';

interface ErrorCase {
  code: string;
  status: number;
  method: string;
  path: string;
  as?: Caller;
  body?: unknown;
  headers?: Record<string, string>;
  vars?: MessageVars;
}

// 10-events §10: every error the event routes produce, with its message in each edition.
for (const dialect of DIALECTS) {
  describe(`events: error catalogue [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let cases: ErrorCase[];
    before(async () => {
      t = await startTestApp(dialect, { clock });
      const published = await createEvent(t, 'editor', { venue: { venue: 'Error Hall' } });
      const draft = await createEvent(t, 'editor', { status: 'draft' });
      const locked = await createEvent(t, 'editor', { password: 'pw' });
      const trashed = await createEvent(t, 'editor');
      await t.request('DELETE', `${EVENTS}/${trashed.id}`, { as: 'editor' });
      cases = [
        { code: 'rest_no_route', status: 404, method: 'GET', path: `${EVENTS}/abc` },
        { code: 'rest_missing_callback_param', status: 400, method: 'POST', path: EVENTS, body: {}, vars: { params: 'title, start_date, end_date' } },
        { code: 'rest_invalid_param', status: 400, method: 'GET', path: `${EVENTS}?page=0`, vars: { params: 'page' } },
        { code: 'rest_invalid_json', status: 400, method: 'POST', path: EVENTS, as: 'editor', body: '{"title":', headers: { 'content-type': 'application/json' } },
        { code: 'rest_forbidden', status: 401, method: 'POST', path: EVENTS, body: eventBody() },
        { code: 'rest_forbidden', status: 403, method: 'DELETE', path: `${EVENTS}/${published.id}`, as: 'subscriber' },
        { code: 'rest-event-not-found', status: 404, method: 'GET', path: `${EVENTS}/424242`, vars: { id: 424242 } },
        { code: 'rest-invalid-event-id', status: 400, method: 'GET', path: `${EVENTS}/${published.venue.id}`, vars: { id: published.venue.id } },
        { code: 'event-no-longer-available', status: 403, method: 'GET', path: `${EVENTS}/${trashed.id}` },
        { code: 'event-not-accessible', status: 403, method: 'GET', path: `${EVENTS}/${draft.id}` },
        { code: 'event-password-protected', status: 403, method: 'GET', path: `${EVENTS}/${locked.id}` },
        { code: 'event-archive-page-not-found', status: 404, method: 'GET', path: `${EVENTS}?page=99` },
        { code: 'event-is-in-trash', status: 410, method: 'DELETE', path: `${EVENTS}/${trashed.id}`, as: 'editor' },
        { code: 'could-not-create-organizer', status: 400, method: 'POST', path: EVENTS, as: 'editor', body: eventBody({ organizer: 'Comma,List' }) },
      ];
    });
    after(() => t.close());

    test('each error has its status, code and the edition’s message', async () => {
      for (const lang of LANGUAGES) {
        for (const c of cases) {
          const path = `${EDITION_PREFIXES[lang]}${c.path}`;
          const res = await t.request(c.method, path, { as: c.as ?? 'visitor', body: c.body, headers: c.headers });
          const label = `${lang} ${c.method} ${c.path}`;
          assert.equal(res.status, c.status, `${label}: ${JSON.stringify(res.body)}`);
          assert.equal(res.body.code, c.code, label);
          assert.equal(res.body.data.status, c.status, label);
          assert.equal(res.body.message, translate(lang, c.code as MessageKey, c.vars), label);
          if (lang !== 'en') assert.notEqual(res.body.message, translate('en', c.code as MessageKey, c.vars), `${label} is translated`);
        }
      }
    });

    test('rest_invalid_param carries params and details; type errors state the expected type', async () => {
      const validator = await t.request('GET', `${EVENTS}?search=`);
      assert.deepEqual(validator.body.data, {
        status: 400,
        params: { search: 'Invalid parameter.' },
        details: { search: { code: 'rest_empty_value', message: translate('en', 'reason_not_empty'), data: { status: 400 } } },
      });
      const typed = await t.request('GET', `/es${EVENTS}?featured=quizas`);
      assert.deepEqual(typed.body.data.params, { featured: translate('es', 'rest_invalid_type', { param: 'featured', type: 'boolean' }) });
      const coded = await t.request('GET', `/it${EVENTS}?ticketed=true`);
      assert.deepEqual(coded.body.data.details, {
        ticketed: { code: 'event-tickets-not-active', message: translate('it', 'event-tickets-not-active'), data: { status: 400 } },
      });
    });
  });

  describe(`events: storage failures [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let existing: { id: number };
    before(async () => {
      t = await startTestApp(dialect, { clock });
      existing = await createEvent(t, 'editor');
      // The database itself refuses every write to events from now on.
      const statements = dialect === 'sqlite'
        ? [
            "create trigger refuse_insert before insert on events begin select raise(abort, 'refused by the test'); end",
            "create trigger refuse_update before update on events begin select raise(abort, 'refused by the test'); end",
          ]
        : [
            "create function refuse_events() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$",
            'create trigger refuse_writes before insert or update on events for each row execute function refuse_events()',
          ];
      for (const statement of statements) await sql.raw(statement).execute(t.storage.db);
    });
    after(() => t.close());

    test('a create the storage refuses is 500 could-not-create-event and writes nothing', async () => {
      const res = await t.request('POST', `/es${EVENTS}`, { as: 'editor', body: eventBody({ categories: 'Orphan Term' }) });
      assert.equal(res.status, 500);
      assert.equal(res.body.code, 'could-not-create-event');
      assert.equal(res.body.message, translate('es', 'could-not-create-event'));
      assert.equal(JSON.stringify(res.body).includes('refused'), false);
      const terms = await t.storage.db.selectFrom('terms').select('id').where('name', '=', 'Orphan Term').execute();
      assert.deepEqual(terms, []);
    });

    test('a trash the storage refuses is 500 could-not-delete-event', async () => {
      const res = await t.request('DELETE', `${EVENTS}/${existing.id}`, { as: 'editor' });
      assert.equal(res.status, 500);
      assert.equal(res.body.code, 'could-not-delete-event');
      assert.equal((await t.request('GET', `${EVENTS}/${existing.id}`)).body.status, 'publish');
    });
  });
}
