import type { Kysely } from 'kysely';
import type { Clock } from '../domain/dates/clock.ts';
import { formatWall } from '../domain/dates/datetime-format.ts';
import { EventsRepository } from '../storage/repositories/events-repository.ts';
import { SeriesRepository } from '../storage/repositories/series-repository.ts';
import type { Database } from '../storage/schema.ts';
import type { SeriesService } from './series-service.ts';
import { inTransaction } from '../storage/transactions.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Extends every series whose rule goes on to the horizon seen at `now` (60 §4.1); answers how
 * many series grew. Each series is one transaction under its master's row lock, and is skipped
 * when it turns out to be extended already: several instances on one PostgreSQL database may run
 * this at the same moment and each series is extended once (keys are unique per master anyway).
 */
export async function extendSeries(db: Kysely<Database>, series: SeriesService, now: Date): Promise<number> {
  const horizon = series.horizon(now);
  const nowUtc = formatWall(now);
  let extended = 0;
  for (const id of await new SeriesRepository(db).mastersToExtend(horizon)) {
    await inTransaction(db, async (trx) => {
      const events = new EventsRepository(trx, nowUtc);
      const master = await events.findForUpdate(id);
      if (master === undefined || master.is_series_master !== 1 || master.recurrence_complete === 1 || master.recurrence_truncated === 1) return;
      if ((master.recurrence_horizon ?? '') >= horizon) return;
      await series.materialise(trx, master, now);
      extended++;
    });
  }
  return extended;
}

/** The daily timer of every instance (first run shortly after start); returns its stop function. */
export function startSeriesExtension(db: Kysely<Database>, series: SeriesService, clock: Clock, onError: (error: unknown) => void): () => void {
  const run = () => extendSeries(db, series, clock()).catch(onError);
  const first = setTimeout(run, 5_000);
  const daily = setInterval(run, DAY_MS);
  first.unref();
  daily.unref();
  return () => {
    clearTimeout(first);
    clearInterval(daily);
  };
}
