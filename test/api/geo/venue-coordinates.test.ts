import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { clock, createEvent, invalidParams } from '../events/fixtures.ts';

const VENUES = `${NS}/venues`;

// 70-geo §2: venue coordinates on input and output, on both databases.
for (const dialect of DIALECTS) {
  describe(`geo: venue coordinates [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock });
    });
    after(() => t.close());

    let sequence = 0;
    const create = async (fields: Record<string, unknown>) => {
      const res = await t.request('POST', VENUES, { as: 'editor', body: { venue: `Geo venue ${++sequence}`, ...fields } });
      return res;
    };
    const created = async (fields: Record<string, unknown>) => {
      const res = await create(fields);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body;
    };
    const update = (id: number, fields: Record<string, unknown>) => t.request('POST', `${VENUES}/${id}`, { as: 'editor', body: fields });
    const stored = async (id: number) => t.storage.db.selectFrom('venues').select(['geo_lat', 'geo_lng']).where('id', '=', id).executeTakeFirstOrThrow();

    test('create with geo_lat/geo_lng (numbers or decimal strings) or with the aliases; output after stateprovince', async () => {
      const venue = await created({ geo_lat: 55.6761, geo_lng: '12.5683', city: 'Copenhagen', stateprovince: 'Hovedstaden' });
      assert.equal(venue.geo_lat, 55.6761);
      assert.equal(venue.geo_lng, 12.5683);
      const keys = Object.keys(venue);
      assert.equal(keys.indexOf('geo_lat'), keys.indexOf('stateprovince') + 1);
      assert.equal(keys.indexOf('geo_lng'), keys.indexOf('geo_lat') + 1);
      const aliased = await created({ latitude: '-33.8688', longitude: 151.2093 });
      assert.deepEqual([aliased.geo_lat, aliased.geo_lng], [-33.8688, 151.2093]);
      assert.equal('latitude' in aliased, false);
      const both = await created({ geo_lat: 1.5, latitude: '1.5', geo_lng: 2, longitude: 2 });
      assert.deepEqual([both.geo_lat, both.geo_lng], [1.5, 2]);
    });

    test('0 is a coordinate and is shown; without coordinates the keys are absent', async () => {
      const zero = await created({ geo_lat: 0, geo_lng: 0 });
      assert.equal(zero.geo_lat, 0);
      assert.equal(zero.geo_lng, 0);
      const none = await created({});
      assert.equal('geo_lat' in none, false);
      assert.equal('geo_lng' in none, false);
      assert.deepEqual(await stored(none.id), { geo_lat: null, geo_lng: null });
    });

    test('bad coordinates are refused with a precise, translated reason and write nothing', async () => {
      const before = await t.storage.db.selectFrom('venues').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ geo_lat: 91, geo_lng: 0 }, 'geo_lat', 'geo-latitude-out-of-range'],
        [{ geo_lat: 0, geo_lng: -180.5 }, 'geo_lng', 'geo-longitude-out-of-range'],
        [{ geo_lat: 'NaN', geo_lng: 0 }, 'geo_lat', 'geo-not-a-number'],
        [{ geo_lat: '1e3', geo_lng: 0 }, 'geo_lat', 'geo-not-a-number'],
        [{ geo_lat: '45,5', geo_lng: 0 }, 'geo_lat', 'geo-not-a-number'],
        [{ geo_lat: 'Infinity', geo_lng: 0 }, 'geo_lat', 'geo-not-a-number'],
        [{ geo_lat: true, geo_lng: 0 }, 'geo_lat', 'geo-not-a-number'],
        [{ latitude: 100, longitude: 0 }, 'latitude', 'geo-latitude-out-of-range'],
        [{ geo_lat: 10 }, 'geo_lng', 'geo-coordinate-missing'],
        [{ longitude: 10 }, 'latitude', 'geo-coordinate-missing'],
        [{ geo_lat: 10, latitude: 11, geo_lng: 0 }, 'latitude', 'geo-aliases-disagree'],
      ];
      for (const [fields, name, code] of cases) {
        const res = await create(fields);
        assert.deepEqual(invalidParams(res), [name], JSON.stringify(fields));
        assert.equal(res.body.data.details[name].code, code, JSON.stringify(fields));
        assert.match(res.body.data.details[name].message, new RegExp(name));
      }
      const after = await t.storage.db.selectFrom('venues').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      assert.equal(Number(after.n), Number(before.n));
      const danish = await t.request('POST', `/da${VENUES}`, { as: 'editor', body: { venue: 'Dansk', geo_lat: 91, geo_lng: 0 } });
      assert.equal(danish.body.data.details.geo_lat.code, 'geo-latitude-out-of-range');
      const english = await create({ geo_lat: 91, geo_lng: 0 });
      assert.notEqual(danish.body.data.details.geo_lat.message, english.body.data.details.geo_lat.message);
    });

    test('update: partial changes keep the pair, "" clears, null leaves unchanged, half a pair is refused', async () => {
      const venue = await created({ geo_lat: 10, geo_lng: 20 });
      let res = await update(venue.id, { geo_lat: 11 });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual([res.body.geo_lat, res.body.geo_lng], [11, 20]);
      res = await update(venue.id, { geo_lat: null, geo_lng: null, city: 'Somewhere' });
      assert.deepEqual([res.body.geo_lat, res.body.geo_lng], [11, 20]);
      res = await update(venue.id, { geo_lat: '' });
      assert.deepEqual(invalidParams(res), ['geo_lat']);
      assert.equal(res.body.data.details.geo_lat.code, 'geo-coordinate-missing');
      assert.deepEqual(await stored(venue.id), { geo_lat: 11, geo_lng: 20 });
      res = await update(venue.id, { geo_lat: '', longitude: '' });
      assert.equal(res.status, 200);
      assert.equal('geo_lat' in res.body, false);
      assert.deepEqual(await stored(venue.id), { geo_lat: null, geo_lng: null });
      res = await update(venue.id, { geo_lng: 5 });
      assert.deepEqual(invalidParams(res), ['geo_lat']);
    });

    test('a locked venue shows 0/0; json_ld carries GeoCoordinates', async () => {
      const locked = await created({ geo_lat: 48.8566, geo_lng: 2.3522, password: 'secret' });
      const visitor = await t.request('GET', `${VENUES}/${locked.id}`);
      assert.equal(visitor.status, 200);
      assert.deepEqual([visitor.body.geo_lat, visitor.body.geo_lng], [0, 0]);
      const unlocked = await t.request('GET', `${VENUES}/${locked.id}?password=secret`);
      assert.deepEqual([unlocked.body.geo_lat, unlocked.body.geo_lng], [48.8566, 2.3522]);
      assert.deepEqual(unlocked.body.json_ld.geo, { '@type': 'GeoCoordinates', latitude: 48.8566, longitude: 2.3522 });
      const plain = await created({});
      assert.equal('geo' in (await t.request('GET', `${VENUES}/${plain.id}`)).body.json_ld, false);
      const event = await createEvent(t, 'editor', { venue: locked.id });
      assert.deepEqual([event.venue.geo_lat, event.venue.geo_lng], [0, 0]);
    });

    test('inline venues of event writes take coordinates; a bad one refuses the event naming venue', async () => {
      const event = await createEvent(t, 'editor', { venue: { venue: 'Inline Geo Hall', geo_lat: '40.4168', longitude: -3.7038 } });
      assert.deepEqual([event.venue.geo_lat, event.venue.geo_lng], [40.4168, -3.7038]);
      const single = await t.request('GET', `${NS}/events/${event.id}`);
      assert.deepEqual(single.body.json_ld.location.geo, { '@type': 'GeoCoordinates', latitude: 40.4168, longitude: -3.7038 });
      const half = await t.request('POST', `${NS}/events`, {
        as: 'editor',
        body: { title: 'Half', start_date: '2025-04-12 10:00:00', end_date: '2025-04-12 11:00:00', venue: { venue: 'Half Pair Hall', geo_lat: 5 } },
      });
      assert.deepEqual(invalidParams(half), ['venue']);
      assert.equal(half.body.data.details.venue.code, 'geo-coordinate-missing');
      const bad = await t.request('POST', `${NS}/events`, {
        as: 'editor',
        body: { title: 'Bad', start_date: '2025-04-12 10:00:00', end_date: '2025-04-12 11:00:00', venue: { venue: 'Bad Geo Hall', geo_lat: 'x', geo_lng: 1 } },
      });
      assert.deepEqual(invalidParams(bad), ['venue']);
      const names = await t.storage.db.selectFrom('venues').select('name').where('name', 'in', ['Half Pair Hall', 'Bad Geo Hall']).execute();
      assert.deepEqual(names, []);
    });

    test('a duplicate venue gets the coordinates only from a caller who may edit it', async () => {
      const original = await created({ venue: 'Twin Hall', geo_lat: 1, geo_lng: 1 });
      const byEditor = await t.request('POST', VENUES, { as: 'editor', body: { venue: 'Twin Hall', geo_lat: 2, geo_lng: 2 } });
      assert.equal(byEditor.body.id, original.id);
      assert.deepEqual([byEditor.body.geo_lat, byEditor.body.geo_lng], [2, 2]);
      const byContributor = await t.request('POST', VENUES, { as: 'contributor', body: { venue: 'Twin Hall', geo_lat: 3, geo_lng: 3 } });
      assert.equal(byContributor.body.id, original.id);
      assert.deepEqual(await stored(original.id), { geo_lat: 2, geo_lng: 2 });
    });
  });
}
