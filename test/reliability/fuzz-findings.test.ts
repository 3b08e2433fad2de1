import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../helpers/test-app.ts';
import { assertUnchanged, snapshotDatabase } from './db-snapshot.ts';
import { assertErrorShape } from './responses.ts';

/**
 * What the hostile-input property suite found, each pinned as a plain example so that it stays
 * fixed whatever seed the suite runs with.
 */
for (const dialect of DIALECTS) {
  describe(`inputs the property suite found breaking the service [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let venueId: number;
    before(async () => {
      t = await startTestApp(dialect);
      venueId = (await t.request('POST', `${NS}/venues`, { as: 'editor', body: { venue: 'Teatro Verdi', city: 'Pisa' } })).body.id;
    });
    after(() => t.close());

    test('a multipart body the parser cannot read is a 400 rest_invalid_json that writes nothing', async () => {
      const fields = '--XyZ\r\ncontent-disposition: form-data; name="venue"\r\n\r\nHall\r\n--XyZ--\r\n';
      for (const contentType of ['multipart/form-data; boundary=other', 'multipart/form-data']) {
        const before = await snapshotDatabase(t.storage);
        const res = await t.request('POST', `${NS}/venues`, { as: 'editor', body: fields, headers: { 'content-type': contentType } });
        assert.equal(res.status, 400, contentType);
        assertErrorShape(res.body, 400, contentType);
        assert.equal(res.body.code, 'rest_invalid_json');
        assertUnchanged(before, await snapshotDatabase(t.storage), contentType);
      }
    });

    test('a well-formed multipart body still works', async () => {
      const fields = '--XyZ\r\ncontent-disposition: form-data; name="venue"\r\n\r\nMultipart Hall\r\n--XyZ--\r\n';
      const res = await t.request('POST', `${NS}/venues`, { as: 'editor', body: fields, headers: { 'content-type': 'multipart/form-data; boundary=XyZ' } });
      assert.equal(res.status, 201);
      assert.equal(res.body.venue, 'Multipart Hall');
    });

    test('a path that cannot be decoded, or a segment longer than any slug, is a JSON 404 in the edition language', async () => {
      for (const path of [`/da${NS}/venues/by-slug/%zz`, `${NS}/venues/by-slug/${'a'.repeat(2000)}`]) {
        const res = await t.request('GET', path);
        assert.equal(res.status, 404, path);
        assertErrorShape(res.body, 404, path);
        assert.equal(res.body.code, 'rest_no_route');
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
      }
      const danish = await t.request('GET', `/da${NS}/venues/by-slug/%zz`);
      assert.match(danish.body.message, /Der blev ikke fundet/);
    });

    test('a venue or organizer search of thousands of pieces is answered, not a 500', async () => {
      for (const search of ['1,'.repeat(2000), Array.from({ length: 1500 }, (_, index) => `w${index}`).join(' ')]) {
        for (const collection of ['venues', 'organizers']) {
          const res = await t.request('GET', `${NS}/${collection}?search=${encodeURIComponent(search)}`);
          assert.equal(res.status, 200, collection);
          assert.equal(res.body.total, 0);
        }
      }
      const repeated = await t.request('GET', `${NS}/venues?search=${encodeURIComponent('pisa '.repeat(500))}`);
      assert.deepEqual(repeated.body.venues.map((venue: { id: number }) => venue.id), [venueId]);
    });

    test('ids beyond 32 bits are unknown ids, as any other', async () => {
      const big = '99999999999';
      const cases: Array<[string, number, string]> = [
        [`${NS}/venues/${big}`, 400, 'rest_invalid_param'],
        [`${NS}/organizers/${big}`, 400, 'rest_invalid_param'],
        [`${NS}/categories/${big}`, 400, 'rest_invalid_param'],
        [`${NS}/events/${big}`, 404, 'rest-event-not-found'],
        [`${NS}/categories?post=${big}`, 400, 'rest_invalid_param'],
        [`${NS}/venues?event=${big}`, 400, 'rest_invalid_param'],
        [`${NS}/events?venue=${big}`, 400, 'rest_invalid_param'],
        [`/calendar/admin/v1/users/${big}`, 404, 'rest_user_invalid_id'],
      ];
      for (const [path, status, code] of cases) {
        const res = await t.request('GET', path, { as: 'administrator' });
        assert.equal(res.status, status, path);
        assert.equal(res.body.code, code, path);
      }
      const linked = await t.request('POST', `${NS}/events`, {
        as: 'editor',
        body: { title: 'Big ids', start_date: '2030-01-01 10:00', end_date: '2030-01-01 11:00', venue: Number(big), author: big },
      });
      assert.equal(linked.status, 400);
      assert.deepEqual(Object.keys(linked.body.data.params).sort(), ['author', 'venue']);
    });

    test('NUL characters are dropped from text instead of failing the request', async () => {
      const created = await t.request('POST', `${NS}/venues`, { as: 'editor', body: { venue: 'Nul\u0000 Hall', city: 'Pi\u0000sa' } });
      assert.equal(created.status, 201);
      const read = await t.request('GET', `${NS}/venues/${created.body.id}`);
      assert.equal(read.body.venue, 'Nul Hall');
      assert.equal(read.body.city, 'Pisa');
      const bySlug = await t.request('GET', `${NS}/venues/by-slug/nul%00-hall`);
      assert.equal(bySlug.status, 200);
      const filter = await t.request('GET', `${NS}/tags?include=a%00b`);
      assert.equal(filter.status, 400);
    });
  });
}
