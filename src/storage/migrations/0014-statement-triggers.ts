import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../database.ts';
import { CHANGE_COLUMNS, changeEntryValues, MERGE, POSTGRES_NOW, TERM_FIELDS, TERM_KIND } from './0009-sync.ts';
import { applied } from './0011-list-order.ts';

const EVENT_LINK_TABLES = ['event_terms', 'event_organizers'];
const RECORD_TABLES = ['events', 'venues', 'organizers', 'terms'];
/** The rows a link statement wrote or removed, as every statement-level function below names them. */
const LINKS = 'touched_links';
/**
 * The counted events among those of the links (0008), looked up by id alone: a transition table
 * has no statistics, and joined with it, or filtered on status first, `events` was read whole,
 * which grows with the calendar (OFFSET 0 keeps the planner from merging the filter in).
 */
const COUNTED_EVENTS = `select id from (select id, status, post_parent from events where id = any(array(select distinct event_id from ${LINKS})) offset 0) as linked
  where status = 'publish' and post_parent = 0`;
/** The rows an insert statement created, as the statement-level functions below name them. */
const CREATED = 'created_records';

/**
 * PostgreSQL: the rows an insert statement creates, and the link rows of a statement, are applied
 * per statement, not per row. A create group of 15 events writes about 50 link rows; each ran a
 * PL/pgSQL function that counted its term (updating the term row, which in turn ran the term's
 * revision and change-log functions) and touched its event, and these per-row calls were the
 * largest single cost of a create (4.4 ms of server time per group of 8). Now a statement updates
 * each term it names once, by the number of counted links it added or removed, and touches its
 * events once; an insert of events adds to each day count it changes once, and writes the
 * change-log entries of all its rows in one statement.
 *
 * The revision and change-log functions of a record row only run when they have something to do
 * (a maintained count is no change of a term, 80 §3.3), which a WHEN clause decides without
 * calling them.
 */
export function statementTriggers(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (dialect !== 'postgres') return;
      await termCounts(db);
      await eventTouches(db);
      await recordTriggers(db);
      await eventDayCounts(db);
    },
  };
}

/** The link operations whose statements move term counts, with the sign of the move. */
export const TERM_COUNT_OPERATIONS = [['insert', '+', 'new'], ['delete', '-', 'old']] as const;

/**
 * The statement-level function counting the links an `operation` wrote or removed. An event
 * leaving goes before its links (0008), so a cascade that removes them finds it no longer counted.
 * The terms are locked in id order first, in `lock` strength (0017 says which), so that writers
 * naming the same terms wait for each other.
 */
export function termCountFunction(operation: 'insert' | 'delete', sign: '+' | '-', lock: 'update' | 'no key update'): string {
  return `create or replace function term_count_links_${operation}() returns trigger language plpgsql as $$ begin
      perform 1 from terms where id = any(array(select distinct term_id from ${LINKS})) order by id for ${lock};
      update terms set published_count = published_count ${sign} links.n
      from (select term_id, count(*) as n from ${LINKS} where event_id = any(array(${COUNTED_EVENTS}))
            group by term_id) as links
      where terms.id = links.term_id;
      return null; end $$ set plan_cache_mode = force_custom_plan`;
}

async function termCounts(db: Kysely<any>): Promise<void> {
  for (const [operation, sign, rows] of TERM_COUNT_OPERATIONS) {
    await sql.raw(`drop trigger event_terms_count_${operation} on event_terms`).execute(db);
    const name = `term_count_links_${operation}`;
    await sql.raw(termCountFunction(operation, sign, 'update')).execute(db);
    await sql.raw(`create trigger event_terms_count_${operation} after ${operation} on event_terms
      referencing ${rows} table as ${LINKS} for each statement execute function ${name}()`).execute(db);
  }
  await sql`drop function term_count_linked()`.execute(db);
  await sql`drop function term_count_unlinked()`.execute(db);
}

/**
 * A link statement moves the revision of each event it names once, unless the event already has
 * its entry of this transaction (0012): looked up per event by its key, not joined.
 */
async function eventTouches(db: Kysely<any>): Promise<void> {
  await sql.raw(`create function touch_linked_events() returns trigger language plpgsql as $$ begin
    update events set revision = revision + 1
    where id = any(array(select distinct event_id from ${LINKS}
      where (select count(*) from changes where txid = pg_current_xact_id() and kind = 'event' and record_id = event_id) = 0));
    return null; end $$ set plan_cache_mode = force_custom_plan`).execute(db);
  for (const table of EVENT_LINK_TABLES) {
    await sql.raw(`drop trigger ${table}_touch_event on ${table}`).execute(db);
    await sql.raw(`drop function ${table}_touch_event()`).execute(db);
    for (const [operation, rows] of [['insert', 'new'], ['update', 'new'], ['delete', 'old']] as const) {
      await sql.raw(`create trigger ${table}_touch_${operation} after ${operation} on ${table}
        referencing ${rows} table as ${LINKS} for each statement execute function touch_linked_events()`).execute(db);
    }
  }
}

/**
 * The change-log entries of the records an insert statement created (0009 `record_change`), read
 * from their columns: the row function turned each whole row into JSON, 0.14 ms an event.
 */
function createdEntries(table: string): string {
  const post = table !== 'terms';
  const kind = post ? `'${table.slice(0, -1)}'` : TERM_KIND('created');
  return `insert into changes (${CHANGE_COLUMNS})
    select ${changeEntryValues(kind, "'create'", POSTGRES_NOW, null, 'created', { post, events: table === 'events' })}
    from ${CREATED} as created order by created.id
    on conflict (txid, kind, record_id) do update set ${MERGE}`;
}

/** A record's creation is logged per statement; its update and removal per row, and only when they change something. */
async function recordTriggers(db: Kysely<any>): Promise<void> {
  for (const table of RECORD_TABLES) {
    const kind = table === 'terms' ? 'term' : table.slice(0, -1);
    await sql.raw(`create function ${table}_created() returns trigger language plpgsql as $$ begin ${createdEntries(table)}; return null; end $$`).execute(db);
    await sql.raw(`drop trigger ${table}_change on ${table}`).execute(db);
    await sql.raw(`create trigger ${table}_change_insert after insert on ${table}
      referencing new table as ${CREATED} for each statement execute function ${table}_created()`).execute(db);
    await sql.raw(`create trigger ${table}_change_delete after delete on ${table} for each row execute function record_change('${kind}')`).execute(db);
    await sql.raw(`create trigger ${table}_change_update after update on ${table} for each row
      when (new.revision <> old.revision) execute function record_change('${kind}')`).execute(db);
  }
  await sql`drop trigger terms_revision on terms`.execute(db);
  await sql.raw(`create trigger terms_revision before update on terms for each row
    when (new.revision = old.revision and (${TERM_FIELDS.map((f) => `new.${f}`).join(', ')}) is distinct from (${TERM_FIELDS.map((f) => `old.${f}`).join(', ')}))
    execute function bump_term_revision()`).execute(db);
}

/** The day counts of the events an insert statement created (0011), in one statement and key order. */
async function eventDayCounts(db: Kysely<any>): Promise<void> {
  await sql`drop trigger events_day_count_insert on events`.execute(db);
  await sql`drop function event_day_count_insert()`.execute(db);
  await sql.raw(`create function event_day_counts_created() returns trigger language plpgsql as $$ begin
    ${applied(['added'], CREATED)};
    return null; end $$`).execute(db);
  await sql.raw(`create trigger events_day_count_insert after insert on events
    referencing new table as ${CREATED} for each statement execute function event_day_counts_created()`).execute(db);
}
