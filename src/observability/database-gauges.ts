import { sql } from 'kysely';
import type { Storage } from '../storage/database.ts';
import type { DatabaseReadings, ServiceMetrics } from './metrics.ts';

const REFRESH_MS = 15_000;

/** One grouped count per gauge of 140 §4.2. */
export async function readDatabase(storage: Storage, now: Date): Promise<DatabaseReadings> {
  const { db } = storage;
  const outbox = await db.selectFrom('webhook_messages').select(['status', (eb) => eb.fn.countAll<number | string>().as('n')]).groupBy('status').execute();
  const mail = await db.selectFrom('mail_messages').select(['status', (eb) => eb.fn.countAll<number | string>().as('n')]).groupBy('status').execute();
  const events = await db.selectFrom('events').select(['status', (eb) => eb.fn.countAll<number | string>().as('n')]).where('is_series_master', '=', 0).groupBy('status').execute();
  let feedLagSeconds = 0;
  if (storage.dialect === 'postgres') {
    // Committed changes at or above the horizon wait for an older transaction before readers see them.
    const row = (await sql<{ at: string | null }>`select min(at) as at from changes where txid >= pg_snapshot_xmin(pg_current_snapshot())`.execute(db)).rows[0];
    if (row?.at) feedLagSeconds = Math.max(0, (now.getTime() - Date.parse(`${row.at.replace(' ', 'T')}Z`)) / 1000);
  }
  const counts = (rows: Array<{ status: string; n: number | string }>) => Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
  return { outbox: counts(outbox), mail: counts(mail), events: counts(events), feedLagSeconds };
}

/** Refreshes the database gauges now and every 15 s; returns the stop. */
export function startDatabaseGauges(storage: Storage, metrics: ServiceMetrics, onError: (error: unknown) => void): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const refresh = async () => {
    try {
      metrics.readDatabase(await readDatabase(storage, new Date()));
    } catch (error) {
      onError(error);
    }
    if (!stopped) timer = setTimeout(refresh, REFRESH_MS).unref();
  };
  void refresh();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
