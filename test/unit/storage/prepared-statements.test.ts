import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { PLANNED_PER_RUN, prepareRepeatedStatements } from '../../../src/storage/prepared-statements.ts';
import { postgresUrl, skipReason } from '../../helpers/databases.ts';

/** The statements the connection holds prepared, by name. */
async function preparedNames(client: pg.PoolClient): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>('select name from pg_prepared_statements order by name');
  return rows.map((row) => row.name);
}

describe('PostgreSQL statements prepared by name', { skip: skipReason('postgres') }, () => {
  let pool: pg.Pool;
  let client: pg.PoolClient;
  before(async () => {
    pool = new pg.Pool({ connectionString: postgresUrl!, max: 1 });
    prepareRepeatedStatements(pool, 2);
    client = await pool.connect();
  });
  after(async () => {
    client.release();
    await pool.end();
  });

  test('a text with parameters is prepared from its third use, and answers as before', async () => {
    const sql = 'select $1::int + 1 as n';
    for (let n = 1; n <= 2; n++) assert.equal((await client.query(sql, [n])).rows[0].n, n + 1);
    assert.deepEqual(await preparedNames(client), []);
    assert.equal((await client.query(sql, [3])).rows[0].n, 4);
    assert.deepEqual(await preparedNames(client), ['calendar_1_0']);
  });

  test('a statement is prepared again after 8 runs, then after 16, and the one it replaces is deallocated', async () => {
    const sql = 'select $1::int + 1 as n';
    // One run above; seven more end the first preparation's term.
    for (let n = 0; n < 7; n++) await client.query(sql, [n]);
    assert.deepEqual(await preparedNames(client), ['calendar_1_0']);
    assert.equal((await client.query(sql, [41])).rows[0].n, 42);
    assert.deepEqual(await preparedNames(client), ['calendar_1_1']);
    for (let n = 0; n < 15; n++) await client.query(sql, [n]);
    assert.deepEqual(await preparedNames(client), ['calendar_1_1']);
    await client.query(sql, [0]);
    assert.deepEqual(await preparedNames(client), ['calendar_1_2']);
    // pg's own record of the connection's statements keeps only the current one too.
    const record = (client as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements;
    assert.deepEqual(Object.keys(record).filter((name) => name.startsWith('calendar_1_')), ['calendar_1_2']);
  });

  test('a statement whose table changed shape fails once, then is prepared anew', async () => {
    await client.query('create temporary table shape (id int)');
    await client.query('insert into shape values (1)');
    const sql = 'select * from shape where id = $1';
    for (let n = 0; n < 3; n++) assert.deepEqual((await client.query(sql, [1])).rows, [{ id: 1 }]);
    await client.query('alter table shape add column label text default \'x\'');
    await assert.rejects(client.query(sql, [1]), { code: '0A000' });
    assert.deepEqual((await client.query(sql, [1])).rows, [{ id: 1, label: 'x' }]);
    assert.deepEqual(await preparedNames(client), ['calendar_1_2', 'calendar_2_1']);
  });

  test('texts without parameters are not prepared, nor texts beyond the capacity', async () => {
    for (let n = 0; n < 3; n++) await client.query('select 1 as one', []);
    for (let n = 0; n < 3; n++) await client.query('select $1::text as second', ['b']);
    for (let n = 0; n < 3; n++) assert.equal((await client.query('select $1::text as third', ['c'])).rows[0].third, 'c');
    assert.deepEqual(await preparedNames(client), ['calendar_1_2', 'calendar_2_1']);
  });
});

describe('PostgreSQL statements planned per run', { skip: skipReason('postgres') }, () => {
  test('a text marked as planned per run is never prepared, however often it runs', async () => {
    const pool = new pg.Pool({ connectionString: postgresUrl!, max: 1 });
    prepareRepeatedStatements(pool);
    const client = await pool.connect();
    try {
      const marked = `select $1::int * 2 as n${PLANNED_PER_RUN}`;
      for (let n = 1; n <= 10; n++) assert.equal((await client.query(marked, [n])).rows[0].n, n * 2);
      assert.deepEqual(await preparedNames(client), []);
      // The same text unmarked is prepared from its third run, as any other.
      for (let n = 1; n <= 3; n++) await client.query('select $1::int * 2 as n', [n]);
      assert.equal((await preparedNames(client)).length, 1);
    } finally {
      client.release();
      await pool.end();
    }
  });
});
