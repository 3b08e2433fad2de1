import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { runImport } from './support.ts';

/** A reference-shaped event (10-events §3), with the members the import reads. */
function event(id: number, fields: Record<string, unknown>): Record<string, unknown> {
  return {
    id, global_id: `site.example?id=${id}`, author: '1', status: 'publish',
    date: '2024-01-10 09:00:00', date_utc: '2024-01-10 08:00:00', modified: '2024-02-01 10:00:00', modified_utc: '2024-02-01 09:00:00',
    url: `https://site.example/event/e${id}/`, rest_url: `https://site.example/wp-json/tribe/events/v1/events/${id}`,
    title: `Event ${id}`, description: `<p>About event ${id}</p>\n`, excerpt: '', slug: `e${id}`, image: false,
    all_day: false, start_date: '2030-05-01 10:00:00', end_date: '2030-05-01 12:00:00',
    utc_start_date: '2030-05-01 10:00:00', utc_end_date: '2030-05-01 12:00:00', timezone: 'UTC', timezone_abbr: 'UTC',
    cost: '', cost_details: { currency_symbol: '', currency_position: '', values: [] }, website: '',
    show_map: true, show_map_link: true, hide_from_listings: false, sticky: false, featured: false,
    categories: [], tags: [], venue: [], organizer: [],
    ...fields,
  };
}

const term = (id: number, name: string, slug: string, parent: number, taxonomy = 'tribe_events_cat') => ({ id, name, slug, taxonomy, description: '', parent, count: 0 });

const CATEGORIES = [
  // The child comes first, its parent on the second page; the third names a parent the source does not list.
  [term(11, 'Jazz', 'jazz', 12), term(13, 'Stray', 'stray', 99)],
  [term(12, 'Music', 'music', 0)],
];
const VENUE = { id: 21, status: 'publish', modified_utc: '2024-01-01 00:00:00', venue: 'Harbour Stage', slug: 'harbour-stage', address: 'Pier 4', city: 'Copenhagen', country: 'Denmark', show_map: true, show_map_link: false };
const TRASHED_VENUE = { id: 22, venue: 'Old Barn', slug: 'old-barn' };
const PROTECTED = event(35, { title: 'Members only', slug: 'members-only', description: '<p>The secret agenda</p>\n', featured: true, cost: '$10', cost_details: { currency_symbol: '$', currency_position: 'prefix', values: ['10'] } });

const EVENTS = [
  event(31, { title: 'Harbour Jazz', timezone: 'Europe/Copenhagen', start_date: '2030-06-01 20:00:00', end_date: '2030-06-01 23:00:00', utc_start_date: '2030-06-01 18:00:00', utc_end_date: '2030-06-01 21:00:00', venue: VENUE, categories: [CATEGORIES[0][0]] }),
  event(32, { title: 'Sunrise Yoga', timezone: 'America/Los_Angeles', start_date: '2030-07-04 06:00:00', end_date: '2030-07-04 07:00:00', utc_start_date: '2030-07-04 13:00:00', utc_end_date: '2030-07-04 14:00:00' }),
  // The source's UTC values do not match its wall clock and zone (India has no DST: 10:30 is 05:00 UTC).
  event(33, { title: 'Tea Ceremony', timezone: 'Asia/Kolkata', start_date: '2030-08-01 10:30:00', end_date: '2030-08-01 11:30:00', utc_start_date: '2030-08-01 04:00:00', utc_end_date: '2030-08-01 05:00:00' }),
  event(34, { title: 'Book Fair', all_day: true, start_date: '2030-09-10 00:00:00', end_date: '2030-09-12 23:59:59', utc_start_date: '2030-09-10 00:00:00', utc_end_date: '2030-09-12 23:59:59', venue: { ...TRASHED_VENUE } }),
  { ...PROTECTED, description: '', excerpt: '', image: false, all_day: null, cost: '', website: '', show_map: null, show_map_link: null, hide_from_listings: null, sticky: null, featured: null, categories: [], tags: [], venue: [], organizer: [] },
  event(36, { title: 'Quiet Hour', hide_from_listings: true }),
  event(37, { title: 'Weekly Choir', post_parent: 36, start_date: '2030-10-01 18:00:00', end_date: '2030-10-01 19:00:00', utc_start_date: '2030-10-01 18:00:00', utc_end_date: '2030-10-01 19:00:00' }),
  event(38, { title: 'Weekly Choir', slug: 'weekly-choir-2', post_parent: 36, start_date: '2030-10-08 18:00:00', end_date: '2030-10-08 19:00:00', utc_start_date: '2030-10-08 18:00:00', utc_end_date: '2030-10-08 19:00:00' }),
];

