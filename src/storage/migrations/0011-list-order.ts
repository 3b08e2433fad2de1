import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/** The wall clocks a date window compares with: UTC instants (site zone UTC) or each event's own. */
const CLOCKS = [
  ['utc', 'start_utc', 'end_utc'],
  ['local', 'start_local', 'end_local'],
] as const;

/** The columns that decide a listed event's bucket. */
const BUCKET_COLUMNS = ['status', 'hide_from_listings', 'is_series_master', 'start_utc', 'end_utc', 'start_local', 'end_local'];

const KEY = ['clock', 'status', 'start_day', 'end_day', 'hidden'].join(', ');

/**
 * One statement applying row changes to the counts: −1 for the old rows' buckets, +1 for the new
 * rows', netted per bucket and applied in key order. Concurrent PostgreSQL writers then lock the
 * rows they share in the same order (two events swapping days cannot deadlock), and a change
 * inside one bucket writes nothing. A row is `old` or `new` of a row trigger, or `added`: the rows
 * of a statement-level trigger's transition table `source`.
 */
export function applied(rows: Array<'old' | 'new' | 'added'>, source?: string): string {
  const changes = rows.flatMap((row) =>
    CLOCKS.map(
      ([clock, start, end]) =>
        `select '${clock}' as clock, ${row}.status as status, substr(${row}.${start}, 1, 10) as start_day, substr(${row}.${end}, 1, 10) as end_day,
          ${row}.hide_from_listings as hidden, ${row === 'old' ? -1 : 1} as n ${source === undefined ? '' : `from ${source} as ${row} `}where ${row}.is_series_master = 0`,
    ),
  );
  return `insert into event_day_counts (${KEY}, n)
    select ${KEY}, sum(n) from (${changes.join(' union all ')}) as changes
    where true group by ${KEY} having sum(n) <> 0 order by ${KEY}
    on conflict (${KEY}) do update set n = event_day_counts.n + excluded.n`;
}

/**
 * The default event list read in its sort order, and its total without a scan of the window.
 *
 * `events_list_order` holds the list's order (start, publication date, id) behind the equality
 * on `is_series_master`: a page is the first rows of an index range, LIMIT stops the walk, and no
 * temporary B-tree sorts the window.
 *
 * `event_day_counts` counts the non-master events per status, listing visibility, start day and
 * end day, on both clocks, kept by triggers in the writing transaction. A window of whole days
 * (the default and every non-strict one) then totals a few hundred rows instead of counting its
 * events: `start ≥ D1 00:00:00` is `start_day ≥ D1` and `end ≤ D2 23:59:59` is `end_day ≤ D2`.
 */
export function listOrder(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.createIndex('events_list_order').on('events').columns(['is_series_master', 'start_local', 'date_local', 'id']).execute();
      await db.schema
        .createTable('event_day_counts')
        .addColumn('clock', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('start_day', 'text', (c) => c.notNull())
        .addColumn('end_day', 'text', (c) => c.notNull())
        .addColumn('hidden', 'integer', (c) => c.notNull())
        .addColumn('n', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('event_day_counts_pk', ['clock', 'status', 'start_day', 'end_day', 'hidden'])
        .execute();
      for (const [clock, start, end] of CLOCKS) {
        await sql.raw(`insert into event_day_counts (${KEY}, n)
          select '${clock}', status, substr(${start}, 1, 10), substr(${end}, 1, 10), hide_from_listings, count(*) from events
          where is_series_master = 0 group by status, substr(${start}, 1, 10), substr(${end}, 1, 10), hide_from_listings`).execute(db);
      }
      const changed = BUCKET_COLUMNS.map((column) => `old.${column} is distinct from new.${column}`).join(' or ');
      const triggers = [
        ['insert', 'insert', applied(['new']), ''],
        ['delete', 'delete', applied(['old']), ''],
        ['update', `update of ${BUCKET_COLUMNS.join(', ')}`, applied(['old', 'new']), changed],
      ] as const;
      for (const [name, event, statement, when] of triggers) {
        if (dialect === 'postgres') {
          await sql.raw(`create function event_day_count_${name}() returns trigger language plpgsql as $$ begin ${statement}; return null; end $$`).execute(db);
          await sql.raw(`create trigger events_day_count_${name} after ${event} on events for each row ${when ? `when (${when}) ` : ''}execute function event_day_count_${name}()`).execute(db);
        } else {
          await sql.raw(`create trigger events_day_count_${name} after ${event} on events ${when ? `when ${when} ` : ''}begin ${statement}; end`).execute(db);
        }
      }
    },
  };
}
