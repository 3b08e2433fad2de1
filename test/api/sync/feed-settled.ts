import { sql } from 'kysely';
import type { TestApp } from '../../helpers/test-app.ts';

/**
 * Waits until every committed entry is below PostgreSQL's snapshot horizon (80 §3.7 caveat: any
 * write transaction open in the cluster — another test file's — delays the feed, never falsifies
 * it). Tests call it after their writes so that what they read next is deterministic. SQLite: no wait.
 */
export async function feedSettled(app: TestApp): Promise<void> {
  if (!app.databaseUrl.startsWith('postgres')) return;
  for (;;) {
    const row = (await sql<{ settled: boolean }>`select coalesce(max(txid) < pg_snapshot_xmin(pg_current_snapshot()), true) as settled from changes`.execute(app.storage.db)).rows[0];
    if (row.settled) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