interface Fixture {
  url: string;
  server: Server;
  requests: Array<{ path: string; authorized: boolean }>;
}

/**
 * A node:http server answering like a WordPress site with the reference plugin. `failing`: the
 * first tags request answers 503 (a retry succeeds), organizers always answer 500.
 */
function fixtureServer(options: { failing?: boolean } = {}): Promise<Fixture> {
  const requests: Fixture['requests'] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fixture');
    requests.push({ path: url.pathname + url.search, authorized: request.headers.authorization !== undefined });
    const json = (body: unknown, status = 200) => response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(body));
    if (options.failing && url.pathname.endsWith('/organizers')) return json({ code: 'internal_server_error', message: 'Fatal error', data: { status: 500 } }, 500);
    if (options.failing && url.pathname.endsWith('/tags') && requests.filter((seen) => seen.path.includes('/tags')).length === 1) {
      return json({ code: 'unavailable', message: 'Busy', data: { status: 503 } }, 503);
    }
    const ns = '/wp-json/tribe/events/v1';
    const page = Number(url.searchParams.get('page') ?? '1');
    const list = (key: string, pages: unknown[][]) => json({ [key]: pages[page - 1] ?? [], total: pages.flat().length, total_pages: pages.length });
    switch (url.pathname.replace(/\/$/, '')) {
      case '/wp-json': return json({ name: 'Site', namespaces: ['oembed/1.0', 'tribe/events/v1', 'wp/v2'] });
      case ns: return json({ namespace: 'tribe/events/v1', routes: {} });
      case `${ns}/categories`: return list('categories', CATEGORIES);
      case `${ns}/tags`: return list('tags', [[term(15, 'Free', 'free', 0, 'post_tag')]]);
      case `${ns}/venues`: return list('venues', [[VENUE]]);
      case `${ns}/organizers`: return list('organizers', [[]]);
      case `${ns}/events`: return list('events', [EVENTS]);
      case `${ns}/events/35`: return url.searchParams.get('context') === 'edit' ? json(PROTECTED) : json({ code: 'event-password-protected', message: 'Protected', data: { status: 403 } }, 403);
      default: return json({ code: 'rest_no_route', message: 'No route', data: { status: 404 } }, 404);
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, requests })));
}

