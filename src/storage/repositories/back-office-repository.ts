import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Status } from '../../domain/status.ts';
import { toInt } from '../sql-helpers.ts';
import type { Database, EventRow } from '../schema.ts';
import { effectiveStatusIn } from './linked-posts-repository.ts';

/** Listed events of one effective status: all of them, those ending after now and those ended. */
export interface StatusCount {
  status: Status;
  all: number;
  upcoming: number;
  past: number;
}

const COUNTED: readonly Status[] = ['publish', 'future', 'draft', 'pending', 'private', 'trash'];

/**
 * The back office's tab and dashboard counts (100 §7.2, §7.3) in one statement: per status as read
 * now (a scheduled event whose date passed counts as published), what the lists show — series
 * masters and hidden events never, a series once (its occurrences collapse to one row).
 * `nowWall` is now on the clock of `windowOnUtc`, as the list's date bounds are.
 *
 * No part reads every event: the day counts of 0011 give each stored status by end day; only the
 * events ending today are read to split today at now, the scheduled ones whose date passed to move
 * them to published, and the series' occurrences (`events_series_order`, 0032) to take each
 * series' repeats off. Counting the table instead took 35–45 ms in SQLite at 20,000 events.
 */
export async function eventStatusCounts(db: Kysely<Database>, nowUtc: string, nowWall: string, windowOnUtc: boolean): Promise<StatusCount[]> {
  const end = sql.ref(windowOnUtc ? 'end_utc' : 'end_local');
  const today = nowWall.slice(0, 10);
  const status = sql`case when status = 'future' and date_utc <= ${nowUtc} then 'publish' else status end`;
  const upcoming = sql`sum(case when ${end} > ${nowWall} then 1 else 0 end)`;
  const past = sql`sum(case when ${end} <= ${nowWall} then 1 else 0 end)`;
  // `+is_series_master`: SQLite, without statistics, would read every listed event through an
  // index on it rather than the narrow ranges of the end or the status.
  const listed = sql`+is_series_master = 0 and hide_from_listings = 0`;
  const passed = sql`status = 'future' and date_utc <= ${nowUtc} and ${listed}`;
  const { rows } = await sql<{ status: string; all_n: number | string; upcoming_n: number | string; past_n: number | string }>`select status,
      sum(all_n) as all_n, sum(upcoming_n) as upcoming_n, sum(past_n) as past_n
    from (
      select status, sum(n) as all_n, sum(case when end_day > ${today} then n else 0 end) as upcoming_n, sum(case when end_day < ${today} then n else 0 end) as past_n
      from event_day_counts where clock = ${windowOnUtc ? 'utc' : 'local'} and hidden = 0 group by status
      union all
      select status, 0 as all_n, ${upcoming} as upcoming_n, ${past} as past_n
      from events where ${end} >= ${`${today} 00:00:00`} and ${end} <= ${`${today} 23:59:59`} and ${listed} group by status
      union all
      select 'publish' as status, count(*) as all_n, ${upcoming} as upcoming_n, ${past} as past_n from events where ${passed}
      union all
      select 'future' as status, -count(*) as all_n, -${upcoming} as upcoming_n, -${past} as past_n from events where ${passed}
      union all
      select ${status} as status, count(distinct post_parent) - count(*) as all_n,
        count(distinct case when ${end} > ${nowWall} then post_parent end) - ${upcoming} as upcoming_n,
        count(distinct case when ${end} <= ${nowWall} then post_parent end) - ${past} as past_n
      from events where is_series_master = 0 and post_parent > 0 and hide_from_listings = 0 group by 1
    ) parts
    group by status`.execute(db);
  const found = new Map(rows.map((item) => [item.status, item]));
  return COUNTED.map((name) => {
    const item = found.get(name);
    return { status: name, all: toInt(item?.all_n ?? 0), upcoming: toInt(item?.upcoming_n ?? 0), past: toInt(item?.past_n ?? 0) };
  });
}

