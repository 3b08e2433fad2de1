import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../database.ts';

/** The event's local start, copied where a term's events are looked up. */
const FILL = 'update event_terms set start_local = (select events.start_local from events where events.id = event_terms.event_id)';

/**
 * Each term link carries its event's local start, and a term's links are indexed by it
 * (`event_terms_term_start` replaces `event_terms_term`, so a create writes no more index entries):
 * a list filtered by terms and a date window reads the term's events of the window, not every
 * event the term ever had — a calendar's categories grow with its past, its windows do not.
 *
 * The copy is kept by the database, whoever writes: a link inserted without it takes its event's,
 * and an event whose start moves moves its links'. Moving the copy is not a change of the link:
 * it neither moves the event's revision nor counts (the event's own update already did).
 */
export function termLinkStarts(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('event_terms').addColumn('start_local', 'text').execute();
      if (dialect === 'postgres') {
        await sql.raw('alter table event_terms disable trigger user').execute(db);
        await sql.raw(FILL).execute(db);
        await sql.raw('alter table event_terms enable trigger user').execute(db);
        await sql.raw(`create function event_terms_start_fill() returns trigger language plpgsql as $$ begin
          NEW.start_local := (select start_local from events where id = NEW.event_id); return NEW; end $$`).execute(db);
        await sql.raw(`create trigger event_terms_start_fill before insert on event_terms for each row
          when (NEW.start_local is null) execute function event_terms_start_fill()`).execute(db);
        await sql.raw(`create function events_term_starts() returns trigger language plpgsql as $$ begin
          update event_terms set start_local = NEW.start_local where event_id = NEW.id; return null; end $$`).execute(db);
        // Named to fire after `events_change_update` (same-event AFTER triggers fire in name order):
        // the event's entry of this transaction is there, so touching its links moves nothing.
        await sql.raw(`create trigger events_term_starts after update of start_local on events for each row
          when (OLD.start_local is distinct from NEW.start_local) execute function events_term_starts()`).execute(db);
      } else {
        // The touch of 0012 for updates of what a link is, not of its start's copy.
        await sql.raw('drop trigger event_terms_update_touch_event').execute(db);
        await sql.raw(`create trigger event_terms_update_touch_event after update of event_id, term_id, position on event_terms
          when not exists (select 1 from changes where tx = (select tx from feed_tx where id = 1) and kind = 'event' and record_id = new.event_id)
          begin update events set revision = revision + 1 where id = new.event_id; end`).execute(db);
        await sql.raw(FILL).execute(db);
        await sql.raw(`create trigger event_terms_start_fill after insert on event_terms when new.start_local is null
          begin update event_terms set start_local = (select start_local from events where id = new.event_id)
          where event_id = new.event_id and term_id = new.term_id; end`).execute(db);
        await sql.raw(`create trigger events_term_starts after update of start_local on events when old.start_local is not new.start_local
          begin update event_terms set start_local = new.start_local where event_id = new.id; end`).execute(db);
      }
      await db.schema.dropIndex('event_terms_term').execute();
      await db.schema.createIndex('event_terms_term_start').on('event_terms').columns(['term_id', 'start_local', 'event_id']).execute();
    },
  };
}
