import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { ORGANIZERS, VENUES, createLinked, insertEvent, manualClock } from './support.ts';

const BASE = 'http://calendar.test/calendar/events/v1';

// 20 §5.4-§5.6: search, status visibility, event-based filters.
for (const dialect of DIALECTS) {
  describe(`venue/organizer list filters [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    const clock = manualClock('2026-06-15T12:00:00Z');
    before(async () => {
      t = await startTestApp(dialect, { clock: clock.clock });
    });
    after(() => t.close());

    const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
    const listIds = async (url: string, as: Parameters<TestApp['request']>[2] extends infer O ? O extends { as?: infer A } ? A : never : never = 'visitor') => {
      const res = await t.request('GET', url, { as });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return sorted(res.body[url.includes('/organizers') ? 'organizers' : 'venues'].map((item: any) => item.id));
    };

    describe('search', () => {
      let temple: any;
      let zurich: any;
      let ile: any;
      let countryOnly: any;
      before(async () => {
        temple = await createLinked(t, VENUES, 'administrator', 'Qsx Hall', { address: '100, Avenue du Temple' });
        zurich = await createLinked(t, VENUES, 'administrator', 'Qsx Zürich Café', { city: 'Zürich' });
        ile = await createLinked(t, VENUES, 'administrator', 'Qsx Isle', { stateprovince: 'Ile de France', zip: '75000' });
        countryOnly = await createLinked(t, VENUES, 'administrator', 'Qsx Country', { country: 'Templeland', website: 'http://temple.example' });
      });

      test('a field matches when it holds every piece, in any order, case-insensitively', async () => {
        assert.deepEqual(await listIds(`${NS}/venues?search=TEMPLE%20avenue`), [temple.id]);
        assert.deepEqual(await listIds(`${NS}/venues?search=${encodeURIComponent('france, ile de')}`), [ile.id]);
      });

      test('non-ASCII letters split the term', async () => {
        assert.deepEqual(await listIds(`${NS}/venues?search=${encodeURIComponent('Zürich')}`), [zurich.id]);
      });

      test('any searchable field may match (OR); country and website are not searched', async () => {
        assert.deepEqual(await listIds(`${NS}/venues?search=qsx`), sorted([temple.id, zurich.id, ile.id, countryOnly.id]));
        assert.deepEqual(await listIds(`${NS}/venues?search=templeland`), []);
        assert.deepEqual(await listIds(`${NS}/venues?search=75000`), [ile.id]);
      });

      test('organizers are searched in name, description, phone, e-mail and website', async () => {
        const org = await createLinked(t, ORGANIZERS, 'administrator', 'Qsy Org', { email: 'boss@qsy-mail.example', website: 'http://qsy-site.example', phone: '+39 555', description: 'Runs the jazzfest' });
        for (const term of ['qsy-mail', 'qsy-site', '555', 'jazzfest', 'QSY']) {
          assert.deepEqual(await listIds(`${NS}/organizers?search=${term}`), [org.id], term);
        }
      });

      test('trashed records never match, even with status=trash', async () => {
        const gone = await createLinked(t, VENUES, 'administrator', 'Qsz Gone');
        await t.request('DELETE', `${NS}/venues/${gone.id}`, { as: 'administrator' });
        assert.deepEqual(await listIds(`${NS}/venues?search=qsz&status=trash`, 'administrator'), []);
      });

      test('no matches: empty list, totals 0, no links; a term without letters or digits matches nothing', async () => {
        const res = await t.request('GET', `${NS}/venues?search=nomatchanywhere`);
        assert.deepEqual(res.body, { venues: [], rest_url: `${BASE}/venues/?page=1&per_page=10&search=nomatchanywhere&status=publish`, total: 0, total_pages: 0 });
        assert.deepEqual(await listIds(`${NS}/venues?search=${encodeURIComponent('!!')}`), []);
      });

      test('an empty search is 400; links keep the search', async () => {
        const empty = await t.request('GET', `${NS}/venues?search=`);
        assert.equal(empty.status, 400);
        assert.deepEqual(Object.keys(empty.body.data.params), ['search']);
        const res = await t.request('GET', `${NS}/venues?search=qsx&per_page=2`);
        assert.equal(res.body.next_rest_url, `${BASE}/venues/?per_page=2&search=qsx&status=publish&page=2`);
      });
    });

    describe('status', () => {
      let draft: any;
      let pending: any;
      let priv: any;
      let trashed: any;
      let published: any;
      before(async () => {
        published = await createLinked(t, ORGANIZERS, 'administrator', 'Stz Published');
        draft = await createLinked(t, ORGANIZERS, 'author', 'Stz Draft', { status: 'draft' });
        pending = await createLinked(t, ORGANIZERS, 'contributor', 'Stz Pending', { status: 'pending' });
        priv = await createLinked(t, ORGANIZERS, 'editor', 'Stz Private', { status: 'private' });
        trashed = await createLinked(t, ORGANIZERS, 'administrator', 'Stz Trashed');
        await t.request('DELETE', `${NS}/organizers/${trashed.id}`, { as: 'administrator' });
      });

      test('visitors and subscribers see published records only and may ask only for exactly publish', async () => {
        for (const as of ['visitor', 'subscriber'] as const) {
          assert.deepEqual(await listIds(`${NS}/organizers?search=stz`, as), [published.id]);
          assert.deepEqual(await listIds(`${NS}/organizers?search=stz&status=publish`, as), [published.id]);
          for (const bad of ['draft', 'Publish', 'publish,draft', '', 'any']) {
            const res = await t.request('GET', `${NS}/organizers?status=${bad}`, { as });
            assert.equal(res.status, 400, `${as} status=${bad}`);
            assert.deepEqual(Object.keys(res.body.data.params), ['status']);
          }
        }
      });

      test('contributors and up see every status but trash of every author by default; links say status=any', async () => {
        for (const as of ['contributor', 'author', 'editor', 'administrator'] as const) {
          assert.deepEqual(await listIds(`${NS}/organizers?search=stz`, as), sorted([published.id, draft.id, pending.id, priv.id]), as);
        }
        const res = await t.request('GET', `${NS}/organizers?search=stz`, { as: 'contributor' });
        assert.equal(res.body.rest_url, `${BASE}/organizers/?page=1&per_page=10&search=stz&status=any`);
      });

      test('a comma list (spaces allowed), an array, trash, any and an empty value are accepted; unknown statuses are 400', async () => {
        assert.deepEqual(await listIds(`${NS}/organizers?search=stz&status=draft%2C%20pending`, 'author'), sorted([draft.id, pending.id]));
        // Without search: a search never matches trashed records.
        const privateOrTrash = await listIds(`${NS}/organizers?status[]=private&status[]=trash&per_page=50`, 'author');
        assert.ok(privateOrTrash.includes(priv.id) && privateOrTrash.includes(trashed.id) && !privateOrTrash.includes(draft.id));
        assert.deepEqual(await listIds(`${NS}/organizers?search=stz&status=any`, 'contributor'), sorted([published.id, draft.id, pending.id, priv.id]));
        assert.deepEqual(await listIds(`${NS}/organizers?search=stz&status=`, 'contributor'), sorted([published.id, draft.id, pending.id, priv.id]));
        const linkRes = await t.request('GET', `${NS}/organizers?search=stz&status=draft%2C%20pending`, { as: 'author' });
        assert.equal(linkRes.body.rest_url, `${BASE}/organizers/?page=1&per_page=10&search=stz&status=draft%2Cpending`);
        for (const bad of ['auto-draft', 'publish,bogus', 'inherit']) {
          const res = await t.request('GET', `${NS}/organizers?status=${bad}`, { as: 'editor' });
          assert.equal(res.status, 400, bad);
        }
      });
    });

    describe('event-based filters', () => {
      let vPast: any; let vUpcoming: any; let vDraftEvent: any; let vNone: any; let vDraft: any; let vTrashEvent: any; let vPrivateEvent: any;
      let oA: any; let oB: any; let oC: any;
      let upcomingEvent: number;
      let futureDraftEvent: number;
      before(async () => {
        vPast = await createLinked(t, VENUES, 'administrator', 'Evf Past');
        vUpcoming = await createLinked(t, VENUES, 'administrator', 'Evf Upcoming');
        vDraftEvent = await createLinked(t, VENUES, 'administrator', 'Evf Draft Event');
        vNone = await createLinked(t, VENUES, 'administrator', 'Evf None');
        vDraft = await createLinked(t, VENUES, 'contributor', 'Evf Draft Venue');
        vTrashEvent = await createLinked(t, VENUES, 'administrator', 'Evf Trash Event');
        vPrivateEvent = await createLinked(t, VENUES, 'administrator', 'Evf Private Event');
        oA = await createLinked(t, ORGANIZERS, 'administrator', 'Evf Org A');
        oB = await createLinked(t, ORGANIZERS, 'administrator', 'Evf Org B');
        oC = await createLinked(t, ORGANIZERS, 'administrator', 'Evf Org C');
        await insertEvent(t, { startUtc: '2026-01-01 10:00:00', venueId: vPast.id, organizerIds: [oA.id] });
        upcomingEvent = await insertEvent(t, { startUtc: '2026-07-01 10:00:00', venueId: vUpcoming.id, organizerIds: [oB.id, oA.id] });
        futureDraftEvent = await insertEvent(t, { status: 'draft', startUtc: '2026-07-01 10:00:00', venueId: vDraftEvent.id, organizerIds: [oC.id] });
        await insertEvent(t, { status: 'trash', startUtc: '2026-07-01 10:00:00', venueId: vTrashEvent.id });
        await insertEvent(t, { status: 'private', startUtc: '2026-07-01 10:00:00', venueId: vPrivateEvent.id });
        await insertEvent(t, { startUtc: '2026-07-01 10:00:00', venueId: vDraft.id });
      });

      test('event=E lists the records linked to E, still limited by status visibility', async () => {
        assert.deepEqual(await listIds(`${NS}/organizers?event=${upcomingEvent}`), sorted([oA.id, oB.id]));
        assert.deepEqual(await listIds(`${NS}/venues?event=${upcomingEvent}`), [vUpcoming.id]);
        assert.deepEqual(await listIds(`${NS}/venues?event=${futureDraftEvent}`), [vDraftEvent.id], 'the event status does not matter');
        const draftVenueEvent = (await t.storage.db.selectFrom('events').select('id').where('venue_id', '=', vDraft.id).executeTakeFirstOrThrow()).id;
        assert.deepEqual(await listIds(`${NS}/venues?event=${draftVenueEvent}`), [], 'a draft venue stays hidden from visitors');
        assert.deepEqual(await listIds(`${NS}/venues?event=${draftVenueEvent}`, 'editor'), [vDraft.id]);
        const res = await t.request('GET', `${NS}/venues?event=${upcomingEvent}`);
        assert.equal(res.body.rest_url, `${BASE}/venues/?page=1&per_page=10&event=${upcomingEvent}&status=publish`);
      });

      test('event must be an existing event: unknown ids, venue ids and text are 400', async () => {
        for (const bad of ['999999', String(vPast.id), 'foo']) {
          const res = await t.request('GET', `${NS}/venues?event=${bad}`);
          assert.equal(res.status, 400, bad);
          assert.deepEqual(Object.keys(res.body.data.params), ['event']);
        }
      });

      test('has_events truthy: linked from a published, scheduled or private event; draft, pending and trashed events do not count', async () => {
        for (const value of ['1', 'true', 'YES', 'on', 'enabled']) {
          assert.deepEqual(await listIds(`${NS}/venues?search=evf&has_events=${value}`, 'editor'), sorted([vPast.id, vUpcoming.id, vPrivateEvent.id, vDraft.id]), value);
        }
        const res = await t.request('GET', `${NS}/venues?search=evf&has_events=yes`);
        assert.equal(res.body.rest_url, `${BASE}/venues/?page=1&per_page=10&search=evf&has_events=yes&status=publish`);
      });

      test('has_events falsy: every record not linked from a counted event', async () => {
        for (const value of ['0', 'false', '', 'nope']) {
          assert.deepEqual(await listIds(`${NS}/venues?search=evf&has_events=${value}`, 'editor'), sorted([vDraftEvent.id, vNone.id, vTrashEvent.id]), value);
          assert.deepEqual(await listIds(`${NS}/organizers?search=evf&has_events=${value}`, 'editor'), [oC.id], value);
        }
      });

      test('only_with_upcoming: linked from an event starting at or after now, in the list status set; falsy = no filter', async () => {
        assert.deepEqual(await listIds(`${NS}/venues?search=evf&only_with_upcoming=1`), [vUpcoming.id]);
        assert.deepEqual(await listIds(`${NS}/venues?search=evf&only_with_upcoming=1`, 'editor'), sorted([vUpcoming.id, vDraftEvent.id, vPrivateEvent.id, vDraft.id]));
        assert.deepEqual(await listIds(`${NS}/venues?search=evf&only_with_upcoming=1&status=publish`, 'editor'), [vUpcoming.id]);
        assert.deepEqual(await listIds(`${NS}/organizers?search=evf&only_with_upcoming=true`), sorted([oA.id, oB.id]));
        assert.equal((await listIds(`${NS}/venues?search=evf&only_with_upcoming=0`)).length, 6);
        const res = await t.request('GET', `${NS}/venues?search=evf&only_with_upcoming=1`);
        assert.equal(res.body.rest_url, `${BASE}/venues/?page=1&per_page=10&search=evf&only_with_upcoming=1&status=publish`);
        clock.set('2026-07-01T10:00:00Z');
        assert.deepEqual(await listIds(`${NS}/venues?search=evf&only_with_upcoming=1`), [vUpcoming.id], 'starting exactly now counts');
        clock.set('2026-07-01T10:00:01Z');
        assert.deepEqual(await listIds(`${NS}/venues?search=evf&only_with_upcoming=1`), [], 'ongoing events do not count');
        clock.set('2026-06-15T12:00:00Z');
      });

      test('filters combine with AND', async () => {
        assert.deepEqual(await listIds(`${NS}/organizers?event=${upcomingEvent}&search=org%20b`), [oB.id]);
      });
    });
  });
}