/** Venues and organizers outside the trash, categories and tags: one statement. */
export async function recordTotals(db: Kysely<Database>): Promise<{ venues: number; organizers: number; categories: number; tags: number }> {
  const { rows } = await sql<{ venues: number | string; organizers: number | string; categories: number | string; tags: number | string }>`select
    (select count(*) from venues where status <> 'trash') as venues,
    (select count(*) from organizers where status <> 'trash') as organizers,
    (select count(*) from terms where taxonomy = 'tribe_events_cat') as categories,
    (select count(*) from terms where taxonomy = 'post_tag') as tags`.execute(db);
  const [row] = rows;
  return { venues: toInt(row.venues), organizers: toInt(row.organizers), categories: toInt(row.categories), tags: toInt(row.tags) };
}

/** Logins of users by id (authors of a page's rows): one statement. */
export async function loginsOf(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id) => id > 0))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'login']).where('id', 'in', wanted).execute();
  return new Map(rows.map((row) => [row.id, row.login]));
}

/** A record waiting for review (100 §7.2). */
export interface PendingRecord {
  kind: 'event' | 'venue' | 'organizer';
  id: number;
  name: string;
  author: number;
  modified_utc: string;
}

/**
 * Pending events (standalone ones and series, by their master: publishing it publishes the series),
 * venues and organizers, oldest first — all of them, or `author`'s own. One statement.
 */
export async function pendingRecords(db: Kysely<Database>, author: number | null, limit: number): Promise<PendingRecord[]> {
  const own = (table: string) => (author === null ? sql<SqlBool>`1 = 1` : sql<SqlBool>`${sql.ref(`${table}.author`)} = ${author}`);
  const { rows } = await sql<PendingRecord>`select kind, id, name, author, modified_utc from (
      select 'event' as kind, id, title as name, author, modified_utc from events where status = 'pending' and post_parent = 0 and ${own('events')}
      union all
      select 'venue' as kind, id, name, author, modified_utc from venues where status = 'pending' and ${own('venues')}
      union all
      select 'organizer' as kind, id, name, author, modified_utc from organizers where status = 'pending' and ${own('organizers')}
    ) pending order by modified_utc, id limit ${limit}`.execute(db);
  return rows.map((row) => ({ ...row, id: toInt(row.id), author: toInt(row.author) }));
}

/** What a bulk action needs of its records (status, status before the trash, author), by id: one statement. */
export async function rowsForBulk(db: Kysely<Database>, table: 'events' | 'venues' | 'organizers', ids: readonly number[]): Promise<Map<number, { id: number; author: number; status: Status; pre_trash_status: Status | null }>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom(table).select(['id', 'author', 'status', 'pre_trash_status']).where('id', 'in', [...ids]).execute();
  return new Map(rows.map((row) => [row.id, { id: row.id, author: row.author, status: row.status as Status, pre_trash_status: row.pre_trash_status as Status | null }]));
}

/**
 * The next `limit` listed events ending after now, a series once (its earliest such date), in the
 * list's start order: one statement reading the start-order index only as far as it needs (a
 * collapsed list would rank the whole window first). `spare` extra rows cover series repeats.
 */
export async function nextEvents(db: Kysely<Database>, statuses: readonly Status[], nowUtc: string, nowWall: string, windowOnUtc: boolean, limit: number, spare = 40): Promise<EventRow[]> {
  const rows = await db
    .selectFrom('events')
    .selectAll()
    .where(effectiveStatusIn('events', statuses, nowUtc))
    .where('is_series_master', '=', 0)
    .where('hide_from_listings', '=', 0)
    .where(windowOnUtc ? 'end_utc' : 'end_local', '>', nowWall)
    .orderBy('start_local')
    .orderBy('date_local')
    .orderBy('id')
    .limit(limit + spare)
    .execute();
  const seen = new Set<number>();
  return rows.filter((row) => {
    const key = row.post_parent === 0 ? -row.id : row.post_parent;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  }).slice(0, limit);
}
