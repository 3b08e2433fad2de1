import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pg from 'pg';
import { KEYED_LOOKUP_FUNCTIONS } from '../../../src/storage/migrations/0019-kept-trigger-plans.ts';
import { createEvent } from '../../api/events/fixtures.ts';
import { copyEventRows, skipReason } from '../../helpers/databases.ts';
import { postgresAppWithClient } from '../../helpers/test-app.ts';

/**
 * Every keyed-lookup trigger function fired once on `client`, on the event `id`: links inserted
 * without their start (the fill, the counts, the touch), the start moved, the status changed,
 * the links and the event deleted. In a transaction rolled back: the data stays as it was.
 */
async function fireEach(client: pg.Client, id: number): Promise<void> {
  await client.query('begin');
  await client.query('delete from event_terms where event_id = $1', [id]);
  await client.query(`insert into event_terms (event_id, term_id, position) select $1, id, 0 from terms where taxonomy = 'post_tag'`, [id]);
  await client.query(`update events set start_local = '2030-01-01 10:00:00' where id = $1`, [id]);
  await client.query(`update events set status = 'draft' where id = $1`, [id]);
  await client.query('delete from events where id = $1', [id]);
  await client.query('rollback');
}

// Migration 0019: the term-count, touch and start-copy functions keep their plans, made with sequential scans off.
describe('PostgreSQL trigger functions keep index plans as their tables grow', { skip: skipReason('postgres') }, () => {
  const suite = postgresAppWithClient();

  test('each function is planned with sequential scans off and no forced custom plans', async () => {
    const { client } = suite;
    const { rows } = await client.query<{ name: string; config: string[] | null }>(
      `select proname as name, proconfig as config from pg_proc where pronamespace = current_schema()::regnamespace and proname = any($1) order by proname`,
      [[...KEYED_LOOKUP_FUNCTIONS]],
    );
    assert.deepEqual(rows.map((row) => row.name), [...KEYED_LOOKUP_FUNCTIONS].sort());
    for (const row of rows) assert.deepEqual(row.config, ['enable_seqscan=off'], row.name);
  });

  test('plans made while the tables were a page long still use their indexes after they grew', async () => {
    const { t, client } = suite;
    const first = await createEvent(t, 'editor', { categories: 'Planned', tags: 'planned-tag', organizer: { organizer: 'Planner' } });
    // Planned on this connection with a handful of rows: a plan kept from here is what runs later.
    await fireEach(client, first.id);

    await copyEventRows(client, first.id, 3000);
    await client.query('insert into event_terms (event_id, term_id, position) select events.id, links.term_id, links.position from events, event_terms as links where links.event_id = $1 and events.id > $1', [first.id]);
    await client.query('insert into event_organizers (event_id, organizer_id, position) select events.id, links.organizer_id, links.position from events, event_organizers as links where links.event_id = $1 and events.id > $1', [first.id]);

    const plans: string[] = [];
    client.on('notice', (notice) => plans.push(notice.message ?? ''));
    await client.query(`load 'auto_explain'`);
    await client.query('set auto_explain.log_min_duration = 0; set auto_explain.log_nested_statements = on; set auto_explain.log_level = notice');
    await fireEach(client, first.id + 10);
    client.removeAllListeners('notice');

    // The functions' statements were explained, not only this connection's own.
    for (const text of ['update terms set published_count', 'update events set revision', 'update event_terms set start_local', 'NEW.start_local :=']) {
      assert.ok(plans.some((plan) => plan.includes(text)), `no plan of "${text}"`);
    }
    for (const table of ['events', 'event_terms', 'event_organizers', 'terms', 'changes']) {
      assert.ok(!plans.some((plan) => plan.includes(`Seq Scan on ${table} `)), `a sequential scan on ${table}:\n${plans.join('\n---\n')}`);
    }
  });
});
