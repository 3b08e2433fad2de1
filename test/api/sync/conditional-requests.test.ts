import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';

/** 80 §1: entity tags, 304 on If-None-Match, 412 on a stale If-Match, 428 when required. */
const DATES = { start_date: '2031-06-01 10:00', end_date: '2031-06-01 12:00' };

for (const dialect of DIALECTS) {
  describe(`conditional requests (${dialect})`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let strict: TestApp;
    before(async () => {
      t = await startTestApp(dialect);
      strict = await startTestApp(dialect, { env: { CALENDAR_REQUIRE_IF_MATCH: '1' } });
    });
    after(async () => {
      await strict?.close();
      await t?.close();
    });

    const createEvent = async (app: TestApp, title: string) => {
      const created = await app.request('POST', `${NS}/events`, { as: 'editor', body: { title, ...DATES, venue: { venue: `${title} hall` } } });
      assert.equal(created.status, 201, created.text);
      return created;
    };

    it('single records and lists carry strong tags; If-None-Match answers 304 with the same headers', async () => {
      const created = await createEvent(t, 'Tagged');
      assert.match(String(created.headers.etag), new RegExp(`^"e${created.body.id}-\\d+-[A-Za-z0-9_-]{22}"$`));
      for (const url of [`${NS}/events/${created.body.id}`, `${NS}/events/by-slug/tagged`, `${NS}/events`, `${NS}/venues`, `${NS}/changes`]) {
        const first = await t.request('GET', url);
        assert.equal(first.status, 200, url);
        const tag = String(first.headers.etag);
        assert.match(tag, /^"[a-z]\d*-?\d*-?[A-Za-z0-9_-]{22}"$|^"l-[A-Za-z0-9_-]{22}"$/, url);
        assert.equal(first.headers['cache-control'], 'no-cache');
        const again = await t.request('GET', url, { headers: { 'if-none-match': `W/${tag}, "other"` } });
        assert.equal(again.status, 304, url);
        assert.equal(again.text, '');
        assert.equal(again.headers.etag, tag);
        assert.equal(again.headers['x-tec-total'], first.headers['x-tec-total']);
        const head = await t.request('HEAD', url, { headers: { 'if-none-match': tag } });
        assert.equal(head.status, 304, url);
      }
      // Another edition or _fields is another body, hence another tag.
      const url = `${NS}/events/${created.body.id}`;
      const tags = new Set<string>();
      for (const [path, as] of [[url, 'visitor'], [`/da${url}`, 'visitor'], [`${url}?_fields=id,title`, 'visitor']] as const) {
        tags.add(String((await t.request('GET', path, { as })).headers.etag));
      }
      assert.equal(tags.size, 3);
      // Errors carry no tag; the envelope ignores conditionals.
      const missing = await t.request('GET', `${NS}/events/999999`);
      assert.equal(missing.status, 404);
      assert.equal(missing.headers.etag, undefined);
      const first = await t.request('GET', url);
      const enveloped = await t.request('GET', `${url}?_envelope`, { headers: { 'if-none-match': String(first.headers.etag) } });
      assert.equal(enveloped.status, 200);
    });

    it('lost update prevented: two clients read the same event, both write with If-Match, exactly one succeeds', async () => {
      const created = await createEvent(t, 'Contested');
      const read = await t.request('GET', `${NS}/events/${created.body.id}`, { as: 'editor' });
      const tag = String(read.headers.etag);
      const answers = await Promise.all(['First', 'Second'].map((title) =>
        t.request('PATCH', `${NS}/events/${created.body.id}`, { as: 'editor', body: { title }, headers: { 'if-match': tag } }),
      ));
      assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 412]);
      const winner = answers.find((answer) => answer.status === 200)!;
      const loser = answers.find((answer) => answer.status === 412)!;
      assert.equal(loser.body.code, 'rest_precondition_failed');
      assert.match(loser.body.data.etag, new RegExp(`^"e${created.body.id}-\\d+"$`));
      const stored = await t.request('GET', `${NS}/events/${created.body.id}`);
      assert.equal(stored.body.title, winner.body.title);
      // The winner's answer tag chains the next write; the prefix alone works too.
      assert.equal((await t.request('PATCH', `${NS}/events/${created.body.id}`, { as: 'editor', body: { title: 'Third' }, headers: { 'if-match': String(winner.headers.etag) } })).status, 200);
      assert.equal((await t.request('PATCH', `${NS}/events/by-slug/contested`, { as: 'editor', body: { title: 'Fourth' }, headers: { 'if-match': loser.body.data.etag } })).status, 412);
    });

    it('a renamed venue between GET and PATCH is no conflict; a stale tag leaves the row unchanged; * and weak tags', async () => {
      const created = await createEvent(t, 'Embedded');
      const read = await t.request('GET', `${NS}/events/${created.body.id}`, { as: 'editor' });
      assert.equal((await t.request('PATCH', `${NS}/venues/${created.body.venue.id}`, { as: 'editor', body: { venue: 'Renamed hall' } })).status, 200);
      const ok = await t.request('PATCH', `${NS}/events/${created.body.id}`, { as: 'editor', body: { title: 'Embedded 2' }, headers: { 'if-match': String(read.headers.etag) } });
      assert.equal(ok.status, 200, ok.text);
      const stale = await t.request('DELETE', `${NS}/events/${created.body.id}`, { as: 'editor', headers: { 'if-match': String(read.headers.etag) } });
      assert.equal(stale.status, 412);
      assert.equal((await t.request('GET', `${NS}/events/${created.body.id}`)).body.title, 'Embedded 2');
      assert.equal((await t.request('PATCH', `${NS}/events/${created.body.id}`, { as: 'editor', body: { title: 'x' }, headers: { 'if-match': `W/${ok.headers.etag}` } })).status, 412);
      assert.equal((await t.request('PATCH', `${NS}/events/${created.body.id}`, { as: 'editor', body: { title: 'x' }, headers: { 'if-match': '"l-AAAAAAAAAAAAAAAAAAAAAA"' } })).status, 412);
      assert.equal((await t.request('PATCH', `${NS}/events/${created.body.id}`, { as: 'editor', body: { title: 'y' }, headers: { 'if-match': '*' } })).status, 200);
      // Venues, organizers and terms alike.
      const venue = await t.request('GET', `${NS}/venues/${created.body.venue.id}`, { as: 'editor' });
      assert.match(String(venue.headers.etag), new RegExp(`^"v${created.body.venue.id}-`));
      assert.equal((await t.request('PATCH', `${NS}/venues/${created.body.venue.id}`, { as: 'editor', body: { venue: 'A' }, headers: { 'if-match': String(venue.headers.etag) } })).status, 200);
      assert.equal((await t.request('PATCH', `${NS}/venues/${created.body.venue.id}`, { as: 'editor', body: { venue: 'B' }, headers: { 'if-match': String(venue.headers.etag) } })).status, 412);
      const category = await t.request('POST', `${NS}/categories`, { as: 'editor', body: { name: 'Jazz' } });
      const tag = `"c${category.body.id}-0"`;
      assert.equal((await t.request('PATCH', `${NS}/categories/${category.body.id}`, { as: 'editor', body: { name: 'Jazz 2' }, headers: { 'if-match': tag } })).status, 200);
      assert.equal((await t.request('PATCH', `${NS}/categories/${category.body.id}`, { as: 'editor', body: { name: 'Jazz 3' }, headers: { 'if-match': tag } })).status, 412);
    });

    it('CALENDAR_REQUIRE_IF_MATCH=1: writes to existing records without If-Match get 428; creates do not', async () => {
      const created = await createEvent(strict, 'Strict');
      const bare = await strict.request('PATCH', `${NS}/events/${created.body.id}`, { as: 'editor', body: { title: 'x' } });
      assert.equal(bare.status, 428);
      assert.equal(bare.body.code, 'rest_precondition_required');
      assert.equal((await strict.request('DELETE', `${NS}/venues/${created.body.venue.id}`, { as: 'editor' })).status, 428);
      assert.equal((await strict.request('PATCH', `${NS}/events/${created.body.id}`, { as: 'editor', body: { title: 'x' }, headers: { 'if-match': String(created.headers.etag) } })).status, 200);
      assert.equal((await strict.request('GET', `/da${NS}/events/${created.body.id}`)).status, 200);
    });
  });
}