/** 90 §3 row 4: reference-shaped JSON replayed by a fixture server. */
for (const dialect of DIALECTS) {
  describe(`calendar import site from a reference-shaped fixture [${dialect} target]`, { skip: skipReason(dialect) }, () => {
    let fixture: Fixture;
    let target: TestApp;
    let report: any;
    const events = new Map<string, any>();
    before(async () => {
      fixture = await fixtureServer();
      target = await startTestApp(dialect);
      const run = await runImport(target.config.databaseUrl, [fixture.url, '--user', 'editor', '--password', 'xxxx xxxx', '--allow-private', '--json']);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      report = run.report;
      const rows = await target.storage.db.selectFrom('import_records').selectAll().where('kind', '=', 'event').execute();
      for (const row of rows) {
        const res = await target.request('GET', `${NS}/events/${row.local_id}?context=edit`, { as: 'administrator' });
        events.set(res.body.title + (res.body.slug === 'weekly-choir-2' ? ' 2' : ''), res.body);
      }
    });
    after(async () => {
      fixture?.server.close();
      await target?.close();
    });

    test('the site is discovered from /wp-json/ and every request is signed; lists ask for every status', () => {
      assert.equal(report.source, `${fixture.url}/wp-json/tribe/events/v1`);
      assert.deepEqual([report.source_kind, report.source_kind_evidence], ['wordpress', `GET ${fixture.url}/wp-json/tribe/events/v1/changes answered no change feed`]);
      assert.ok(fixture.requests.every((request) => request.authorized));
      for (const collection of ['venues', 'organizers', 'events']) {
        const listed = fixture.requests.filter((request) => request.path.startsWith(`/wp-json/tribe/events/v1/${collection}?`));
        assert.ok(listed.length > 0 && listed.every((request) => request.path.includes('status=any')), collection);
      }
      assert.ok(fixture.requests.some((request) => request.path.startsWith('/wp-json/tribe/events/v1/categories?') && request.path.includes('hide_empty=0')));
    });

    test('a child listed before its parent gets its parent; a missing parent makes it top level, with a warning', async () => {
      assert.deepEqual(report.kinds.category, { created: 3, updated: 0, unchanged: 0, skipped: 0, trashed: 0, warnings: 1 });
      const categories = (await target.request('GET', `${NS}/categories?hide_empty=0`)).body.categories;
      const bySlug = Object.fromEntries(categories.map((category: any) => [category.slug, category]));
      assert.equal(bySlug.jazz.parent, bySlug.music.id);
      assert.equal(bySlug.stray.parent, 0);
      assert.match(report.warnings.find((warning: any) => warning.kind === 'category').message, /parent 99 of "Stray" is not in the source/);
    });

    test('three time zones, all-day and multi-day events keep their wall clocks and zones; a UTC mismatch is a warning', () => {
      assert.deepEqual([events.get('Harbour Jazz').timezone, events.get('Harbour Jazz').utc_start_date], ['Europe/Copenhagen', '2030-06-01 18:00:00']);
      assert.deepEqual([events.get('Sunrise Yoga').timezone, events.get('Sunrise Yoga').utc_start_date], ['America/Los_Angeles', '2030-07-04 13:00:00']);
      assert.deepEqual([events.get('Tea Ceremony').timezone, events.get('Tea Ceremony').start_date, events.get('Tea Ceremony').utc_start_date], ['Asia/Kolkata', '2030-08-01 10:30:00', '2030-08-01 05:00:00']);
      const fair = events.get('Book Fair');
      assert.deepEqual([fair.all_day, fair.start_date, fair.end_date], [true, '2030-09-10 00:00:00', '2030-09-12 23:59:59']);
      const mismatches = report.warnings.filter((warning: any) => warning.kind === 'event' && /utc_/.test(warning.message));
      assert.deepEqual(mismatches.map((warning: any) => warning.source_id), [33, 33]);
      assert.match(mismatches[0].message, /"Tea Ceremony": the source says utc_start_date 2030-08-01 04:00:00, its wall clock and time zone give 2030-08-01 05:00:00/);
    });

    test('links go through the id map; a trashed venue is left out', () => {
      const jazz = events.get('Harbour Jazz');
      assert.equal(jazz.venue.venue, 'Harbour Stage');
      assert.equal(jazz.venue.city, 'Copenhagen');
      assert.deepEqual(jazz.categories.map((category: any) => category.slug), ['jazz']);
      assert.deepEqual(events.get('Book Fair').venue, []);
    });

    test('the password-protected event is re-read whole and stays protected here', async () => {
      const members = events.get('Members only');
      assert.equal(members.description, '<p>The secret agenda</p>');
      assert.equal(members.featured, true);
      assert.equal(members.cost, '$10');
      assert.equal(typeof members.password, 'string');
      assert.ok(members.password.length >= 16);
      assert.equal((await target.request('GET', `${NS}/events/${members.id}`)).body.code, 'event-password-protected');
      assert.ok(report.warnings.some((warning: any) => warning.source_id === 35 && /does not reveal the password/.test(warning.message)));
      assert.ok(fixture.requests.some((request) => request.path === '/wp-json/tribe/events/v1/events/35?context=edit'));
    });

    test('a hidden event is copied hidden; a series becomes plain events with one warning', () => {
      assert.equal(events.get('Quiet Hour').hide_from_listings, true);
      assert.deepEqual([events.get('Weekly Choir').start_date, events.get('Weekly Choir 2').start_date], ['2030-10-01 18:00:00', '2030-10-08 18:00:00']);
      assert.equal(report.warnings.filter((warning: any) => /recurring series/.test(warning.message)).length, 1);
      assert.deepEqual(report.kinds.event, { created: 8, updated: 0, unchanged: 0, skipped: 0, trashed: 0, warnings: 4 });
    });
  });
}

