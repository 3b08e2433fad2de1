import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../../../src/app.ts';
import { openStorage } from '../../../src/storage/database.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createEvent, EVENTS } from './fixtures.ts';

// Through injection (the framework's caches) and over a socket (answers replayed in front of it too).
for (const [dialect, overHttp] of DIALECTS.flatMap((name) => [[name, false], [name, true]] as const)) {
  describe(`events: cached list pages stay true [${dialect}${overHttp ? ', over HTTP' : ''}]`, { skip: skipReason(dialect) }, () => {
    let now = new Date('2025-04-01T10:00:00Z');
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock: () => now, overHttp });
    });
    after(() => t.close());

    test('a repeated read of any list or event costs no query until something is written', async () => {
      const venue = await t.request('POST', `${NS}/venues`, { as: 'editor', body: { venue: 'Cachemark hall' } });
      const organizer = await t.request('POST', `${NS}/organizers`, { as: 'editor', body: { organizer: 'Cachemark crew' } });
      const event = await createEvent(t, 'editor', { title: 'Cachemark one', categories: ['Cachemark music'], tags: ['cachemark'], venue: venue.body.id, organizer: [organizer.body.id] });
      const reads = [
        `${EVENTS}?search=cachemark`,
        EVENTS,
        `${EVENTS}?categories=cachemark-music&search=cachemark&start_date=2025-01-01&end_date=2025-12-31`,
        `${EVENTS}?tags=cachemark`,
        `${EVENTS}/${event.id}`,
        `${EVENTS}/by-slug/${event.slug}`,
        `${NS}/venues`,
        `${NS}/venues?search=cachemark`,
        `${NS}/organizers`,
        `${NS}/categories`,
        `${NS}/tags?hide_empty=0`,
      ];
      const first = [];
      for (const url of reads) {
        const res = await t.request('GET', url);
        assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`);
        first.push(res.text);
      }
      const before = await t.queryCount();
      for (const [index, url] of reads.entries()) assert.equal((await t.request('GET', url)).text, first[index], url);
      assert.equal((await t.queryCount()) - before, 0);

      await createEvent(t, 'editor', { title: 'Cachemark two', categories: ['Cachemark music'] });
      assert.equal((await t.request('GET', `${EVENTS}?search=cachemark`)).body.total, 2);
      assert.equal((await t.request('GET', `${EVENTS}?categories=cachemark-music&search=cachemark&start_date=2025-01-01&end_date=2025-12-31`)).body.total, 2);
      const categories = (await t.request('GET', `${NS}/categories`)).body.categories;
      assert.equal(categories.find((term: any) => term.slug === 'cachemark-music').count, 2);
    });

    test('a write to a venue, an organizer or a term shows in the next read of its list and of the events embedding it', async () => {
      const venue = await t.request('POST', `${NS}/venues`, { as: 'editor', body: { venue: 'Renamemark hall' } });
      const event = await createEvent(t, 'editor', { title: 'Renamemark', venue: venue.body.id, categories: ['Renamemark'] });
      assert.equal((await t.request('GET', `${NS}/venues?search=renamemark`)).body.venues[0].venue, 'Renamemark hall');
      assert.equal((await t.request('GET', `${EVENTS}/${event.id}`)).body.venue.venue, 'Renamemark hall');
      await t.request('POST', `${NS}/venues/${venue.body.id}`, { as: 'editor', body: { venue: 'Renamemark house' } });
      assert.equal((await t.request('GET', `${NS}/venues?search=renamemark`)).body.venues[0].venue, 'Renamemark house');
      assert.equal((await t.request('GET', `${EVENTS}/${event.id}`)).body.venue.venue, 'Renamemark house');
      const category = event.categories[0];
      assert.equal((await t.request('GET', `${NS}/categories/${category.id}`)).body.name, 'Renamemark');
      await t.request('POST', `${NS}/categories/${category.id}`, { as: 'administrator', body: { name: 'Renamemark two' } });
      assert.equal((await t.request('GET', `${NS}/categories?search=renamemark`)).body.categories[0].name, 'Renamemark two');
      assert.equal((await t.request('GET', `${EVENTS}/${event.id}`)).body.categories[0].name, 'Renamemark two');
    });

    test('a cached event is still refused to those who may not read it, and a trashed one stops being served', async () => {
      const draft = await createEvent(t, 'editor', { title: 'Draftmark', status: 'draft' });
      assert.equal((await t.request('GET', `${EVENTS}/${draft.id}`, { as: 'editor' })).status, 200);
      assert.equal((await t.request('GET', `${EVENTS}/${draft.id}`)).status, 403);
      assert.equal((await t.request('GET', `${EVENTS}/${draft.id}`, { as: 'editor' })).status, 200);
      const shown = await createEvent(t, 'editor', { title: 'Trashmark' });
      assert.equal((await t.request('GET', `${EVENTS}/${shown.id}`)).status, 200);
      await t.request('DELETE', `${EVENTS}/${shown.id}`, { as: 'editor' });
      assert.equal((await t.request('GET', `${EVENTS}/${shown.id}`)).status, 403);
    });

    test('a write through another instance on the same database shows in the very next read', async () => {
      const other = await openStorage(t.config.databaseUrl);
      const otherApp = await buildApp({ config: t.config, storage: other, clock: () => now, logger: false });
      try {
        assert.equal((await t.request('GET', `${EVENTS}?search=crossmark`)).body.total, 0);
        const created = await otherApp.inject({
          method: 'POST', url: EVENTS,
          headers: { authorization: t.authHeader(t.users.editor), 'content-type': 'application/json' },
          payload: JSON.stringify({ title: 'Crossmark', start_date: '2025-04-12 19:30', end_date: '2025-04-12 22:00' }),
        });
        assert.equal(created.statusCode, 201);
        assert.equal((await t.request('GET', `${EVENTS}?search=crossmark`)).body.total, 1);
      } finally {
        await otherApp.close();
        await other.close();
      }
    });

    test('a scheduled event appears once its publication instant passes, cache or not', async () => {
      await createEvent(t, 'editor', { title: 'Schedmark', date: '2025-04-01 12:00:00' });
      assert.equal((await t.request('GET', `${EVENTS}?search=schedmark`)).body.total, 0);
      assert.equal((await t.request('GET', `${EVENTS}?search=schedmark`)).body.total, 0);
      now = new Date('2025-04-01T12:00:01Z');
      const listed = await t.request('GET', `${EVENTS}?search=schedmark`);
      assert.equal(listed.body.total, 1);
      assert.equal(listed.body.events[0].status, 'publish');
    });

    test('an update that cannot change a list page leaves it cached; one that can shows in the next read', async () => {
      const at = (day: number) => ({ start_date: `2025-04-${day} 10:00:00`, end_date: `2025-04-${day} 11:00:00` });
      const created = [];
      for (const [title, day] of [['Keepmark one', 20], ['Keepmark two', 21], ['Keepmark three', 22]] as const) {
        created.push(await createEvent(t, 'editor', { title, categories: ['Keepmark'], venue: { venue: `${title} hall` }, ...at(day) }));
      }
      const [one, two, three] = created;
      const update = async (id: number, body: Record<string, unknown>) => assert.equal((await t.request('POST', `${EVENTS}/${id}`, { as: 'editor', body })).status, 200);
      const page = `${EVENTS}?categories=keepmark&per_page=2`;
      const ids = async (url: string) => (await t.request('GET', url)).body.events.map((event: { id: number }) => event.id);
      const shown = await t.request('GET', page);
      assert.deepEqual(shown.body.events.map((event: { id: number }) => event.id), [one.id, two.id]);

      const single = await t.request('GET', `${EVENTS}/${one.id}`);

      // Off the page, in columns the list neither filters nor orders by.
      await update(three.id, { title: 'Keepmark three renamed', cost: '12', website: 'https://keepmark.example' });
      const queries = await t.queryCount();
      assert.equal((await t.request('GET', page)).text, shown.text);
      // Another event's answer too: the update moved no count of the category it embeds.
      assert.equal((await t.request('GET', `${EVENTS}/${one.id}`)).text, single.text);
      // The page was kept, and so was the next scheduled publication: no query.
      assert.equal((await t.queryCount()) - queries, 0);
      assert.equal((await t.request('GET', `${page}&page=2`)).body.events[0].title, 'Keepmark three renamed');

      // On the page (and its single read, cached before).
      assert.equal((await t.request('GET', `${EVENTS}/${two.id}`)).body.title, 'Keepmark two');
      await update(two.id, { title: 'Keepmark two renamed' });
      assert.equal((await t.request('GET', page)).body.events[1].title, 'Keepmark two renamed');
      assert.equal((await t.request('GET', `${EVENTS}/${two.id}`)).body.title, 'Keepmark two renamed');
      // Off the page, onto it by its start.
      await update(three.id, at(19));
      assert.deepEqual(await ids(page), [three.id, one.id]);
      // A write nobody described, right after one that was: the page is rendered again.
      await update(two.id, { cost: '14' });
      await t.request('POST', `${NS}/venues/${one.venue.id}`, { as: 'editor', body: { venue: 'Keepmark one house' } });
      assert.equal((await t.request('GET', page)).body.events[1].venue.venue, 'Keepmark one house');
      // A search reads the titles.
      const searched = `${EVENTS}?search=keepmarkfound`;
      assert.equal((await t.request('GET', searched)).body.total, 0);
      await update(two.id, { title: 'Keepmarkfound two' });
      assert.equal((await t.request('GET', searched)).body.total, 1);
      // Modification bounds and order read the modification time.
      const since = `${EVENTS}?categories=keepmark&modified_after=${encodeURIComponent('2025-04-01 13:00:00')}`;
      const byModified = `${EVENTS}?categories=keepmark&orderby=modified&order=desc&per_page=1`;
      assert.equal((await t.request('GET', since)).body.total, 0);
      const newest = await ids(byModified);
      now = new Date('2025-04-01T13:30:00Z');
      await update(one.id, { excerpt: 'Keepmark, edited later' });
      assert.deepEqual(await ids(since), [one.id]);
      assert.notDeepEqual(newest, [one.id]);
      assert.deepEqual(await ids(byModified), [one.id]);
      // A described write of a publication date moves the next scheduled publication with it.
      const scheduled = await createEvent(t, 'editor', { title: 'Pubmark', date: '2025-04-01 16:00:00' });
      const published = `${EVENTS}?search=pubmark`;
      assert.equal((await t.request('GET', published)).body.total, 0);
      await update(scheduled.id, { date: '2025-04-01 15:00:00' });
      assert.equal((await t.request('GET', published)).body.total, 0);
      now = new Date('2025-04-01T15:00:01Z');
      assert.equal((await t.request('GET', published)).body.total, 1);
    });

    test("an event's terms, venue and organizers are read once across its updates and the pages showing it, and stay true", async () => {
      const venue = await t.request('POST', `${NS}/venues`, { as: 'editor', body: { venue: 'Partmark hall' } });
      const organizer = await t.request('POST', `${NS}/organizers`, { as: 'editor', body: { organizer: 'Partmark crew' } });
      const at = { start_date: '2025-05-01 10:00:00', end_date: '2025-05-01 11:00:00' };
      const one = await createEvent(t, 'editor', { title: 'Partmark one', categories: ['Partmark'], venue: venue.body.id, organizer: [organizer.body.id], ...at });
      const two = await createEvent(t, 'editor', { title: 'Partmark two', categories: ['Partmark'], ...at });
      const update = async (id: number, body: Record<string, unknown>) => {
        const before = await t.queryCount();
        const res = await t.request('POST', `${EVENTS}/${id}`, { as: 'editor', body });
        assert.equal(res.status, 200, res.text);
        return { body: res.body, queries: (await t.queryCount()) - before };
      };
      const read = async (url: string) => {
        const before = await t.queryCount();
        const res = await t.request('GET', url);
        return { body: res.body, queries: (await t.queryCount()) - before };
      };
      const shows = (answer: any, venueName: string, count: number) => {
        assert.equal(answer.venue.venue, venueName);
        assert.equal(answer.organizer[0].organizer, 'Partmark crew');
        assert.deepEqual(answer.categories.map((term: { name: string; count: number }) => [term.name, term.count]), [['Partmark', count]]);
      };

      const cold = await update(one.id, { title: 'Partmark one a' });
      const warm = await update(one.id, { title: 'Partmark one b' });
      // Its terms, venue and organizers: three reads fewer (one statement on PostgreSQL).
      const partsQueries = dialect === 'postgres' ? 1 : 3;
      assert.ok(warm.queries <= cold.queries - partsQueries, `${cold.queries} queries, then ${warm.queries}`);
      shows(warm.body, 'Partmark hall', 2);
      // A page re-rendered after the retitle of an event it shows: that event's parts are kept.
      const page = `${EVENTS}?search=partmark`;
      const rendered = await read(page);
      assert.equal(rendered.body.total, 2);
      await update(one.id, { title: 'Partmark one c' });
      const again = await read(page);
      // The other event's parts were read by the first render: the second reads only rows and count.
      assert.ok(again.queries <= rendered.queries - Math.min(partsQueries, 2), `${rendered.queries} queries, then ${again.queries}`);
      shows(again.body.events.find((event: { id: number }) => event.id === one.id), 'Partmark hall', 2);

      // Another event's move to draft changes the category's count: no part is kept through it.
      await update(two.id, { status: 'draft' });
      shows((await update(one.id, { title: 'Partmark one d' })).body, 'Partmark hall', 1);
      shows((await read(`${EVENTS}/${one.id}`)).body, 'Partmark hall', 1);
      // Nor through a write of the venue (described by nobody).
      await t.request('POST', `${NS}/venues/${venue.body.id}`, { as: 'editor', body: { venue: 'Partmark house' } });
      shows((await update(one.id, { title: 'Partmark one e' })).body, 'Partmark house', 1);
      shows((await read(page)).body.events[0], 'Partmark house', 1);
    });

    test('_fields and _envelope still reshape a cached page', async () => {
      await t.request('GET', EVENTS);
      const fields = await t.request('GET', `${EVENTS}?_fields=total`);
      assert.deepEqual(Object.keys(fields.body), ['total']);
      const enveloped = await t.request('GET', `${EVENTS}?_envelope=1`);
      assert.equal(enveloped.body.status, 200);
      assert.ok(Array.isArray(enveloped.body.body.events));
    });
  });
}
