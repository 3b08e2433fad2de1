import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/** The wall clocks a date window compares with: UTC instants (site zone UTC) or each event's own. */
const CLOCKS = [
  ['utc', 'start_utc', 'end_utc'],
  ['local', 'start_local', 'end_local'],
] as const;

/** The columns that decide a listed event's bucket. */
const BUCKET_COLUMNS = ['status', 'hide_from_listings', 'is_series_master', 'start_utc', 'end_utc', 'start_local', 'end_local'];

const KEY = '(clock, status, start_day, end_day, hidden)';

function added(row: 'new', [clock, start, end]: (typeof CLOCKS)[number]): string {
  return `insert into event_day_counts ${KEY.replace(')', ', n)')}
    select '${clock}', ${row}.status, substr(${row}.${start}, 1, 10), substr(${row}.${end}, 1, 10), ${row}.hide_from_listings, 1 where ${row}.is_series_master = 0
    on conflict ${KEY} do update set n = event_day_counts.n + 1`;
}

function removed(row: 'old', [clock, start, end]: (typeof CLOCKS)[number]): string {
  return `update event_day_counts set n = n - 1
    where ${row}.is_series_master = 0 and clock = '${clock}' and status = ${row}.status and start_day = substr(${row}.${start}, 1, 10)
      and end_day = substr(${row}.${end}, 1, 10) and hidden = ${row}.hide_from_listings`;
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
        await sql.raw(`insert into event_day_counts ${KEY.replace(')', ', n)')}
          select '${clock}', status, substr(${start}, 1, 10), substr(${end}, 1, 10), hide_from_listings, count(*) from events
          where is_series_master = 0 group by status, substr(${start}, 1, 10), substr(${end}, 1, 10), hide_from_listings`).execute(db);
      }
      const adds = CLOCKS.map((clock) => added('new', clock));
      const removes = CLOCKS.map((clock) => removed('old', clock));
      const changed = BUCKET_COLUMNS.map((column) => `old.${column} is distinct from new.${column}`).join(' or ');
      if (dialect === 'postgres') {
        const fn = async (name: string, body: string[]) =>
          sql.raw(`create function ${name}() returns trigger language plpgsql as $$ begin ${body.map((statement) => `${statement};`).join(' ')} return null; end $$`).execute(db);
        await fn('event_day_count_insert', adds);
        await fn('event_day_count_delete', removes);
        await fn('event_day_count_update', [...removes, ...adds]);
        await sql.raw('create trigger events_day_count_insert after insert on events for each row execute function event_day_count_insert()').execute(db);
        await sql.raw('create trigger events_day_count_delete after delete on events for each row execute function event_day_count_delete()').execute(db);
        await sql.raw(`create trigger events_day_count_update after update of ${BUCKET_COLUMNS.join(', ')} on events for each row when (${changed}) execute function event_day_count_update()`).execute(db);
      } else {
        const body = (statements: string[]) => statements.map((statement) => `${statement};`).join(' ');
        await sql.raw(`create trigger events_day_count_insert after insert on events begin ${body(adds)} end`).execute(db);
        await sql.raw(`create trigger events_day_count_delete after delete on events begin ${body(removes)} end`).execute(db);
        await sql.raw(`create trigger events_day_count_update after update of ${BUCKET_COLUMNS.join(', ')} on events when ${changed.replaceAll('is distinct from', 'is not')} begin ${body([...removes, ...adds])} end`).execute(db);
      }
    },
  };
}
