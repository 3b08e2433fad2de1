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
      const venues = () => db.selectFrom('venues').selectAll().where('id', '=', venue.body.id);
      const counted = () => db.selectFrom('venues').select((eb) => [eb.fn.countAll().as('n'), sql<string>`'it''s'`.as('text')]);
      const reads = {
        venue: readOf({ rows: venues(), none: undefined }, ({ rows, none }) => ({ rows, none })),
        count: readOf({ rows: counted() }, ({ rows }) => ({ n: toInt(rows[0].n), text: rows[0].text })),
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
  });
}
