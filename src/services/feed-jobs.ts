import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../domain/dates/clock.ts';
import { formatWall } from '../domain/dates/datetime-format.ts';
import { pruneChangesBefore, readFeedMeta, recordChange, setFeedEpoch, setPublishedThrough } from '../storage/repositories/changes-repository.ts';
import { publishedBetween } from '../storage/repositories/scheduled-repository.ts';
import { tryJobLock } from '../storage/locks.ts';
import type { Database, EventRow } from '../storage/schema.ts';
import { inTransaction } from '../storage/transactions.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** Advisory lock keys of the two jobs (any instance runs them, one at a time). */
const PRUNE_LOCK = 80_308_001;
const PUBLISH_LOCK = 80_308_002;

/** 80 §3.8: deletes entries older than the retention, so cursors before them answer 410 `expired`. */
export async function pruneChanges(db: Kysely<Database>, retentionDays: number, now: Date): Promise<number> {
  const cutoff = formatWall(new Date(now.getTime() - retentionDays * DAY_MS));
  return inTransaction(db, async (trx) => {
    if (!(await tryJobLock(trx, PRUNE_LOCK))) return 0;
    return pruneChangesBefore(trx, cutoff);
  });
}

/**
 * 80 §3.3: a scheduled record becomes published when its date passes, with no write (40 §6.1);
 * this job gives each such record an `update` entry dated at its publication, for every record
 * whose date passed since the previous run.
 */
export async function recordScheduledPublications(db: Kysely<Database>, now: Date): Promise<number> {
  const nowUtc = formatWall(now);
  return inTransaction(db, async (trx) => {
    if (!(await tryJobLock(trx, PUBLISH_LOCK))) return 0;
    const { publishedThrough: since } = await readFeedMeta(trx);
    if (since >= nowUtc) return 0;
    let count = 0;
    for (const [table, kind] of [['events', 'event'], ['venues', 'venue'], ['organizers', 'organizer']] as const) {
      const rows = await publishedBetween(trx, table, since, nowUtc);
      for (const row of rows) {
        const event = kind === 'event' ? (row as unknown as EventRow) : undefined;
        const state = { status: row.status, author: row.author, password: row.password !== '' ? 1 : 0, hidden: event?.hide_from_listings ?? null, date: row.date_utc };
        await recordChange(trx, {
          kind, record_id: row.id, op: 'update', at: row.date_utc,
          post_parent: event?.post_parent ?? 0, is_master: event?.is_series_master ?? 0,
          before_status: state.status, after_status: state.status, before_author: state.author, after_author: state.author,
          before_password: state.password, after_password: state.password, before_hidden: state.hidden, after_hidden: state.hidden,
          before_date_utc: state.date, after_date_utc: state.date,
        });
        count++;
      }
    }
    await setPublishedThrough(trx, nowUtc);
    return count;
  });
}

/** `calendar changes reset` (80 §3.8): a new feed epoch after restoring a backup; every old cursor answers 410 `reset`. */
export async function resetFeed(db: Kysely<Database>): Promise<string> {
  const epoch = randomUUID();
  await setFeedEpoch(db, epoch);
  return epoch;
}

/** The minute timer of every instance: scheduled publications, then pruning. Returns its stop function. */
export function startFeedJobs(db: Kysely<Database>, retentionDays: number, clock: Clock, onError: (error: unknown) => void): () => void {
  const run = async () => {
    try {
      await recordScheduledPublications(db, clock());
      await pruneChanges(db, retentionDays, clock());
    } catch (error) {
      onError(error);
    }
  };
  const timer = setInterval(() => void run(), MINUTE_MS);
  timer.unref();
  return () => clearInterval(timer);
}
