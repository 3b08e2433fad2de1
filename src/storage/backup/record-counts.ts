import type BetterSqlite3 from 'better-sqlite3';

/** The rows a backup report and a restore confirmation show (140 §3.1). */
const COUNTS = {
  events: 'select count(*) from events',
  venues: 'select count(*) from venues',
  organizers: 'select count(*) from organizers',
  categories: "select count(*) from terms where taxonomy = 'tribe_events_cat'",
  tags: "select count(*) from terms where taxonomy = 'post_tag'",
  users: 'select count(*) from users',
  webhooks: 'select count(*) from webhooks',
  changes: 'select count(*) from changes',
} as const;

export type RecordCounts = Record<keyof typeof COUNTS, number>;

export function recordCounts(connection: BetterSqlite3.Database): RecordCounts {
  return Object.fromEntries(Object.entries(COUNTS).map(([name, query]) => [name, Number(connection.prepare(query).pluck().get())])) as RecordCounts;
}

export function describeCounts(counts: RecordCounts): string {
  return Object.entries(counts).map(([name, count]) => `${count} ${name}`).join(', ');
}
