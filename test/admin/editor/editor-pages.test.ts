import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, type TestApp } from '../../helpers/test-app.ts';
import { snapshotDatabase, snapshotDifference, type Snapshot } from '../../reliability/db-snapshot.ts';
import { adminGet, createSigninUser, form, signIn, startAdminApp, type AdminSession } from '../helpers.ts';
import { fields, formState, selectOptions, value, values, type FormPairs } from './form-state.ts';

const EVENTS = `${NS}/events`;

/** Every occurrence of a series, in list order. */
async function occurrencesOf(t: TestApp, masterId: number): Promise<any[]> {
  const res = await t.request('GET', `${EVENTS}?post_parent=${masterId}&start_date=2000-01-01&end_date=2099-12-31&per_page=50`, { as: 'editor' });
  return res.status === 200 ? res.body.events : [];
}

/** The database without the sessions' activity stamps (GET may write `last_seen`, §4). */
async function snapshot(t: TestApp): Promise<Snapshot> {
  const all = await snapshotDatabase(t.storage);
  delete all.sessions;
  return all;
}

const pathOf = (location: unknown, session: AdminSession) => String(location).replace(session.prefix, '').replace(/\?.*$/, '');

// 100 §17 items 6, 8, 10 and the editor's outcomes (§8.4), through the real router, forms posted
// as a browser with JavaScript off posts them.
for (const dialect of DIALECTS) {
  describe(`event editor pages [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let editor: AdminSession;
    let category: { id: number };
    let child: { id: number };
    let organizer: { id: number };

    before(async () => {
      t = await startAdminApp(dialect);
      editor = await signIn(t, await createSigninUser(t, 'editor'));
      category = (await t.request('POST', `${NS}/categories`, { as: 'editor', body: { name: 'Music' } })).body;
      child = (await t.request('POST', `${NS}/categories`, { as: 'editor', body: { name: 'Jazz', parent: category.id } })).body;
      organizer = (await t.request('POST', `${NS}/organizers`, { as: 'editor', body: { organizer: 'Jazz club', status: 'publish' } })).body;
    });
    after(() => t.close());

    /** A weekly series with a NEW venue, a new and an existing organizer, categories, tags and flags. */
    const seriesForm = (title: string): Record<string, string | string[]> => ({
      title,
      description: '<p>Bring friends</p>',
      excerpt: 'Weekly jazz',
      start_date: '2027-03-02',
      start_time: '19:30',
      end_date: '2027-03-02',
      end_time: '22:00',
      timezone: 'Europe/Copenhagen',
      venue: 'new',
      'venue_new[venue]': `${title} hall`,
      'venue_new[address]': 'Vestergade 1',
      'venue_new[city]': 'Aarhus',
      'venue_new[country]': 'Denmark',
      'venue_new[zip]': '8000',
      'organizer[]': [String(organizer.id)],
      'organizer_new[organizer]': `${title} society`,
      'organizer_new[email]': 'society@example.org',
      'categories[]': [String(category.id), String(child.id)],
      tags: 'jazz, live music',
      cost: '120',
      website: 'https://example.org/jazz',
      featured: '1',
      status: 'publish',
      publish_date: '2026-11-01',
      publish_time: '08:00',
      password: '',
      image: '',
      recurrence_pattern: 'weekly',
      recurrence_interval: '1',
      'recurrence_weekdays[]': ['TU', 'TH'],
      recurrence_monthly: 'day',
      recurrence_end: 'count',
      recurrence_count: '6',
      recurrence_until: '',
      recurrence_rrule: '',
      recurrence_exdates: '2027-03-04',
      recurrence_rdates: '',
      action: 'save',
    });

    test('a recurring event with a new venue and categories, created by form: the API, the public page, the reopened form', async () => {
      const before = await snapshot(t);
      const created = await form(t, editor, '/events/new', seriesForm('Tuesday jazz'));
      assert.equal(created.status, 303, created.text.slice(0, 2000));
      assert.match(String(created.headers.location), /\/admin\/events\/\d+\/\?message=event_published$/);
      assert.notEqual(snapshotDifference(before, await snapshot(t)), '');
      const id = Number(/events\/(\d+)\//.exec(String(created.headers.location))![1]);

      const api = (await t.request('GET', `${EVENTS}/${id}?context=edit`, { as: 'editor' })).body;
      assert.equal(api.title, 'Tuesday jazz');
      assert.equal(api.status, 'publish');
      assert.equal(api.recurrence.rrule, 'FREQ=WEEKLY;BYDAY=TU,TH;COUNT=6');
      assert.deepEqual(api.recurrence.exdate, ['2027-03-04']);
      assert.equal(api.venue.venue, 'Tuesday jazz hall');
      assert.equal(api.venue.city, 'Aarhus');
      assert.deepEqual(api.organizer.map((o: any) => o.organizer).sort(), ['Jazz club', 'Tuesday jazz society']);
      assert.deepEqual(api.categories.map((c: any) => c.id).sort(), [category.id, child.id].sort());
      assert.deepEqual(api.tags.map((tag: any) => tag.name).sort(), ['jazz', 'live music']);
      assert.equal(api.featured, true);
      assert.equal(api.date, '2026-11-01 08:00:00');
      const occurrences = await occurrencesOf(t, id);
      assert.deepEqual(occurrences.map((o) => o.start_date), ['2027-03-02 19:30:00', '2027-03-09 19:30:00', '2027-03-11 19:30:00', '2027-03-16 19:30:00', '2027-03-18 19:30:00']);

      const publicPage = await t.request('GET', new URL(occurrences[0].url).pathname);
      assert.equal(publicPage.status, 200);
      assert.match(publicPage.text, /Tuesday jazz/);

      // Reopened: every value shown as stored (the new venue and organizer are now picked ones).
      const reopened = await adminGet(t, editor, `/events/${id}/`);
      assert.equal(reopened.status, 200);
      const shown = formState(reopened.text);
      const sent = seriesForm('Tuesday jazz');
      for (const name of ['title', 'description', 'excerpt', 'start_date', 'start_time', 'end_date', 'end_time', 'timezone', 'tags', 'cost', 'website', 'featured', 'status', 'publish_date', 'publish_time', 'recurrence_pattern', 'recurrence_interval', 'recurrence_end', 'recurrence_count', 'recurrence_exdates']) {
        assert.deepEqual(values(shown, name), [sent[name]].flat(), name);
      }
      assert.deepEqual(values(shown, 'recurrence_weekdays[]'), ['TU', 'TH']);
      assert.deepEqual(values(shown, 'categories[]'), [String(category.id), String(child.id)]);
      assert.equal(value(shown, 'venue'), String(api.venue.id));
      assert.deepEqual(values(shown, 'organizer[]').sort(), api.organizer.map((o: any) => String(o.id)).sort());
      assert.equal(value(shown, 'revision'), (await t.request('GET', `${EVENTS}/${id}?context=edit`, { as: 'editor' })).headers.etag);

      // Saving the reopened form unchanged changes nothing but the modification time.
      const resaved = await form(t, editor, `/events/${id}/`, { ...fields(shown), action: ['save'] });
      assert.equal(resaved.status, 303, resaved.text.slice(0, 1500));
      assert.deepEqual((await occurrencesOf(t, id)).map((o) => o.id), occurrences.map((o) => o.id));
    });

    test('a recurrence created by form equals one created by JSON (rows, utc_*, occurrences)', async () => {
      const byForm = await form(t, editor, '/events/new', { ...seriesForm('Twin'), venue: '', 'organizer_new[organizer]': '' });
      const formId = Number(/events\/(\d+)\//.exec(String(byForm.headers.location))![1]);
      const author = Number((await t.request('GET', `${EVENTS}/${formId}`, { as: 'editor' })).body.author);
      const json = await t.request('POST', EVENTS, {
        as: 'editor',
        body: {
          author,
          title: 'Twin', description: '<p>Bring friends</p>', excerpt: 'Weekly jazz', start_date: '2027-03-02 19:30', end_date: '2027-03-02 22:00',
          timezone: 'Europe/Copenhagen', organizer: [organizer.id], categories: [category.id, child.id], tags: ['jazz', 'live music'], cost: '120',
          website: 'https://example.org/jazz', featured: true, status: 'publish', date: '2026-11-01 08:00',
          recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=TU,TH;COUNT=6', exdate: ['2027-03-04'] },
        },
      });
      assert.equal(json.status, 201, JSON.stringify(json.body));
      const strip = (event: any) => {
        const { id: _id, global_id: _g, global_id_lineage: _l, rest_url: _r, url: _u, modified: _m, modified_utc: _mu, date: _d, date_utc: _du, json_ld: _j, post_parent: _p, slug: _s, occurrences: _o, ...rest } = event;
        return rest;
      };
      const a = (await t.request('GET', `${EVENTS}/${formId}`, { as: 'editor' })).body;
      const b = (await t.request('GET', `${EVENTS}/${json.body.id}`, { as: 'editor' })).body;
      assert.deepEqual(strip(a), strip(b));
      const [fo, jo] = [await occurrencesOf(t, formId), await occurrencesOf(t, json.body.id)];
      assert.deepEqual(fo.map(strip), jo.map(strip));
      assert.deepEqual(fo.map((o) => [o.utc_start_date, o.utc_end_date, o.recurrence_id]), jo.map((o) => [o.utc_start_date, o.utc_end_date, o.recurrence_id]));
    });

    test('preview dates: nothing written, the API occurrences, partial answer; an invalid rule is 422 at the builder', async () => {
      const before = await snapshot(t);
      const preview = await form(t, editor, '/events/new', { ...seriesForm('Preview'), action: 'preview_dates' });
      assert.equal(preview.status, 200);
      const times = [...preview.text.matchAll(/<time datetime="([^"]+)">([^<]+)<\/time>/g)];
      assert.deepEqual(times.map((m) => m[1]), ['2027-03-02T19:30:00+01:00', '2027-03-09T19:30:00+01:00', '2027-03-11T19:30:00+01:00', '2027-03-16T19:30:00+01:00', '2027-03-18T19:30:00+01:00']);
      assert.match(times[0][2], /CET$/);
      assert.deepEqual(formState(preview.text).filter(([name]) => name !== 'action'), formState((await form(t, editor, '/events/new', { ...seriesForm('Preview'), action: 'preview_dates' })).text).filter(([name]) => name !== 'action'));
      const partial = await form(t, editor, '/events/new', { ...seriesForm('Preview'), action: 'preview_dates', partial: '1' });
      assert.equal(partial.status, 200);
      assert.match(partial.text, /^(<!doctype html>\s*)?<section id="preview-dates"/);
      assert.doesNotMatch(partial.text, /<form/);
      const invalid = await form(t, editor, '/events/new', { ...seriesForm('Preview'), recurrence_count: 'abc', action: 'preview_dates' });
      assert.equal(invalid.status, 422);
      assert.match(invalid.text, /<a href="#field-recurrence">/);
      assert.equal(snapshotDifference(before, await snapshot(t)), '');
    });

    test('422 keeps every value, writes nothing, links resolve, aria-invalid set', async () => {
      const before = await snapshot(t);
      const sent = { ...seriesForm('Refused'), website: 'not a url', 'venue_new[geo_lat]': '999', recurrence_count: 'abc' };
      const refused = await form(t, editor, '/events/new', sent);
      assert.equal(refused.status, 422);
      assert.equal(refused.headers['x-calendar-error'], 'rest_invalid_param');
      assert.equal(snapshotDifference(before, await snapshot(t)), '');
      const shown = formState(refused.text);
      for (const [name, item] of Object.entries(sent)) {
        if (name === 'action') continue;
        assert.deepEqual(values(shown, name), [item].flat(), name);
      }
      const links = [...refused.text.matchAll(/<a href="#([^"]+)">/g)].map((m) => m[1]);
      assert.ok(links.length >= 1, refused.text.slice(0, 3000));
      for (const id of links) assert.match(refused.text, new RegExp(`id="${id}"`), id);
      assert.match(refused.text, /aria-invalid="true"/);
      const websiteInput = /<input[^>]*name="website"[^>]*>/.exec(refused.text)![0];
      assert.match(websiteInput, /aria-invalid="true"/);
      assert.match(websiteInput, /aria-describedby="field-website-error"/);
      assert.match(refused.text, /<p class="field-error" id="field-website-error">/);
    });

    test('409 keeps the first save and the entered values; a second save overwrites', async () => {
      const created = await form(t, editor, '/events/new', { title: 'Conflict', start_date: '2027-05-01', start_time: '10:00', end_time: '11:00', status: 'draft', action: 'save' });
      const id = Number(/events\/(\d+)\//.exec(String(created.headers.location))![1]);
      const opened = formState((await adminGet(t, editor, `/events/${id}/`)).text);
      const first = await t.request('POST', `${EVENTS}/${id}`, { as: 'editor', body: { title: 'Changed elsewhere' } });
      assert.equal(first.status, 200);
      const entered = { ...fields(opened), title: ['My title'], cost: ['5'], action: ['save'] };
      const before = await snapshot(t);
      const conflict = await form(t, editor, `/events/${id}/`, entered);
      assert.equal(conflict.status, 409);
      assert.equal(conflict.headers['x-calendar-error'], 'admin_edit_conflict');
      assert.equal(snapshotDifference(before, await snapshot(t)), '');
      assert.match(conflict.text, /changed by someone else/);
      assert.match(conflict.text, /Changed meanwhile: [^<]*Title/);
      const shown = formState(conflict.text);
      assert.equal(value(shown, 'title'), 'My title');
      assert.equal(value(shown, 'cost'), '5');
      assert.equal((await t.request('GET', `${EVENTS}/${id}`, { as: 'editor' })).body.title, 'Changed elsewhere');
      const current = (await t.request('GET', `${EVENTS}/${id}?context=edit`, { as: 'editor' })).headers.etag;
      assert.equal(value(shown, 'revision'), current);
      const again = await form(t, editor, `/events/${id}/`, { ...fields(shown), action: ['save'] });
      assert.equal(again.status, 303);
      assert.equal((await t.request('GET', `${EVENTS}/${id}`, { as: 'editor' })).body.title, 'My title');
    });

    test('duplicate: pre-fill equals the source, the GET writes nothing, submit creates a new draft', async () => {
      const created = await form(t, editor, '/events/new', { ...seriesForm('Original'), venue: '', 'organizer_new[organizer]': '' });
      const id = Number(/events\/(\d+)\//.exec(String(created.headers.location))![1]);
      const source = formState((await adminGet(t, editor, `/events/${id}/`)).text);
      const before = await snapshot(t);
      const page = await adminGet(t, editor, `/events/new?duplicate=${id}`);
      assert.equal(page.status, 200);
      assert.equal(snapshotDifference(before, await snapshot(t)), '');
      assert.match(page.text, /<h1>Duplicate of Original<\/h1>/);
      const copy = formState(page.text);
      const expected: FormPairs = source
        .filter(([name]) => name !== 'revision')
        .map(([name, item]) => [name, name === 'status' ? 'draft' : name === 'publish_date' || name === 'publish_time' ? '' : item]);
      assert.deepEqual(copy, expected);
      const submitted = await form(t, editor, '/events/new', { ...fields(copy), action: ['save'] });
      assert.equal(submitted.status, 303);
      const newId = Number(/events\/(\d+)\//.exec(String(submitted.headers.location))![1]);
      assert.notEqual(newId, id);
      const made = (await t.request('GET', `${EVENTS}/${newId}`, { as: 'editor' })).body;
      assert.equal(made.status, 'draft');
      assert.equal(made.title, 'Original');
      assert.equal(made.recurrence.rrule, 'FREQ=WEEKLY;BYDAY=TU,TH;COUNT=6');
      assert.equal((await adminGet(t, editor, '/events/new?duplicate=999999')).status, 404);
    });

    test("a contributor's status select lacks publish/private and publish becomes pending; a subscriber gets 403", async () => {
      const contributor = await signIn(t, await createSigninUser(t, 'contributor'));
      const page = await adminGet(t, contributor, '/events/new');
      assert.equal(page.status, 200);
      assert.deepEqual(selectOptions(page.text, 'status'), ['draft', 'pending']);
      assert.match(page.text, />Submit for review</);
      const sent = await form(t, contributor, '/events/new', { title: 'Mine', start_date: '2027-06-01', start_time: '10:00', status: 'draft', action: 'publish' });
      assert.equal(sent.status, 303);
      assert.match(String(sent.headers.location), /message=event_pending/);
      const id = Number(/events\/(\d+)\//.exec(String(sent.headers.location))![1]);
      assert.equal((await t.request('GET', `${EVENTS}/${id}`, { as: 'editor' })).body.status, 'pending');

      const subscriber = await signIn(t, await createSigninUser(t, 'subscriber'));
      const refused = await adminGet(t, subscriber, '/events/new');
      assert.equal(refused.status, 403);
      const post = await form(t, subscriber, '/events/new', { title: 'No', start_date: '2027-06-01', action: 'save' });
      assert.equal(post.status, 403);
    });

    test('trash: read-only page with Restore; a save to an event trashed meanwhile is 410; unknown id 404', async () => {
      const created = await form(t, editor, '/events/new', { title: 'Binned', start_date: '2027-07-01', start_time: '10:00', status: 'draft', action: 'save' });
      const id = Number(/events\/(\d+)\//.exec(String(created.headers.location))![1]);
      const opened = formState((await adminGet(t, editor, `/events/${id}/`)).text);
      const trashed = await form(t, editor, `/events/${id}/`, { ...fields(opened), action: ['trash'] });
      assert.equal(trashed.status, 303);
      assert.match(String(trashed.headers.location), /\/admin\/events\/\?message=event_trashed&undo=\d+$/);
      const page = await adminGet(t, editor, `/events/${id}/`);
      assert.equal(page.status, 200);
      assert.match(page.text, /<fieldset disabled="" class="editor-body">|<fieldset disabled class="editor-body">/);
      assert.match(page.text, /<form method="post" action="\/admin\/events\/\?status=trash"/);
      assert.match(page.text, /name="bulk_action" value="restore"/);
      assert.doesNotMatch(page.text, /name="action" value="save"/);
      const late = await form(t, editor, `/events/${id}/`, { ...fields(opened), action: ['save'] });
      assert.equal(late.status, 410);
      assert.equal(late.headers['x-calendar-error'], 'event-no-longer-available');
      assert.equal((await adminGet(t, editor, '/events/999999/')).status, 404);
      assert.equal(pathOf(trashed.headers.location, editor), '/events/');
    });
  });
}
