import type { Kysely } from 'kysely';
import { SubmissionsRepository, type ShownSubmission } from '../storage/repositories/submissions-repository.ts';
import type { Database } from '../storage/schema.ts';

/** The shown part of the submissions of these events, by event id, in one query (events not submitted have none). */
export async function loadSubmissions(db: Kysely<Database>, eventIds: readonly number[]): Promise<Map<number, ShownSubmission>> {
  const rows = await new SubmissionsRepository(db).shownOf(eventIds);
  return new Map(rows.map((row) => [row.event_id, row]));
}
