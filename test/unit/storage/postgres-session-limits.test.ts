import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { openStorage, type SessionLimits, type Storage } from '../../../src/storage/database.ts';
import type { Database } from '../../../src/storage/schema.ts';
import { connectToSchema, freshDatabase, skipReason } from '../../helpers/databases.ts';
import { startTestApp } from '../../helpers/test-app.ts';

/**
 * The limits on the service's PostgreSQL sessions (docs/postgres-limits.md): configured through
 * CALENDAR_POSTGRES_*, in force on every connection of the pool, never on the migrations.
 */
async function shown(db: Kysely<Database>, name: 'statement_timeout' | 'idle_in_transaction_session_timeout'): Promise<string> {
  return (await sql<Record<string, string>>`select current_setting(${name}) as value`.execute(db)).rows[0].value;
}

/** A fresh database opened with these limits; always closed and dropped. */
async function withStorage(limits: SessionLimits, use: (storage: Storage, databaseUrl: string) => Promise<void>): Promise<void> {
  const database = await freshDatabase('postgres');
  try {
    const storage = await openStorage(database.url, limits);
    try {
      await use(storage, database.url);
    } finally {
      await storage.close();
    }
  } finally {
    await database.dispose();
  }
}

describe('PostgreSQL session limits', () => {
  test('settings: defaults of 60 s and 30 s; 0 turns a limit off; an invalid value stops the start naming its variable', () => {
    assert.deepEqual(loadConfig({}).postgresLimits, { statementTimeoutMs: 60_000, idleInTransactionTimeoutMs: 30_000 });
    assert.deepEqual(loadConfig({ CALENDAR_POSTGRES_STATEMENT_TIMEOUT_MS: '0', CALENDAR_POSTGRES_IDLE_IN_TRANSACTION_TIMEOUT_MS: '0' }).postgresLimits, { statementTimeoutMs: 0, idleInTransactionTimeoutMs: 0 });
    for (const [name, value] of [['CALENDAR_POSTGRES_STATEMENT_TIMEOUT_MS', '30s'], ['CALENDAR_POSTGRES_STATEMENT_TIMEOUT_MS', '-1'], ['CALENDAR_POSTGRES_IDLE_IN_TRANSACTION_TIMEOUT_MS', '1.5'], ['CALENDAR_POSTGRES_IDLE_IN_TRANSACTION_TIMEOUT_MS', '86400001']]) {
      assert.throws(() => loadConfig({ [name]: value }), (error: unknown) => error instanceof ConfigError && error.message.startsWith(`${name} must be`) && !error.message.includes('\n'), `${name}=${value}`);
    }
  });

  test('every connection of a service started with the settings reports them', { skip: skipReason('postgres') }, async () => {
    const t = await startTestApp('postgres', { env: { CALENDAR_POSTGRES_STATEMENT_TIMEOUT_MS: '45000', CALENDAR_POSTGRES_IDLE_IN_TRANSACTION_TIMEOUT_MS: '20000' } });
    try {
      // Several at once, so that the pool opens several connections.
      const seen = await Promise.all(Array.from({ length: 4 }, () => t.storage.db.transaction().execute(async (trx) => [await shown(trx, 'statement_timeout'), await shown(trx, 'idle_in_transaction_session_timeout')])));
      assert.deepEqual(new Set(seen.map((pair) => pair.join(' '))), new Set(['45s 20s']));
    } finally {
      await t.close();
    }
  });

  test('the limits bite: a long statement is cancelled, a transaction left idle is ended', { skip: skipReason('postgres') }, async () => {
    await withStorage({ statementTimeoutMs: 200, idleInTransactionTimeoutMs: 300 }, async (storage) => {
      await assert.rejects(sql`select pg_sleep(2)`.execute(storage.db), (error: { code?: string }) => error.code === '57014', 'canceling statement due to statement timeout');
      await assert.rejects(
        storage.db.transaction().execute(async (trx) => {
          await sql`select 1`.execute(trx);
          await sleep(1500);
          await sql`select 1`.execute(trx);
        }),
      );
      // The pool goes on with a new connection.
      assert.equal(await storage.ping(), true);
    });
  });

  test('migrations run without the limits: a fresh database migrates under a 1 ms statement timeout', { skip: skipReason('postgres') }, async () => {
    // Opening migrates the fresh database: with the limit on its session, its statements would be cancelled.
    await withStorage({ statementTimeoutMs: 1, idleInTransactionTimeoutMs: 1 }, async (_storage, databaseUrl) => {
      const client = await connectToSchema(databaseUrl);
      try {
        const { rows } = await client.query<{ count: string }>('select count(*) as count from kysely_migration');
        assert.ok(Number(rows[0].count) > 0);
      } finally {
        await client.end();
      }
    });
  });
});
