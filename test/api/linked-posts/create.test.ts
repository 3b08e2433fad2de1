import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { CASES, ORGANIZERS, VENUES, createLinked, manualClock } from './support.ts';

// 20 §6.1-§6.3: input validation, status and dates on create, defaults, stateprovince.
for (const dialect of DIALECTS) {
  describe(`venue/organizer create [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    const clock = manualClock('2025-03-01T09:00:00Z');
    before(async () => {
      t = await startTestApp(dialect, { clock: clock.clock, env: { CALENDAR_TIMEZONE: 'Europe/Rome' } });
    });
    after(() => t.close());

    const invalid = async (path: string, body: unknown, as: Parameters<TestApp['request']>[2] extends infer O ? O extends { as?: infer A } ? A : never : never = 'administrator') => {
      const res = await t.request('POST', `${NS}/${path}`, { as, body });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.code, 'rest_invalid_param');
      return Object.keys(res.body.data.params);
    };

    for (const c of CASES) {
      test(`${c.path}: the name is required (absent or null → missing) and must be a non-empty string`, async () => {
        const missing = await t.request('POST', `${NS}/${c.path}`, { as: 'administrator', body: { [c.kind]: null, city: 'x' } });
        assert.equal(missing.status, 400);
        assert.equal(missing.body.code, 'rest_missing_callback_param');
        assert.deepEqual(missing.body.data.params, [c.kind]);
        assert.deepEqual(await invalid(c.path, { [c.kind]: '' }), [c.kind]);
        assert.deepEqual(await invalid(c.path, { [c.kind]: 123 }), [c.kind]);
      });

      test(`${c.path}: author must be an existing user; every role may name any user`, async () => {
        for (const bad of ['', 'foo', 999999]) assert.deepEqual(await invalid(c.path, { [c.kind]: 'A', author: bad }), ['author'], String(bad));
        const named = await createLinked(t, c, 'contributor', `Named ${c.kind}`, { author: t.users.administrator.id });
        assert.equal(named.author, String(t.users.administrator.id));
        const own = await createLinked(t, c, 'author', `Own ${c.kind}`);
        assert.equal(own.author, String(t.users.author.id));
      });

      test(`${c.path}: bad dates, statuses, websites, images and non-string text are 400, all reported at once`, async () => {
        assert.deepEqual(await invalid(c.path, { [c.kind]: 'A', date: 'foo' }), ['date']);
        assert.deepEqual(await invalid(c.path, { [c.kind]: 'A', date: 1736935200 }), ['date'], 'a JSON number is not a date string');
        assert.deepEqual(await invalid(c.path, { [c.kind]: 'A', date_utc: 'someday' }), ['date_utc']);
        for (const status of ['auto-draft', 'inherit', 'Publish']) assert.deepEqual(await invalid(c.path, { [c.kind]: 'A', status }), ['status']);
        for (const website of ['www.x.org', 'foo']) assert.deepEqual(await invalid(c.path, { [c.kind]: 'A', website }), ['website']);
        for (const image of ['foo', 999999, 'ftp://img.test/a.jpg']) assert.deepEqual(await invalid(c.path, { [c.kind]: 'A', image }), ['image']);
        assert.deepEqual(await invalid(c.path, { [c.kind]: 'A', phone: 12 }), ['phone']);
        assert.deepEqual(await invalid(c.path, { [c.kind]: '', website: 'foo', status: 'bogus' }), [c.kind, 'status', 'website']);
      });

      test(`${c.path}: an image URL needs upload rights: contributors and visitors get 400, not 401/403`, async () => {
        assert.deepEqual(await invalid(c.path, { [c.kind]: 'A', image: 'http://img.test/x.jpg' }, 'contributor'), ['image']);
        assert.deepEqual(await invalid(c.path, { [c.kind]: 'A', image: 'http://img.test/x.jpg' }, 'visitor'), ['image']);
      });

      test(`${c.path}: visitor 401, subscriber 403 — but validation comes first`, async () => {
        const visitor = await t.request('POST', `${NS}/${c.path}`, { body: { [c.kind]: 'A' } });
        assert.equal(visitor.status, 401);
        assert.equal(visitor.body.code, 'rest_forbidden');
        const emptyVisitor = await t.request('POST', `${NS}/${c.path}`, { body: {} });
        assert.equal(emptyVisitor.status, 400);
        assert.equal(emptyVisitor.body.code, 'rest_missing_callback_param');
        const subscriber = await t.request('POST', `${NS}/${c.path}`, { as: 'subscriber', body: { [c.kind]: 'A' } });
        assert.equal(subscriber.status, 403);
        assert.equal(subscriber.body.code, 'rest_forbidden');
      });
    }

    test('status by role: publishers default to publish, contributors to draft; publish/future from contributors become pending', async () => {
      for (const as of ['author', 'editor', 'administrator'] as const) {
        assert.equal((await createLinked(t, VENUES, as, `St ${as}`)).status, 'publish');
      }
      assert.equal((await createLinked(t, VENUES, 'contributor', 'St c1')).status, 'draft');
      assert.equal((await createLinked(t, VENUES, 'contributor', 'St c2', { status: 'publish' })).status, 'pending');
      assert.equal((await createLinked(t, ORGANIZERS, 'contributor', 'St c3', { status: 'future' })).status, 'pending');
      assert.equal((await createLinked(t, ORGANIZERS, 'contributor', 'St c4', { status: 'private' })).status, 'private');
      assert.equal((await createLinked(t, ORGANIZERS, 'author', 'St a1', { status: 'pending' })).status, 'pending');
    });

    test('publish dated a minute or more ahead becomes future; future in the past becomes publish', async () => {
      assert.equal((await createLinked(t, VENUES, 'author', 'Sched 1', { date_utc: '2025-03-01 09:05:00' })).status, 'future');
      assert.equal((await createLinked(t, VENUES, 'author', 'Sched 2', { date_utc: '2025-03-01 09:00:30' })).status, 'publish');
      assert.equal((await createLinked(t, VENUES, 'author', 'Sched 3', { status: 'future', date_utc: '2025-02-01 00:00:00' })).status, 'publish');
      assert.equal((await createLinked(t, VENUES, 'author', 'Sched 4', { status: 'future', date: 'tomorrow 9am' })).status, 'future');
    });

    test('a trash status on create puts the record straight into the trash', async () => {
      const body = await createLinked(t, ORGANIZERS, 'author', 'Born Trashed', { status: 'trash' });
      assert.equal(body.status, 'trash');
      assert.equal(body.slug, 'born-trashed__trashed');
    });

    test('date is read in the site zone, timestamps and date_utc are instants; drafts keep a zero date_utc', async () => {
      const local = await createLinked(t, VENUES, 'author', 'Date 1', { date: '2025-01-15 10:00' });
      assert.deepEqual([local.date, local.date_utc], ['2025-01-15 10:00:00', '2025-01-15 09:00:00']);
      const stamp = await createLinked(t, VENUES, 'author', 'Date 2', { date: '1736935200' });
      assert.deepEqual([stamp.date, stamp.date_utc], ['2025-01-15 11:00:00', '2025-01-15 10:00:00']);
      const utc = await createLinked(t, VENUES, 'author', 'Date 3', { date_utc: '2025-07-15 10:00' });
      assert.deepEqual([utc.date, utc.date_utc, utc.status], ['2025-07-15 12:00:00', '2025-07-15 10:00:00', 'future']);
      const relative = await createLinked(t, VENUES, 'author', 'Date 4', { date: 'tomorrow 9am' });
      assert.deepEqual([relative.date, relative.date_utc], ['2025-03-02 09:00:00', '2025-03-02 08:00:00']);
      const draft = await createLinked(t, VENUES, 'contributor', 'Date 5', { date: '2025-01-15 10:00' });
      assert.deepEqual([draft.date, draft.date_utc], ['2025-01-15 10:00:00', '0000-00-00 00:00:00']);
      const undated = await createLinked(t, ORGANIZERS, 'contributor', 'Date 6');
      assert.deepEqual([undated.date, undated.date_utc], ['2025-03-01 10:00:00', '0000-00-00 00:00:00']);
      const now = await createLinked(t, ORGANIZERS, 'author', 'Date 7');
      assert.deepEqual([now.date, now.date_utc, now.modified, now.modified_utc], ['2025-03-01 10:00:00', '2025-03-01 09:00:00', '2025-03-01 10:00:00', '2025-03-01 09:00:00']);
    });

    test('show_map and show_map_link default to true and follow the truthy list; strings and booleans accepted', async () => {
      for (const value of [false, 'false', '0', 'no', 0, 'off']) {
        const body = await createLinked(t, VENUES, 'author', `Map off ${String(value)}`, { show_map: value, show_map_link: value });
        assert.deepEqual([body.show_map, body.show_map_link], [false, false], String(value));
      }
      for (const value of [true, 'true', '1', 'yes', 'Enabled']) {
        const body = await createLinked(t, VENUES, 'author', `Map on ${String(value)}`, { show_map: value });
        assert.equal(body.show_map, true, String(value));
      }
      assert.deepEqual(await invalid('venues', { venue: 'A', show_map: { a: 1 } }), ['show_map']);
    });

    test('stateprovince: the sent value, else a US (or country-less) state, else the province', async () => {
      const cases: Array<[Record<string, string>, string | undefined]> = [
        [{ state: 'CA' }, 'CA'],
        [{ state: 'CA', country: 'US' }, 'CA'],
        [{ state: 'CA', country: 'United States' }, 'CA'],
        [{ state: 'Bayern', country: 'Germany' }, undefined],
        [{ state: 'X', province: 'Ontario', country: 'Canada' }, 'Ontario'],
        [{ state: 'CA', stateprovince: 'Golden State' }, 'Golden State'],
      ];
      for (const [i, [fields, expected]] of cases.entries()) {
        const body = await createLinked(t, VENUES, 'author', `Region ${i}`, fields);
        assert.equal(body.stateprovince, expected, JSON.stringify(fields));
      }
    });

    test('excerpt, slug, id and unknown keys in the body are ignored', async () => {
      const body = await createLinked(t, ORGANIZERS, 'author', 'Ignoring Org', { excerpt: 'Ex', slug: 'custom', id: 1, bogus: 'x' });
      assert.equal(body.slug, 'ignoring-org');
      assert.notEqual(body.id, 1);
      assert.equal('excerpt' in body, false);
    });

    test('fields are accepted from form bodies and the query string; no Location header', async () => {
      const form = await t.request('POST', `${NS}/venues`, {
        as: 'author', body: 'venue=Form+Hall&city=Lucca&show_map=false', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(form.status, 201);
      assert.deepEqual([form.body.venue, form.body.city, form.body.show_map], ['Form Hall', 'Lucca', false]);
      assert.equal(form.headers.location, undefined);
      const query = await t.request('POST', `${NS}/organizers?organizer=Query%20Org&phone=123`, { as: 'author' });
      assert.equal(query.status, 201);
      assert.deepEqual([query.body.organizer, query.body.phone], ['Query Org', '123']);
    });
  });
}
