import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../database.ts';

const EVENT_LINK_TABLES = ['event_terms', 'event_organizers'];

/**
 * A link row written or removed moves its event's revision (migration 0009) — once per
 * transaction. When the event already has its change-log entry of this transaction (it was just
 * created, or changed, or touched by an earlier link), its revision has already moved and the
 * entry is there: updating the event row again per link only rewrote the row and re-ran its
 * triggers (a create with five links wrote its event six times).
 */
export function touchOnce(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>): Promise<void> {
      for (const table of EVENT_LINK_TABLES) {
        if (dialect === 'postgres') {
          await sql.raw(`create or replace function ${table}_touch_event() returns trigger language plpgsql as $$
            declare
              v_event integer := case when TG_OP = 'DELETE' then OLD.event_id else NEW.event_id end;
            begin
              if not exists (select 1 from changes where txid = pg_current_xact_id() and kind = 'event' and record_id = v_event) then
                update events set revision = revision + 1 where id = v_event;
              end if;
              return null;
            end $$`).execute(db);
          continue;
        }
        for (const [operation, row] of [['insert', 'new'], ['update', 'new'], ['delete', 'old']] as const) {
          await sql.raw(`drop trigger ${table}_${operation}_touch_event`).execute(db);
          await sql.raw(`create trigger ${table}_${operation}_touch_event after ${operation} on ${table}
            when not exists (select 1 from changes where tx = (select tx from feed_tx where id = 1) and kind = 'event' and record_id = ${row}.event_id)
            begin update events set revision = revision + 1 where id = ${row}.event_id; end`).execute(db);
        }
      }
    },
  };
}
