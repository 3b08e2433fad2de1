import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

/**
 * The next instant after `nowUtc` at which a scheduled record becomes published (read-time
 * rule, 40 §6.1), or null when none is scheduled: what a read computed now stays true until.
 */
export async function nextScheduledPublication(db: Kysely<Database>, nowUtc: string): Promise<string | null> {
  const rows = await Promise.all(
    (['events', 'venues', 'organizers'] as const).map((table) =>
      db.selectFrom(table).select((eb) => eb.fn.min('date_utc').as('next')).where('status', '=', 'future').where('date_utc', '>', nowUtc).executeTakeFirst(),
    ),
  );
  const instants = rows.map((row) => row?.next).filter((next): next is string => typeof next === 'string');
  return instants.length > 0 ? instants.sort()[0] : null;
}
