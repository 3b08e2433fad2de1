import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eventParams } from '../../../src/http/admin/event-form.ts';
import { eventFieldMap } from '../../../src/http/admin/pages/event-editor.ts';
import { recordParams } from '../../../src/http/admin/record-editor.ts';
import type { MessageKey } from '../../../src/i18n/catalog.ts';
import { emptyEventForm, type EventFormValues } from '../../../src/web/admin/event-form-values.ts';
import { fieldId } from '../../../src/web/admin/form-parts.tsx';
import { organizerFields, venueFields } from '../../../src/web/admin/record-fields.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, type TestApp } from '../../helpers/test-app.ts';
import { adminGet, createSigninUser, signIn, startAdminApp, type AdminSession } from '../helpers.ts';

/**
 * Parameters of the write routes that no editor form sends, so the API cannot refuse them for a
 * form: each list is checked against what the form does send, below. Any other parameter must
 * land on a field of the page.
 */
const EVENT_NOT_SENT = ['slug', 'author', 'show_map', 'show_map_link', 'featured_media', 'featured_image'];
const VENUE_NOT_SENT = ['author', 'date', 'date_utc', 'featured_media', 'featured_image', 'stateprovince', 'latitude', 'longitude'];
const ORGANIZER_NOT_SENT = ['author', 'date', 'date_utc', 'featured_media', 'featured_image'];

/** An event form with every field filled in: a new venue and organizer, categories, a weekly rule. */
function filledEventForm(): EventFormValues[] {
  const values: EventFormValues = {
    ...emptyEventForm('UTC'),
    title: 'Jazz', description: '<p>x</p>', excerpt: 'x', start_date: '2027-03-02', start_time: '19:30', end_date: '2027-03-02', end_time: '22:00',
    venue: 'new', venue_new: { venue: 'Hall', address: 'Street 1', city: 'Aarhus', country: 'Denmark', zip: '8000', geo_lat: '56.1', geo_lng: '10.2' },
    organizer: ['4'], organizer_new: { organizer: 'Club', email: 'club@example.org' }, categories: ['9'], tags: 'jazz', cost: '120', website: 'https://example.org',
    featured: true, sticky: true, hide_from_listings: true, status: 'publish', publish_date: '2026-11-01', publish_time: '08:00', password: 'secret', image: '11',
    recurrence: { ...emptyEventForm('UTC').recurrence, pattern: 'weekly', weekdays: ['TU'], end: 'count', count: '6' },
  };
  return [values, { ...values, venue: '3', organizer_new: { organizer: '', email: '' } }];
}

/** The `id`s a page's markup carries. */
const idsOf = (html: string) => new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]));

// 100 §17 item 7, second half: every parameter the event, venue and organizer write routes can
// name in `data.details` (their arguments, as the route table declares them for the validators)
// reaches a field of the editor's page (§8.5), or is one the form never sends.
for (const dialect of DIALECTS) {
  describe(`the API's details reach the editors' fields (100 §8.5) [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let editor: AdminSession;
    let index: { namespace: string; routes: Record<string, { endpoints: Array<{ methods: string[]; args: Record<string, unknown> | [] }> }> };

    before(async () => {
      t = await startAdminApp(dialect);
      editor = await signIn(t, await createSigninUser(t, 'editor'));
      index = (await t.request('GET', NS, { as: 'editor' })).body;
    });
    after(() => t.close());

    /** The arguments of a route's writing endpoints, path parameters left out (a wrong id is the 404 page). */
    function writeParams(pattern: string): string[] {
      const route = index.routes[`/${index.namespace}${pattern}`];
      assert.ok(route, `route ${pattern} in the index`);
      const path = new Set([...pattern.matchAll(/\(\?P<(\w+)>/g)].map((match) => match[1]));
      const names = route.endpoints.filter((endpoint) => endpoint.methods.some((method) => method === 'POST' || method === 'PUT' || method === 'PATCH')).flatMap((endpoint) => Object.keys(endpoint.args));
      return [...new Set(names)].filter((name) => !path.has(name));
    }

    /** Parameters that neither reach a field nor are listed as never sent. */
    function unplaced(params: string[], ids: Set<string>, field: (param: string) => string[], notSent: string[]): string[] {
      return params.filter((param) => !notSent.includes(param) && !field(param).every((name) => ids.has(fieldId(name))));
    }

    test('event: every parameter of POST /events and /events/{id} lands on a field of the new or an occurrence\'s editor', async () => {
      const params = [...new Set([...writeParams('/events'), ...writeParams('/events/(?P<id>\\d+)')])];
      assert.ok(params.includes('title') && params.includes('recurrence') && params.includes('scope'), params.join(' '));
      const series = await t.request('POST', `${NS}/events`, { as: 'editor', body: { title: 'Weekly', start_date: '2027-03-02 19:00', end_date: '2027-03-02 20:00', status: 'publish', recurrence: { rrule: 'FREQ=WEEKLY;COUNT=3' } } });
      assert.equal(series.status, 201);
      const occurrences = await t.request('GET', `${NS}/events?post_parent=${series.body.id}&start_date=2027-01-01&end_date=2027-12-31`, { as: 'editor' });
      const occurrence = occurrences.body.events.find((event: { id: number }) => event.id !== series.body.id);
      const pages = [await adminGet(t, editor, '/events/new'), await adminGet(t, editor, `/events/${occurrence.id}/`)];
      pages.forEach((page) => assert.equal(page.status, 200));
      const ids = new Set(pages.flatMap((page) => [...idsOf(page.text)]));
      const forms = filledEventForm();
      const field = (param: string) => forms.map((values) => eventFieldMap(values)[param] ?? param);
      assert.deepEqual(unplaced(params, ids, field, EVENT_NOT_SENT), []);

      const sent = new Set(forms.flatMap((values) => [
        ...Object.keys(eventParams(values, { create: true, action: 'publish' })),
        ...Object.keys(eventParams(values, { create: false, action: 'save', storedRecurrence: null, occurrence: true })),
      ]));
      assert.deepEqual(EVENT_NOT_SENT.filter((param) => sent.has(param)), [], 'listed as never sent, but the form sends it');
      assert.deepEqual(EVENT_NOT_SENT.filter((param) => !params.includes(param)), [], 'listed, but no longer a parameter of the routes');
    });

    for (const [kind, fields, notSent] of [['venue', venueFields, VENUE_NOT_SENT], ['organizer', organizerFields, ORGANIZER_NOT_SENT]] as const) {
      test(`${kind}: every parameter of POST /${kind}s and /${kind}s/{id} lands on a field of its editor`, async () => {
        const params = [...new Set([...writeParams(`/${kind}s`), ...writeParams(`/${kind}s/(?P<id>\\d+)`)])];
        assert.ok(params.includes(kind) && params.includes('website'), params.join(' '));
        const page = await adminGet(t, editor, `/${kind}s/new`);
        assert.equal(page.status, 200);
        assert.deepEqual(unplaced(params, idsOf(page.text), (param) => [param], notSent), []);

        const specs = fields((key: MessageKey) => key, 'editor');
        const filled = Object.fromEntries(specs.map((spec) => [spec.name, spec.kind === 'checkbox' ? '1' : 'x']));
        const sent = new Set([true, false].flatMap((creating) => Object.keys(recordParams(specs, filled, { creating, publish: true }))));
        assert.deepEqual(notSent.filter((param) => sent.has(param)), [], 'listed as never sent, but the form sends it');
        assert.deepEqual(notSent.filter((param) => !params.includes(param)), [], 'listed, but no longer a parameter of the routes');
      });
    }
  });
}
