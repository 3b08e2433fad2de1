import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { read, readOf, readTogether } from '../../../src/storage/reads-together.ts';
import { toInt } from '../../../src/storage/sql-helpers.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';

// Reads run together: one statement on PostgreSQL, each row as the query alone gives it.
for (const dialect of DIALECTS) {
  describe(`reads together [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect);
    });
    after(() => t.close());

    test('several reads give what each gives alone, in one statement on PostgreSQL', async () => {
      const venue = await t.request('POST', `${NS}/venues`, { as: 'administrator', body: { venue: 'Together "hall" ☃', latitude: 43.7234567891, longitude: -0.0000012345 } });
      assert.equal(venue.status, 201, venue.text);
      const db = t.storage.db;
      const venues = (id: number = venue.body.id) => db.selectFrom('venues').selectAll().where('id', '=', id);
      const counted = () => db.selectFrom('venues').select((eb) => [eb.fn.countAll().as('n'), sql<string>`'it''s'`.as('text')]);
      const reads = {
        venue: readOf('together venue', [venue.body.id], ([id]) => ({ rows: venues(id), none: undefined }), ({ rows, none }) => ({ rows, none })),
        count: readOf('together count', [], () => ({ rows: counted() }), ({ rows }) => ({ n: toInt(rows[0].n), text: rows[0].text })),
      };
      const before = await t.queryCount();
      const together = await readTogether(db, reads);
      assert.equal((await t.queryCount()) - before, dialect === 'postgres' ? 1 : 2);

      const alone = await venues().execute();
      assert.deepEqual(together.venue.rows, alone);
      assert.deepEqual(together.venue.none, []);
      assert.equal(together.venue.rows[0].geo_lat, 43.7234567891);
      assert.equal(together.venue.rows[0].geo_lng, -0.0000012345);
      assert.equal(together.venue.rows[0].name, 'Together "hall" ☃');
      assert.deepEqual(together.count, { n: toInt((await counted().execute())[0].n), text: "it's" });
      // Alone, a read runs its queries as they are.
      assert.deepEqual(await read(db, reads.venue), { rows: alone, none: [] });
    });

    test('a read of one shape is built once and filled with each call\'s values', async () => {
      const ids: number[] = [];
      for (const name of ['First of a shape', 'Second of a shape']) {
        const created = await t.request('POST', `${NS}/venues`, { as: 'administrator', body: { venue: name } });
        assert.equal(created.status, 201, created.text);
        ids.push(created.body.id);
      }
      let builds = 0;
      const named = (id: number) =>
        readOf(`reused venue ${dialect}`, [id, 'publish'] as [number, string], ([venueId, status]) => {
          builds++;
          return { rows: t.storage.db.selectFrom('venues').select('name').where('id', '=', venueId).where('status', '=', status) };
        }, ({ rows }) => rows.map((row) => row.name));
      // With a second read the statement on PostgreSQL gathers both; alone, it is the query itself.
      const none = readOf(`reused nothing ${dialect}`, [], () => ({ rows: undefined }), ({ rows }) => rows.length);
      for (const id of ids) assert.deepEqual(await readTogether(t.storage.db, { named: named(id), none }), { named: [id === ids[0] ? 'First of a shape' : 'Second of a shape'], none: 0 });
      for (const id of ids) assert.deepEqual(await read(t.storage.db, named(id)), [id === ids[0] ? 'First of a shape' : 'Second of a shape']);
      // Once together with another read, once alone: two shapes.
      assert.equal(builds, 2);
      // Values the compiler writes its own way are built for alone: an id beyond PostgreSQL's
      // integer matches nothing, as on SQLite, and a NUL is dropped from text.
      assert.deepEqual(await read(t.storage.db, named(2_147_483_648)), []);
      assert.deepEqual(await read(t.storage.db, readOf(`reused name ${dialect}`, ['First of\u0000 a shape'], ([name]) => ({ rows: t.storage.db.selectFrom('venues').select('id').where('name', '=', name) }), ({ rows }) => rows.map((row) => row.id))), [ids[0]]);
      assert.equal(builds, 3);
    });
  });
}
