import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { encode, FORM_TYPE, formToken, movableClock, submitForm, validFields } from './helpers.ts';

const EDITIONS = ['', '/da', '/it', '/es'];
const PATHS = ['/events/community/add/', '/events/community/thanks/', '/events/community/list/', '/events/community/edit/12/'];

/** Row counts of every table a submission could write. */
async function snapshot(t: TestApp): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ['events', 'venues', 'organizers', 'submissions', 'mail_messages', 'changes', 'submission_attempts'] as const) {
    const row = await t.storage.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

for (const dialect of DIALECTS) {
  describe(`submissions off [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect);
    });
    after(() => t.close());

    test('every path is the 404 page in every edition, for every method, and no page links to the form', async () => {
      for (const edition of EDITIONS) {
        for (const path of PATHS) {
          for (const method of ['GET', 'POST']) {
            const response = await t.request(method, edition + path, { body: 'a=1', headers: FORM_TYPE });
            assert.equal(response.status, 404, `${method} ${edition}${path}`);
          }
        }
        const list = await t.request('GET', `${edition}/events/list/`);
        assert.ok(!list.text.includes('/events/community/add/'));
      }
    });
  });

  describe(`submission form [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    const time = movableClock();
    before(async () => {
      t = await startTestApp(dialect, { clock: time.clock, env: { CALENDAR_SUBMISSIONS: 'anyone', CALENDAR_SUBMISSIONS_POW: 'off', CALENDAR_SUBMISSIONS_PER_HOUR: '1000' } });
    });
    after(() => t.close());

    test('the events bar links to the form; the form has every field of §4, the honeypot and private headers', async () => {
      for (const edition of EDITIONS) {
        const list = await t.request('GET', `${edition}/events/list/`);
        assert.ok(list.text.includes(`href="${edition}/events/community/add/"`), edition);
      }
      const form = await t.request('GET', '/da/events/community/add/');
      assert.equal(form.status, 200);
      assert.equal(form.headers['cache-control'], 'private, no-store');
      assert.equal(form.headers['x-robots-tag'], 'noindex');
      assert.ok(form.text.includes('<html lang="da"') && form.text.includes('<h1>Indsend en begivenhed</h1>'));
      for (const name of ['title', 'description', 'start_date', 'end_date', 'start_time', 'end_time', 'all_day', 'timezone', 'venue', 'venue_new[venue]', 'venue_new[address]', 'venue_new[city]', 'venue_new[country]', 'organizer', 'organizer_new[organizer]', 'organizer_new[email]', 'organizer_new[phone]', 'organizer_new[website]', 'website', 'cost', 'submitter_name', 'submitter_email', '_form', 'url_confirm']) {
        assert.ok(form.text.includes(`name="${name}"`), name);
      }
      assert.ok(form.text.includes('<div class="url-confirm"><label for="field-url_confirm">Lad dette felt være tomt</label><input type="text" id="field-url_confirm" name="url_confirm" value tabindex="-1" autocomplete="off"/>'), 'honeypot');
      assert.ok(!form.text.includes('altcha-widget'), 'proof of work off: no widget');
      assert.equal((await t.request('GET', '/events/community/')).headers.location, '/events/community/add/');
      assert.equal((await t.request('GET', '/da/events/community/add')).status, 301);
      assert.equal((await t.request('DELETE', '/events/community/add/')).headers.allow, 'GET, HEAD, POST');
    });

    test('only published venues and organizers are offered', async () => {
      await t.request('POST', `${NS}/venues`, { as: 'administrator', body: { venue: 'Open Hall', status: 'publish' } });
      await t.request('POST', `${NS}/venues`, { as: 'administrator', body: { venue: 'Secret Hall', status: 'draft' } });
      const form = await t.request('GET', '/events/community/add/');
      assert.ok(form.text.includes('Open Hall'));
      assert.ok(!form.text.includes('Secret Hall'));
    });

    test('a stored submission: pending event, pending venue and organizer, filtered HTML, submitter kept privately', async () => {
      const response = await submitForm(t, time.advance, validFields());
      assert.equal(response.status, 303);
      assert.equal(response.headers.location, '/events/community/thanks/');
      const submission = await t.storage.db.selectFrom('submissions').selectAll().orderBy('event_id', 'desc').executeTakeFirstOrThrow();
      assert.equal(submission.submitter_email, 'ada@example.org');
      assert.equal(submission.edition, 'en');
      assert.match(submission.address_hash!, /^[0-9a-f]{64}$/);
      assert.equal(submission.flags, '');
      const event = await t.storage.db.selectFrom('events').selectAll().where('id', '=', submission.event_id).executeTakeFirstOrThrow();
      assert.equal(event.status, 'pending');
      assert.ok(!event.description.includes('<script'), 'contributor HTML filter');
      const venue = await t.storage.db.selectFrom('venues').selectAll().where('id', '=', submission.created_venue_id!).executeTakeFirstOrThrow();
      assert.equal(venue.status, 'pending');
      const organizer = await t.storage.db.selectFrom('organizers').selectAll().where('id', '=', submission.created_organizer_id!).executeTakeFirstOrThrow();
      assert.equal(organizer.status, 'pending');
      const author = await t.storage.db.selectFrom('users').select(['login', 'role']).where('id', '=', event.author).executeTakeFirstOrThrow();
      assert.deepEqual(author, { login: 'submissions', role: 'contributor' });
      // Nothing public before review.
      assert.equal((await t.request('GET', `${NS}/events/${event.id}`)).status, 403);
      const thanks = await t.request('GET', '/events/community/thanks/');
      assert.ok(thanks.text.includes('Your event was received'));
    });

    test('each §4 reason answers 422 on its field with the values kept and nothing written', async () => {
      const cases: [Record<string, string | string[]>, string, string][] = [
        [{ title: '' }, 'title', 'rest_empty_value'],
        [{ submitter_email: '' }, 'submitter_email', 'rest_empty_value'],
        [{ submitter_email: 'not an address' }, 'submitter_email', 'invalid_email'],
        [{ description: 'see http://a.example https://b.example www.c.example http://d.example' }, 'description', 'submission-too-many-links'],
        [{ end_time: '18:00' }, 'end_time', 'submission-end-before-start'],
        [{ start_date: '2031-04-01', end_date: '2031-04-01' }, 'end_date', 'submission-event-ended'],
        [{ venue: '999999' }, 'venue', 'rest_unknown_venue'],
        [{ organizer: 'abc' }, 'organizer', 'rest_unknown_organizer'],
        [{ 'categories[]': ['999999'] }, 'categories[]', 'rest_unknown_terms'],
        [{ 'venue_new[venue]': '' }, 'venue_new[venue]', 'rest_empty_value'],
        [{ title: 'x'.repeat(201) }, 'title', 'rest_too_large'],
        [{ timezone: 'Mars/Olympus' }, 'timezone', 'rest_invalid_param'],
      ];
      for (const [overrides, field, code] of cases) {
        const before = await snapshot(t);
        const response = await submitForm(t, time.advance, validFields({ ...overrides, title: (overrides.title as string) ?? 'Kept <title> value' }), { edition: '/da' });
        assert.equal(response.status, 422, `${field} ${code}`);
        assert.equal(response.headers['x-calendar-error'], 'rest_invalid_param');
        const id = `field-${field.replace(/\[\]$/, '').replace(/\[([^\]]*)\]/g, '-$1')}`;
        assert.ok(response.text.includes(`href="#${id}"`), `summary links ${id}`);
        assert.ok(response.text.includes(`id="${id}-error"`) || field === 'categories[]', `message on ${field}`);
        if (overrides.title === undefined) assert.ok(response.text.includes('value="Kept &lt;title> value"'), 'values kept');
        assert.deepEqual(await snapshot(t), before, `${field}: nothing written`);
      }
    });

    test('a 422 keeps its token, which then stores once', async () => {
      const form = await t.request('GET', '/events/community/add/');
      const token = formToken(form.text);
      time.advance(5);
      const refused = await t.request('POST', '/events/community/add/', { body: encode({ _form: token, ...validFields({ title: '' }) }), headers: FORM_TYPE });
      assert.equal(formToken(refused.text), token);
      const stored = await t.request('POST', '/events/community/add/', { body: encode({ _form: token, ...validFields() }), headers: FORM_TYPE });
      assert.equal(stored.status, 303);
    });

    test('415 for another body type, 403 for a foreign Origin', async () => {
      const form = await t.request('GET', '/events/community/add/');
      time.advance(5);
      const json = await t.request('POST', '/events/community/add/', { body: { _form: formToken(form.text) } });
      assert.equal(json.status, 415);
      assert.equal(json.headers['x-calendar-error'], 'submission_unsupported_type');
      const foreign = await t.request('POST', '/events/community/add/', { body: encode({ _form: formToken(form.text), ...validFields() }), headers: { ...FORM_TYPE, origin: 'https://evil.example' } });
      assert.equal(foreign.status, 403);
      assert.equal(foreign.headers['x-calendar-error'], 'submission_origin_mismatch');
    });
  });
}
