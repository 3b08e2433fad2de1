import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { SCHEDULED } from '../sql-helpers.ts';
import type { DescribedWrite } from '../write-journal.ts';

/**
 * The next instant after `nowUtc` at which a scheduled record becomes published (read-time
 * rule, 40 §6.1), or null when none is scheduled: what a read computed now stays true until.
 */
export async function nextScheduledPublication(db: Kysely<Database>, nowUtc: string): Promise<string | null> {
  // One statement for the three tables: this runs on the first read after every write.
  const row = await db
    .selectNoFrom((eb) =>
      (['events', 'venues', 'organizers'] as const).map((table) =>
        eb.selectFrom(table).select((inner) => inner.fn.min<string | null>('date_utc').as('next')).where('status', '=', SCHEDULED).where('date_utc', '>', nowUtc).as(table),
      ),
    )
    .executeTakeFirstOrThrow();
  const instants = Object.values(row).filter((next): next is string => typeof next === 'string');
  return instants.length > 0 ? instants.sort()[0] : null;
}

/** Columns that decide whether and when a record is a scheduled publication. */
const PUBLICATION_COLUMNS = ['status', 'date_utc', 'date_local', 'post_parent'];

/** Whether described writes leave the next scheduled publication where it was (none touched those columns). */
export function leavePublicationsAlone(writes: readonly DescribedWrite[] | null): boolean {
  return writes !== null && writes.every((write) => write.columns.every((column) => !PUBLICATION_COLUMNS.includes(column)));
}

/** The scheduled records of a table whose publication date is in (`sinceUtc`, `untilUtc`]. */
export function publishedBetween(db: Kysely<Database>, table: 'events' | 'venues' | 'organizers', sinceUtc: string, untilUtc: string) {
  return db.selectFrom(table).selectAll().where('status', '=', SCHEDULED).where('date_utc', '>', sinceUtc).where('date_utc', '<=', untilUtc).execute();
}