/** 90 §2.3 errors: 5xx answers are retried three times, then the page is reported and the run goes on. */
for (const dialect of DIALECTS) {
  describe(`calendar import site with a failing source [${dialect} target]`, { skip: skipReason(dialect) }, () => {
    let fixture: Fixture;
    let target: TestApp;
    before(async () => {
      fixture = await fixtureServer({ failing: true });
      target = await startTestApp(dialect);
    });
    after(async () => {
      fixture?.server.close();
      await target?.close();
    });

    test('a retried page succeeds; a page failing four times is reported, not pruned, and the exit code is 1', async () => {
      const run = await runImport(target.config.databaseUrl, [fixture.url, '--allow-private', '--json', '--prune']);
      assert.equal(run.code, 1, run.stderr);
      assert.equal(run.report.kinds.tag.created, 1);
      assert.equal(fixture.requests.filter((request) => request.path.includes('/tags')).length, 2);
      assert.equal(fixture.requests.filter((request) => request.path.includes('/organizers')).length, 4);
      assert.deepEqual(run.report.failed_pages.map((page: any) => [page.kind, page.message]), [['organizer', 'the source answered 500']]);
      assert.ok(run.report.warnings.some((warning: any) => warning.kind === 'organizer' && /not pruned/.test(warning.message)));
      assert.equal(run.report.kinds.event.created, 8, 'every listed event is copied all the same');
    });
  });
}

/** 90 §2.2: slugs are kept; one held by a local record gets the usual suffix, listed in the summary. */
for (const dialect of DIALECTS) {
  describe(`calendar import site next to local records of the same slugs [${dialect} target]`, { skip: skipReason(dialect) }, () => {
    let fixture: Fixture;
    let target: TestApp;
    before(async () => {
      fixture = await fixtureServer();
      target = await startTestApp(dialect);
    });
    after(async () => {
      fixture?.server.close();
      await target?.close();
    });

    test('the copies take the next free slug, the local records are untouched', async () => {
      const local = async (path: string, body: Record<string, unknown>) => {
        const res = await target.request('POST', `${NS}/${path}`, { as: 'administrator', body });
        assert.equal(res.status, 201, res.text);
        return res.body;
      };
      const music = await local('categories', { name: 'Music' });
      const stage = await local('venues', { venue: 'Harbour Stage', city: 'Elsewhere' });
      const yoga = await local('events', { title: 'Local yoga', slug: 'e32', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' });
      const run = await runImport(target.config.databaseUrl, [fixture.url, '--allow-private', '--json']);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(run.report.slug_changes.map((change: any) => [change.kind, change.from, change.to]), [
        ['category', 'music', 'music-2'],
        ['venue', 'harbour-stage', 'harbour-stage-2'],
        ['event', 'e32', 'e32-2'],
      ]);
      assert.equal((await target.request('GET', `${NS}/categories/${music.id}`)).body.slug, 'music');
      assert.equal((await target.request('GET', `${NS}/venues/${stage.id}`)).body.city, 'Elsewhere');
      assert.equal((await target.request('GET', `${NS}/events/${yoga.id}`)).body.title, 'Local yoga');
    });
  });
}
