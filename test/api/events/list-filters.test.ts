import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type Caller, type TestApp } from '../../helpers/test-app.ts';
import { EventsRepository } from '../../../src/storage/repositories/events-repository.ts';
import { clock, createEvent, EVENTS, eventOf, invalidParams, list, listedIds } from './fixtures.ts';

function q(params: Record<string, string | number>): string {
  return `?${new URLSearchParams(Object.entries(params).map(([key, value]) => [key, String(value)])).toString()}`;
}

// 10-events §4.1 (validation), §4.3 (filters), §4.4 (visibility), §4.5 (ordering).
for (const dialect of DIALECTS) {
  describe(`events: list filters [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock });
    });
    after(() => t.close());

    test('every invalid list parameter of §4.1 is a rest_invalid_param naming it', async () => {
      const event = await createEvent(t, 'editor', { venue: { venue: 'Validation Hall' }, organizer: [{ organizer: 'Validation Org' }] });
      const venueId = event.venue.id;
      const cases: Array<[string, string, Caller?]> = [
        ['page', '0'], ['page', '-1'], ['page', '1.5'], ['page', 'abc'], ['per_page', '0'], ['per_page', '-2'], ['per_page', 'ten'],
        ['start_date', ''], ['start_date', 'garbage'], ['end_date', 'someday'], ['starts_before', ''], ['starts_after', 'x'],
        ['ends_before', 'nope'], ['ends_after', '??'], ['strict_dates', ''], ['strict_dates', '0'], ['search', ''],
        ['categories', ''], ['categories', 'no-such-category'], ['categories', '999999'], ['tags', ''], ['tags', 'no-such-tag'],
        ['venue', ''], ['venue', String(event.id)], ['venue', 'abc'], ['venue', '999999'], ['organizer', ''], ['organizer', String(venueId)],
        ['featured', 'maybe'], ['status', 'draft'], ['status', 'Publish'], ['status', 'publish,draft'], ['status', ''],
        ['status', 'any', 'subscriber'], ['status', 'bogus', 'editor'], ['status', 'publish,bogus', 'author'], ['status', 'auto-draft', 'editor'],
        ['include', 'foo'], ['include', '0'], ['include', '-1'], ['include', ''], ['include', '3,x'], ['post_parent', '0'],
        ['post_parent', 'abc'], ['post_parent', String(venueId)], ['post_parent', '999999'], ['ticketed', 'true'], ['ticketed', 'sure'],
        ['geoloc', 'x'],
      ];
      for (const [name, value, as] of cases) {
        const res = await t.request('GET', `${EVENTS}${q({ [name]: value })}`, { as: as ?? 'visitor' });
        assert.deepEqual(invalidParams(res), [name], `${name}=${value} as ${as ?? 'visitor'}`);
      }
    });

    test('ticketed=true says ticketing is not active, with a coded detail', async () => {
      const res = await t.request('GET', `${EVENTS}?ticketed=1`);
      assert.equal(res.body.data.params.ticketed, 'Ticketing is not available on this site.');
      assert.equal(res.body.data.details.ticketed.code, 'event-tickets-not-active');
      const danish = await t.request('GET', `/da${EVENTS}?ticketed=1`);
      assert.notEqual(danish.body.data.params.ticketed, res.body.data.params.ticketed);
    });

    test('all validator failures are reported together', async () => {
      const res = await t.request('GET', `${EVENTS}?page=0&search=&status=draft&include=foo`);
      assert.deepEqual(invalidParams(res), ['include', 'page', 'search', 'status']);
    });

    test('accepted values without effect: geoloc* with geoloc off (70-geo §3.1), ticketed=false, post_parent of an existing event', async () => {
      const event = await createEvent(t, 'editor', { title: 'Noeffect Marker' });
      assert.deepEqual(await listedIds(t, '?search=noeffect&geoloc=0&geoloc_lat=45.1&geoloc_lng=anything&ticketed=false'), [event.id]);
      assert.deepEqual(await listedIds(t, `?search=noeffect&post_parent=${event.id}`), []);
    });

    test('search: every word in title, excerpt or description; phrases, exclusions, case-insensitive', async () => {
      const a = await createEvent(t, 'editor', { title: 'Zebra Concert', description: 'With Quagga strings' });
      const b = await createEvent(t, 'editor', { title: 'Zebra Lecture', excerpt: 'on quagga history' });
      const c = await createEvent(t, 'editor', { title: 'Okapi Concert', description: 'zebra crossing' });
      assert.deepEqual(await listedIds(t, '?search=ZEBRA'), [a.id, b.id, c.id]);
      assert.deepEqual(await listedIds(t, `?search=${encodeURIComponent('zebra quagga')}`), [a.id, b.id]);
      assert.deepEqual(await listedIds(t, `?search=${encodeURIComponent('zebra -lecture')}`), [a.id, c.id]);
      assert.deepEqual(await listedIds(t, `?search=${encodeURIComponent('"zebra crossing"')}`), [c.id]);
      assert.deepEqual(await listedIds(t, `?search=${encodeURIComponent('the zebra of quagga')}`), [a.id, b.id]);
      assert.deepEqual(await listedIds(t, '?search=100%25'), []);
    });

    test('categories: any of ids, slugs or names, descendants included; tags: any; both: AND', async () => {
      const parent = await t.request('POST', `${NS}/categories`, { as: 'editor', body: { name: 'Filter Parent' } });
      const child = await t.request('POST', `${NS}/categories`, { as: 'editor', body: { name: 'Filter Child', parent: parent.body.id } });
      assert.equal(child.status, 201, JSON.stringify(child.body));
      const inParent = await createEvent(t, 'editor', { categories: [parent.body.id], tags: 'filter-tag' });
      const inChild = await createEvent(t, 'editor', { categories: [child.body.id] });
      const other = await createEvent(t, 'editor', { categories: 'Filter Other', tags: 'filter-tag' });
      assert.deepEqual(await listedIds(t, `?categories=${parent.body.id}`), [inParent.id, inChild.id]);
      assert.deepEqual(await listedIds(t, '?categories=filter-child'), [inChild.id]);
      assert.deepEqual(await listedIds(t, `?categories=${encodeURIComponent('Filter Other')}`), [other.id]);
      assert.deepEqual(await listedIds(t, '?categories[]=filter-child&categories[]=filter-other'), [inChild.id, other.id]);
      assert.deepEqual(await listedIds(t, '?tags=filter-tag'), [inParent.id, other.id]);
      assert.deepEqual(await listedIds(t, '?tags=filter-tag&categories=filter-parent'), [inParent.id]);
    });

    test('a term-filtered list pages through the events it keeps of the unfiltered list, in its order, with its total, in every order', async () => {
      // Equal starts and a search, so that ties and the search decide as much as the term does.
      const starts = ['2025-04-20 10:00:00', '2025-04-15 09:00:00', '2025-04-20 10:00:00', '2025-05-02 18:00:00', '2025-04-15 09:00:00', '2025-06-01 12:00:00', '2025-04-20 10:00:00'];
      for (const [index, start] of starts.entries()) {
        await createEvent(t, 'editor', {
          title: index % 3 === 2 ? `Pagewalk other ${index}` : `Pagewalk ${index}`,
          start_date: start,
          end_date: start.replace(/ \d\d:/, ' 23:'),
          categories: index % 4 === 3 ? 'Pagewalk Elsewhere' : 'Pagewalk Kept',
          tags: index % 2 === 0 ? 'pagewalk-even' : 'pagewalk-odd',
        });
      }
      const walk = async (query: string) => {
        const first = await list(t, `${query}&per_page=2`);
        const ids: number[] = [];
        for (let page = 1; page <= first.total_pages + 1; page++) {
          const res = await t.request('GET', `${EVENTS}${query}&per_page=2&page=${page}`);
          if (page > first.total_pages) assert.equal(res.body.code, 'event-archive-page-not-found', `page ${page} of ${query} is beyond the last`);
          else ids.push(...res.body.events.map((event: { id: number }) => event.id));
        }
        assert.equal(ids.length, first.total, query);
        return ids;
      };
      for (const order of ['', '&order=desc', '&orderby=modified', '&orderby=date&order=desc']) {
        const everything = (await list(t, `?search=pagewalk&per_page=50${order}`)).events;
        const kept = (taxonomy: 'categories' | 'tags', slug: string, word = 'pagewalk') =>
          everything.filter((event: any) => event[taxonomy].some((term: any) => term.slug === slug) && event.title.toLowerCase().includes(word)).map((event: any) => event.id);
        assert.deepEqual(await walk(`?search=pagewalk&categories=pagewalk-kept${order}`), kept('categories', 'pagewalk-kept'), order);
        assert.deepEqual(await walk(`?search=other&categories=pagewalk-kept${order}`), kept('categories', 'pagewalk-kept', 'other'), order);
        assert.deepEqual(await walk(`?search=pagewalk&tags=pagewalk-even${order}`), kept('tags', 'pagewalk-even'), order);
        assert.deepEqual(await walk(`?search=pagewalk&tags=pagewalk-odd&categories=pagewalk-kept,pagewalk-elsewhere${order}`), kept('tags', 'pagewalk-odd'), order);
      }
      assert.equal((await list(t, '?search=nowhere-to-be-found&categories=pagewalk-kept')).total, 0);
    });

    test('a term-filtered page and its total: one statement on PostgreSQL; on SQLite the walk, and the count only when the walk stopped early', async () => {
      const at = (day: number) => ({ start_date: `2025-04-${day} 10:00:00`, end_date: `2025-04-${day} 11:00:00` });
      const shown = await createEvent(t, 'editor', { title: 'Onepass shown', categories: 'Onepass', ...at(10) });
      const other = await createEvent(t, 'editor', { title: 'Onepass other', categories: 'Onepass', ...at(11) });
      const page = '?categories=onepass&search=onepass&per_page=1';
      const whole = '?categories=onepass&search=onepass&per_page=5';
      assert.deepEqual(await listedIds(t, page), [shown.id]);
      // A retitle off the page: the search reads titles, so the page is listed again; the shown
      // event's parts, its term filter and the next scheduled publication are kept.
      const statementsOf = async (query: string, n: number) => {
        assert.equal((await t.request('POST', `${EVENTS}/${other.id}`, { as: 'editor', body: { title: `Onepass other renamed ${n}` } })).status, 200);
        const before = await t.queryCount();
        const listed = await list(t, query);
        return { listed: [listed.events.map((event: { id: number }) => event.id), listed.total], statements: (await t.queryCount()) - before };
      };
      // The page is full: the walk stopped before the window's end, and SQLite counts the rest.
      assert.deepEqual(await statementsOf(page, 1), { listed: [[shown.id], 2], statements: dialect === 'sqlite' ? 2 : 1 });
      // The walk reached the window's end: the page's rows are the total.
      assert.deepEqual(await statementsOf(whole, 2), { listed: [[shown.id, other.id], 2], statements: 1 });
    });

    // PostgreSQL reads a term-filtered page and its total in one statement, of one snapshot.
    if (dialect === 'sqlite') test('a term-filtered page walked on SQLite and its total are of one moment: a write sent meanwhile waits for both', async () => {
      const at = (day: number) => ({ start_date: `2025-06-${day} 10:00:00`, end_date: `2025-06-${day} 11:00:00` });
      const first = await createEvent(t, 'editor', { title: 'Snapshot one', categories: 'Snapshot', ...at(10) });
      await createEvent(t, 'editor', { title: 'Snapshot two', categories: 'Snapshot', ...at(11) });
      const joining = await createEvent(t, 'editor', { title: 'Snapshot three', ...at(12) });
      const category: number = first.categories[0].id;
      const events = new EventsRepository(t.storage.db, '2025-06-01 00:00:00');
      const filter = { statuses: ['publish'] as const, windowOnUtc: false, bounds: { start_date: '2025-06-01 00:00:00', end_date: '2025-06-30 23:59:59' }, categoryIds: [category] };
      // A full page of one: the walk stops early and a count follows, after the link below was sent.
      const listing = events.list(filter, 1, 1);
      const linking = t.storage.db.insertInto('event_terms').values({ event_id: joining.id, term_id: category, position: 0 }).execute();
      const [{ rows, total }] = await Promise.all([listing, linking]);
      assert.deepEqual([rows.map((row) => row.id), total], [[first.id], 2]);
      assert.equal((await events.list(filter, 1, 1)).total, 3);
    });

    test('a term-filtered window follows its events: a start moved out and back, terms relinked, occurrences of a series', async () => {
      const window = '&start_date=2025-05-01&end_date=2025-05-31';
      const moved = await createEvent(t, 'editor', { title: 'Startmove', categories: 'Startmove Kept', start_date: '2025-05-10 10:00:00', end_date: '2025-05-10 12:00:00' });
      const relinked = await createEvent(t, 'editor', { title: 'Startmove relinked', start_date: '2025-05-12 10:00:00', end_date: '2025-05-12 12:00:00' });
      assert.deepEqual(await listedIds(t, `?categories=startmove-kept${window}`), [moved.id]);
      const move = async (start: string) => {
        const res = await t.request('POST', `${EVENTS}/${moved.id}`, { as: 'editor', body: { start_date: start, end_date: start.replace(' 10:', ' 12:') } });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      };
      await move('2025-07-10 10:00:00');
      assert.deepEqual(await listedIds(t, `?categories=startmove-kept${window}`), []);
      assert.deepEqual(await listedIds(t, '?categories=startmove-kept&start_date=2025-07-01&end_date=2025-07-31'), [moved.id]);
      await move('2025-05-20 10:00:00');
      assert.equal((await t.request('POST', `${EVENTS}/${relinked.id}`, { as: 'editor', body: { categories: 'Startmove Kept', tags: 'startmove-tag' } })).status, 200);
      assert.deepEqual(await listedIds(t, `?categories=startmove-kept${window}`), [relinked.id, moved.id]);
      assert.deepEqual(await listedIds(t, `?tags=startmove-tag${window}`), [relinked.id]);
      const series = await t.request('POST', EVENTS, {
        as: 'editor',
        body: { title: 'Startmove weekly', start_date: '2025-05-05 18:00:00', end_date: '2025-05-05 20:00:00', categories: 'Startmove Series', recurrence: { rrule: 'FREQ=WEEKLY;COUNT=6' } },
      });
      assert.equal(series.status, 201, JSON.stringify(series.body));
      const starts = (await list(t, `?categories=startmove-series${window}`)).events.map((event: { start_date: string }) => event.start_date);
      assert.deepEqual(starts, ['2025-05-05 18:00:00', '2025-05-12 18:00:00', '2025-05-19 18:00:00', '2025-05-26 18:00:00']);
    });

    test('venue and organizer: events linked to any of the ids', async () => {
      const one = await createEvent(t, 'editor', { venue: { venue: 'Filter Hall One' }, organizer: [{ organizer: 'Filter Org One' }] });
      const two = await createEvent(t, 'editor', { venue: { venue: 'Filter Hall Two' }, organizer: [{ organizer: 'Filter Org Two' }] });
      const both = await createEvent(t, 'editor', { organizer: [one.organizer[0].id, two.organizer[0].id] });
      assert.deepEqual(await listedIds(t, `?venue=${one.venue.id}`), [one.id]);
      assert.deepEqual(await listedIds(t, `?venue=${one.venue.id},${two.venue.id}`), [one.id, two.id]);
      assert.deepEqual(await listedIds(t, `?organizer=${two.organizer[0].id}`), [two.id, both.id]);
      assert.deepEqual(await listedIds(t, `?organizer[0]=${one.organizer[0].id}&organizer[1]=${two.organizer[0].id}`), [one.id, two.id, both.id]);
    });

    test('a trashed venue or organizer no longer selects its events; restoring it does again', async () => {
      const event = await createEvent(t, 'editor', { venue: { venue: 'Trashfilter Hall' }, organizer: [{ organizer: 'Trashfilter Org' }] });
      const venue = event.venue.id;
      const organizer = event.organizer[0].id;
      assert.equal((await t.request('DELETE', `${NS}/venues/${venue}`, { as: 'editor' })).status, 200);
      assert.equal((await t.request('DELETE', `${NS}/organizers/${organizer}`, { as: 'editor' })).status, 200);
      assert.deepEqual(await listedIds(t, `?venue=${venue}`), []);
      assert.deepEqual(await listedIds(t, `?organizer=${organizer}`), []);
      await t.request('POST', `${NS}/venues/${venue}`, { as: 'editor', body: { status: 'publish' } });
      await t.request('POST', `${NS}/organizers/${organizer}`, { as: 'editor', body: { status: 'publish' } });
      assert.deepEqual(await listedIds(t, `?venue=${venue}`), [event.id]);
      assert.deepEqual(await listedIds(t, `?organizer=${organizer}`), [event.id]);
    });

    test('featured: true only featured, false only the others', async () => {
      const featured = await createEvent(t, 'editor', { title: 'Featmark A', featured: true });
      const plain = await createEvent(t, 'editor', { title: 'Featmark B' });
      assert.deepEqual(await listedIds(t, '?search=featmark&featured=true'), [featured.id]);
      assert.deepEqual(await listedIds(t, '?search=featmark&featured=0'), [plain.id]);
      assert.deepEqual(await listedIds(t, '?search=featmark'), [featured.id, plain.id]);
    });

    test('include: only those ids, ordered by publication date; other ids are simply not found', async () => {
      const late = await createEvent(t, 'editor', { date: '2025-03-30 10:00:00', start_date: '2025-04-10 10:00', end_date: '2025-04-10 11:00' });
      const early = await createEvent(t, 'editor', { date: '2025-03-01 10:00:00', start_date: '2025-04-20 10:00', end_date: '2025-04-20 11:00' });
      const withVenue = await createEvent(t, 'editor', { venue: { venue: 'Include Hall' } });
      assert.deepEqual(await listedIds(t, `?include=${late.id},${early.id},${withVenue.venue.id}`), [early.id, late.id]);
      assert.deepEqual(await listedIds(t, `?include[]=${late.id}`), [late.id]);
    });

    test('hidden events are never listed, not even with include, but stay reachable', async () => {
      const hidden = await createEvent(t, 'editor', { title: 'Hiddenmark', hide_from_listings: true });
      assert.deepEqual(await listedIds(t, '?search=hiddenmark', 'administrator'), []);
      assert.deepEqual(await listedIds(t, `?include=${hidden.id}`, 'administrator'), []);
      assert.equal((await t.request('GET', `${EVENTS}/${hidden.id}`)).status, 200);
    });

    test('visibility (§4.4): publish for visitors and subscribers, every non-trash status of everyone for editor-capable users', async () => {
      const statuses = ['publish', 'future', 'draft', 'pending', 'private', 'trash'];
      const ids: Record<string, number> = {};
      for (const status of statuses) {
        const extra = status === 'future' ? { date: '2025-06-01 10:00:00' } : {};
        ids[status] = (await eventOf(t, t.others.administrator, status, { title: `Vismark ${status}`, ...extra })).id;
      }
      const expectIds = (wanted: string[]) => wanted.map((status) => ids[status]);
      for (const as of ['visitor', 'subscriber'] as const) {
        assert.deepEqual(await listedIds(t, '?search=vismark', as), expectIds(['publish']), as);
        assert.deepEqual(await listedIds(t, '?search=vismark&status=publish', as), expectIds(['publish']), as);
      }
      const all = expectIds(['publish', 'future', 'draft', 'pending', 'private']);
      for (const as of ['contributor', 'author', 'editor', 'administrator'] as const) {
        assert.deepEqual((await listedIds(t, '?search=vismark', as)).sort(), all.sort(), as);
        assert.deepEqual((await listedIds(t, '?search=vismark&status=any', as)).sort(), all.sort(), as);
        assert.deepEqual((await listedIds(t, '?search=vismark&status=', as)).sort(), all.sort(), as);
      }
      assert.deepEqual(await listedIds(t, '?search=vismark&status=trash', 'contributor'), expectIds(['trash']));
      assert.deepEqual((await listedIds(t, `?search=vismark&status=${encodeURIComponent('draft , pending')}`, 'author')).sort(), expectIds(['draft', 'pending']).sort());
      assert.deepEqual((await listedIds(t, '?search=vismark&status[]=private&status[]=future', 'editor')).sort(), expectIds(['private', 'future']).sort());
    });

    test('ordering (§4.5): local start, then publication date, then id', async () => {
      const second = await createEvent(t, 'editor', { title: 'Ordermark 2', start_date: '2025-04-15 10:00', end_date: '2025-04-15 12:00', date: '2025-03-10 00:00:00' });
      const third = await createEvent(t, 'editor', { title: 'Ordermark 3', start_date: '2025-04-15 10:00', end_date: '2025-04-15 12:00', date: '2025-03-20 00:00:00' });
      const first = await createEvent(t, 'editor', { title: 'Ordermark 1', start_date: '2025-04-14 23:00', end_date: '2025-04-15 01:00', timezone: 'Asia/Tokyo' });
      const fourth = await createEvent(t, 'editor', { title: 'Ordermark 4', start_date: '2025-04-15 10:00', end_date: '2025-04-15 12:00', date: '2025-03-20 00:00:00' });
      const fifth = await createEvent(t, 'editor', { title: 'Ordermark 5', start_date: '2025-04-15 09:00', end_date: '2025-04-15 12:00', timezone: 'America/Los_Angeles' });
      // Fifth starts last in UTC (16:00) but at 09:00 on its own wall clock, which is what orders the list.
      assert.deepEqual(await listedIds(t, '?search=ordermark'), [first.id, fifth.id, second.id, third.id, fourth.id]);
      assert.equal((await list(t, '?search=ordermark')).total, 5);
    });
  });
}
