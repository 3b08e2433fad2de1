import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CompiledQuery, Kysely, KyselyPlugin, RootOperationNode } from 'kysely';
import pg from 'pg';
import type { Database } from '../../../src/storage/schema.ts';
import { ORGANIZER } from '../../../src/domain/linked-posts/linked-post-type.ts';
import { EventsRepository } from '../../../src/storage/repositories/events-repository.ts';
import { LinkedPostsRepository } from '../../../src/storage/repositories/linked-posts-repository.ts';
import { nextScheduledPublication } from '../../../src/storage/repositories/scheduled-repository.ts';
import { TermsRepository } from '../../../src/storage/repositories/terms-repository.ts';
import { createEvent } from '../../api/events/fixtures.ts';
import { copyEventRows, skipReason } from '../../helpers/databases.ts';
import { NS, postgresAppWithClient } from '../../helpers/test-app.ts';

/** The statements `read` runs through `db`, as compiled for the server. */
async function statementsOf(db: Kysely<Database>, read: (db: Kysely<Database>) => Promise<unknown>): Promise<CompiledQuery[]> {
  const compiled: CompiledQuery[] = [];
  const executor = db.getExecutor();
  const capture: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      compiled.push(executor.compileQuery(node as RootOperationNode, queryId));
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  await read(db.withPlugin(capture));
  return compiled;
}

/** The plan PostgreSQL makes for `statement` prepared, for any values of its parameters (its generic plan). */
async function genericPlan(client: pg.Client, { sql, parameters }: CompiledQuery): Promise<string> {
  await client.query('deallocate all');
  await client.query(`prepare planned as ${sql}`);
  await client.query('set plan_cache_mode = force_generic_plan');
  const values = parameters.map((value) => (typeof value === 'number' ? String(value) : `'${String(value).replaceAll("'", "''")}'`));
  const { rows } = await client.query(`explain execute planned(${values.join(', ')})`);
  await client.query('reset plan_cache_mode');
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

// Scheduled records are few, and the statements that look for them write the status into their
// SQL (SCHEDULED, sql-helpers.ts), so that PostgreSQL's generic plans know it too.
describe('PostgreSQL: generic plans look up scheduled records by their status', { skip: skipReason('postgres') }, () => {
  const suite = postgresAppWithClient();

  test('a term count reads its due events by the status index, not every link of the term', async () => {
    const { t, client } = suite;
    const first = await createEvent(t, 'editor', { categories: 'Counted' });
    const category = first.categories[0].id;
    await copyEventRows(client, first.id, 3000);
    await client.query('insert into event_terms (event_id, term_id, position) select events.id, $2, 0 from events where events.id > $1', [first.id, category]);
    await client.query('analyze events, event_terms');

    const [counted] = await statementsOf(t.storage.db, async (db) => assert.equal((await new TermsRepository(db).findById('tribe_events_cat', category, '2025-06-01 00:00:00'))?.count, 3001));
    const plan = await genericPlan(client, counted);
    // Each due event's link to the term by key, not the term's 3,001 links read to be matched.
    assert.match(plan, /Index Only Scan using event_terms_pk on event_terms[^\n]*\n\s*Index Cond: \(\(event_id = events\.id\) AND \(term_id = terms\.id\)\)/, plan);
    assert.doesNotMatch(plan, /Seq Scan on event_terms|event_terms_term_start|Hash/, plan);
  });

  test('the default list total and the next scheduled publication read scheduled events by the status index', async () => {
    const { t, client } = suite;
    const now = '2025-06-01 00:00:00';
    const filter = { statuses: ['publish' as const], windowOnUtc: true, bounds: { start_date: '2025-05-31 00:00:00', end_date: '2027-05-31 23:59:59' } };
    const statements = await statementsOf(t.storage.db, async (db) => {
      await new EventsRepository(db, now).list(filter, 1, 10);
      await nextScheduledPublication(db, now);
    });
    const total = statements.find(({ sql }) => sql.includes('event_day_counts'));
    const next = statements.find(({ sql }) => sql.includes('min("date_utc")'));
    for (const statement of [total!, next!]) assert.match(await genericPlan(client, statement), /Index Cond: \(status = 'future'::text\)/, statement.sql);
  });
});

// Trashed venues and organizers are few too, and the statements that leave them out write the
// status into their SQL (TRASHED, sql-helpers.ts).
describe('PostgreSQL: generic plans read the organizers of a page from its links', { skip: skipReason('postgres') }, () => {
  const suite = postgresAppWithClient();

  test("a page's organizers are found through the page's links, not probed for once per organizer", async () => {
    const { t, client } = suite;
    const organizers: number[] = [];
    for (let n = 1; n <= 50; n++) {
      const res = await t.request('POST', `${NS}/organizers`, { as: 'editor', body: { organizer: `Organizer ${n}` } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      organizers.push(res.body.id);
    }
    const first = await createEvent(t, 'editor', { organizer: [organizers[0]] });
    await copyEventRows(client, first.id, 3000);
    await client.query(
      'insert into event_organizers (event_id, organizer_id, position) select events.id, ($2::int[])[1 + events.id % 50], 0 from events where events.id > $1',
      [first.id, organizers],
    );
    // Every organizer has the same status: a plan made for any value of it expected one organizer left.
    await client.query('analyze organizers, event_organizers');
    const { rows } = await client.query<{ id: number }>('select id from events order by id desc limit 10');
    const events = rows.map(({ id }) => id);

    const plan = await genericPlan(client, new LinkedPostsRepository(t.storage.db, ORGANIZER, '2025-06-01 00:00:00').linkedToEventsQuery(events).compile());
    assert.match(plan, /Index Cond: \(event_id = ANY \(ARRAY\[[^\]]*\]\)\)$/m, plan);
    assert.doesNotMatch(plan, /AND \(organizer_id = p/, plan);
  });
});
