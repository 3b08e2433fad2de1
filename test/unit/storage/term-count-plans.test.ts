import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CompiledQuery, KyselyPlugin, RootOperationNode } from 'kysely';
import pg from 'pg';
import { TermsRepository } from '../../../src/storage/repositories/terms-repository.ts';
import { createEvent } from '../../api/events/fixtures.ts';
import { skipReason } from '../../helpers/databases.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';

// A term's count adds its scheduled events whose publication is due (terms-repository.ts): few,
// and found through the status index, also in the plan PostgreSQL keeps for a prepared statement.
describe('PostgreSQL: the generic plan of a term count looks up the due events, not every link of the term', { skip: skipReason('postgres') }, () => {
  let t: TestApp;
  let client: pg.Client;
  before(async () => {
    t = await startTestApp('postgres');
    const url = new URL(t.databaseUrl);
    const schema = url.searchParams.get('schema')!;
    url.searchParams.delete('schema');
    client = new pg.Client({ connectionString: url.toString(), options: `-c search_path=${schema}` });
    await client.connect();
  });
  after(async () => {
    await client.end();
    await t.close();
  });

  test('planned for any values, the count reads the due events by the status index', async () => {
    const first = await createEvent(t, 'editor', { categories: 'Counted' });
    const category = first.categories[0].id;
    await client.query(`with fresh as (insert into objects (kind) select 'event' from generate_series(1, 3000) returning id)
      insert into events select (jsonb_populate_record(null::events, to_jsonb(template) || jsonb_build_object('id', fresh.id, 'slug', template.slug || '-' || fresh.id))).*
      from fresh, (select * from events where id = $1) as template`, [first.id]);
    await client.query('insert into event_terms (event_id, term_id, position) select events.id, $2, 0 from events where events.id > $1', [first.id, category]);
    await client.query('analyze events, event_terms');

    // The statement the repository runs, as compiled for the server.
    const compiled: CompiledQuery[] = [];
    const executor = t.storage.db.getExecutor();
    const capture: KyselyPlugin = {
      transformQuery: ({ node, queryId }) => {
        compiled.push(executor.compileQuery(node as RootOperationNode, queryId));
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    const term = await new TermsRepository(t.storage.db.withPlugin(capture)).findById('tribe_events_cat', category, '2025-06-01 00:00:00');
    assert.equal(term?.count, 3001);
    const [{ sql, parameters }] = compiled;

    await client.query(`prepare counted as ${sql}`);
    await client.query('set plan_cache_mode = force_generic_plan');
    const placeholders = parameters.map((value) => (typeof value === 'number' ? String(value) : `'${String(value).replaceAll("'", "''")}'`));
    const { rows } = await client.query(`explain execute counted(${placeholders.join(', ')})`);
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    // Each due event's link to the term by key, not the term's 3,001 links read to be matched.
    assert.match(plan, /Index Only Scan using event_terms_pk on event_terms[^\n]*\n\s*Index Cond: \(\(event_id = events\.id\) AND \(term_id = terms\.id\)\)/, plan);
    assert.doesNotMatch(plan, /Seq Scan on event_terms|event_terms_term_start|Hash/, plan);
  });
});
