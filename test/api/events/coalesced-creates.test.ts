import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Role } from '../../../src/domain/auth/capabilities.ts';
import { DIALECTS, skipReason } from '../../helpers/databases.ts';
import { NS, startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { clock, EVENTS, eventBody } from './fixtures.ts';

/**
 * Concurrent creates are written in groups, one transaction each (src/services/coalescer.ts):
 * every request still gets its own answer, as its caller sees it, with its own slug; and one
 * request's failure inside the group is its own — the others are written exactly once.
 */
for (const dialect of DIALECTS) {
  describe(`events: concurrent creates written together [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(dialect, { clock });
    });
    after(() => t.close());

    /** The number of write transactions the change log shows for these events. */
    const transactionsOf = async (ids: number[]) => {
      const column = dialect === 'postgres' ? sql.ref('txid') : sql.ref('tx');
      const { rows } = await sql<{ n: number | string }>`select count(distinct ${column}) as n from changes where kind = 'event' and record_id in (${sql.join(ids)})`.execute(t.storage.db);
      return Number(rows[0].n);
    };

    test('concurrent creates share transactions, and each answer is its own request\'s, as its caller sees it', async () => {
      const category = (await t.request('POST', `${NS}/categories`, { as: 'administrator', body: { name: 'Grouped' } })).body.id as number;
      const callers: Role[] = ['administrator', 'editor', 'author', 'contributor'];
      const requests = Array.from({ length: 12 }, (_, index) => ({
        as: callers[index % callers.length],
        path: index % 3 === 2 ? `/da${EVENTS}` : EVENTS,
        body: eventBody({ title: 'Same title', categories: index % 2 === 0 ? [category] : [], description: `Request ${index}` }),
      }));
      const answers = await Promise.all(requests.map(({ as, path, body }) => t.request('POST', path, { as, body })));
      assert.deepEqual(answers.map((res) => res.status), requests.map(() => 201), JSON.stringify(answers.map((res) => res.body)));
      const ids = answers.map((res) => res.body.id as number);
      assert.equal(new Set(ids).size, ids.length);
      const slugs = answers.map((res) => res.body.slug as string).filter((slug) => slug !== '');
      assert.equal(new Set(slugs).size, slugs.length, `slugs handed out twice: ${slugs}`);
      assert.ok(slugs.includes('same-title'));
      for (const [index, res] of answers.entries()) {
        const { as, path, body } = requests[index];
        assert.match(res.body.description, new RegExp(`Request ${index}\\b`));
        assert.deepEqual(res.body.categories.map((term: { id: number }) => term.id), body.categories);
        // The answer is the event as its caller reads it, in the edition it asked in.
        const read = await t.request('GET', `${path}/${res.body.id}`, { as });
        assert.equal(read.status, 200);
        // Term counts move with the creates that commit after this one.
        const uncounted = ({ json_ld: _onlyOnReads, categories, ...rest }: any) => ({ ...rest, categories: categories.map(({ count: _moves, ...term }: any) => term) });
        assert.deepEqual(uncounted(res.body), uncounted(read.body));
      }
      assert.ok((await transactionsOf(ids)) < ids.length, 'every create ran in its own transaction');
    });

    test('a request failing inside its group fails alone; the others are written exactly once', async () => {
      const titles = Array.from({ length: 8 }, (_, index) => `Isolated ${index}`);
      // A comma string cannot be created as organizers: the error comes from inside the write.
      const answers = await Promise.all(
        titles.map((title, index) => t.request('POST', EVENTS, { as: 'administrator', body: eventBody({ title, ...(index === 5 ? { organizer: 'One, Two' } : {}) }) })),
      );
      assert.deepEqual(answers.map((res) => res.status), titles.map((_, index) => (index === 5 ? 400 : 201)));
      assert.equal(answers[5].body.code, 'could-not-create-organizer');
      for (const [index, title] of titles.entries()) {
        const found = await t.request('GET', `${EVENTS}?search=${encodeURIComponent(`"${title}"`)}&per_page=50`, { as: 'administrator' });
        assert.equal(found.body.events?.filter((event: { title: string }) => event.title === title).length ?? 0, index === 5 ? 0 : 1, title);
      }
    });
  });
}
