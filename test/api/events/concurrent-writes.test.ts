import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { clock, EVENTS, eventBody, list } from './fixtures.ts';

/**
 * Concurrent creates naming the same terms in opposite orders: each link's trigger locks its
 * term's count until commit, so writers taking them in different orders would deadlock on
 * PostgreSQL (one of them answering 500). Every create must succeed and the counts add up. The
 * deadlock needs two inserts to overlap, so without the ordering this fails only sometimes.
 */
for (const dialect of DIALECTS) {
  describe(`events: concurrent writes sharing terms [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock });
    });
    after(() => t.close());

    test('16 writers linking the same categories and tags in opposite orders all succeed', async () => {
      const term = async (path: string, name: string) => (await t.request('POST', `${NS}${path}`, { as: 'administrator', body: { name } })).body.id as number;
      const categories = [await term('/categories', 'First'), await term('/categories', 'Second'), await term('/categories', 'Third')];
      const tags = [await term('/tags', 'one'), await term('/tags', 'two')];
      const rounds = 6;
      const statuses = await Promise.all(
        Array.from({ length: 16 }, async (_, writer) => {
          const seen: number[] = [];
          for (let round = 0; round < rounds; round++) {
            const reversed = (writer + round) % 2 === 1;
            const order = <T>(items: T[]) => (reversed ? [...items].reverse() : items);
            const res = await t.request('POST', EVENTS, { as: 'administrator', body: eventBody({ categories: order(categories), tags: order(tags) }) });
            seen.push(res.status);
          }
          return seen;
        }),
      );
      assert.deepEqual(statuses.flat().filter((status) => status !== 201), []);
      const created = 16 * rounds;
      assert.equal((await list(t, '?per_page=1')).total, created);
      for (const taxonomy of ['categories', 'tags']) {
        const res = await t.request('GET', `${NS}/${taxonomy}?per_page=50`);
        for (const item of res.body[taxonomy]) assert.equal(item.count, created, `${taxonomy} ${item.name}`);
      }
    });
  });
}
