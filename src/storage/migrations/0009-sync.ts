import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { SQLITE_NUMBER_TRANSACTION } from '../transaction-numbers.ts';

/** The record tables, their change kind, and the columns whose change is a write of the record. */
const POST_TABLES = [
  { table: 'events', kind: "'event'" },
  { table: 'venues', kind: "'venue'" },
  { table: 'organizers', kind: "'organizer'" },
] as const;
/** A term's own fields; its derived columns (a maintained count) are no change of the term (80 §3.3). */
export const TERM_FIELDS = ['taxonomy', 'name', 'slug', 'description', 'parent'];
export const TERM_KIND = (row: string) => `case when ${row}.taxonomy = 'post_tag' then 'tag' else 'category' end`;
/** Link rows that belong to their event: writing them is a write of the event (80 §1.1). */
const EVENT_LINK_TABLES = ['event_terms', 'event_organizers'];

/**
 * Sync (80 §1.1, §3): a `revision` on every record, bumped by the database in the statement that
 * writes the record's row or its link rows; the change log `changes`, filled by triggers in the
 * writing transaction itself, so every write path (API, imports, series expansion, cascades of a
 * permanent deletion) is recorded and no crash can separate a change from its entry; `feed_meta`
 * (epoch, pruned position); `users.access_epoch`.
 *
 * One entry per record per transaction: later statements of the same transaction merge into the
 * first entry (position kept, `after_*` updated, `op` as the transaction as a whole did). PostgreSQL
 * groups by `txid` (the writing transaction's xid8, also the feed's ordering key, 80 §3.7);
 * SQLite by `tx`, a number `inTransaction` sets for each write transaction (null outside one: no merging).
 */
export function sync(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      for (const table of ['events', 'venues', 'organizers', 'terms']) {
        await db.schema.alterTable(table).addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      }
      await db.schema.alterTable('users').addColumn('access_epoch', 'integer', (c) => c.notNull().defaultTo(0)).execute();

      let changes = db.schema.createTable('changes');
      changes = dialect === 'postgres'
        ? changes.addColumn('seq', 'bigserial', (c) => c.primaryKey()).addColumn('txid', sql`xid8`, (c) => c.notNull().defaultTo(sql`pg_current_xact_id()`))
        : changes.addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement()).addColumn('tx', 'integer');
      await changes
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('record_id', 'integer', (c) => c.notNull())
        .addColumn('op', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('post_parent', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('is_master', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('before_status', 'text')
        .addColumn('after_status', 'text')
        .addColumn('before_author', 'integer')
        .addColumn('after_author', 'integer')
        .addColumn('before_password', 'integer')
        .addColumn('after_password', 'integer')
        .addColumn('before_hidden', 'integer')
        .addColumn('after_hidden', 'integer')
        .addColumn('before_date_utc', 'text')
        .addColumn('after_date_utc', 'text')
        .execute();
      const group = dialect === 'postgres' ? 'txid' : 'tx';
      await db.schema.createIndex('changes_one_per_transaction').on('changes').columns([group, 'kind', 'record_id']).unique().execute();
      if (dialect === 'postgres') await db.schema.createIndex('changes_position').on('changes').columns(['txid', 'seq']).execute();
      await db.schema.createIndex('changes_at').on('changes').column('at').execute();

      await db.schema.createTable('feed_meta')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('epoch', 'text', (c) => c.notNull())
        // The position of the newest pruned entry ('0' / 0: nothing pruned).
        .addColumn('oldest_txid', 'text', (c) => c.notNull().defaultTo('0'))
        .addColumn('oldest_seq', 'bigint', (c) => c.notNull().defaultTo(0))
        // The publication job's last run: scheduled records dated up to here have their entry.
        .addColumn('published_through', 'text', (c) => c.notNull())
        .execute();
      await sql`insert into feed_meta (id, epoch, published_through) values (1, ${randomUUID()}, ${new Date().toISOString().slice(0, 19).replace('T', ' ')})`.execute(db);

      if (dialect === 'postgres') await postgresTriggers(db);
      else {
        await db.schema.createTable('feed_tx')
          .addColumn('id', 'integer', (c) => c.primaryKey())
          .addColumn('next', 'integer', (c) => c.notNull())
          .addColumn('tx', 'integer')
          .execute();
        await sql`insert into feed_tx (id, next, tx) values (1, 0, null)`.execute(db);
        for (const { table, kind } of POST_TABLES) await sqlitePostTriggers(db, table, kind);
        await sqliteTermTriggers(db);
      }
      for (const table of EVENT_LINK_TABLES) await linkTriggers(db, dialect, table);
    },
  };
}

/** How a transaction's entries for one record merge: the first `before_*`, the last `after_*`. */
export const MERGE = `
  op = case when excluded.op = 'delete' then 'delete' when changes.op = 'create' then 'create'
            when excluded.op = 'update' then changes.op else excluded.op end,
  at = excluded.at, post_parent = excluded.post_parent, is_master = excluded.is_master,
  after_status = excluded.after_status, after_author = excluded.after_author, after_password = excluded.after_password,
  after_hidden = excluded.after_hidden, after_date_utc = excluded.after_date_utc`;

export const CHANGE_COLUMNS = `kind, record_id, op, at, post_parent, is_master, before_status, after_status, before_author, after_author,
  before_password, after_password, before_hidden, after_hidden, before_date_utc, after_date_utc`;

async function postgresTriggers(db: Kysely<any>): Promise<void> {
  // Any change of the row other than the revision itself (a no-op `UPDATE` that takes the row
  // lock changes nothing) bumps it; an explicit bump from a link row passes through.
  await sql`create function bump_revision() returns trigger language plpgsql as $$
    begin
      if NEW.revision = OLD.revision and row(NEW.*) is distinct from row(OLD.*) then NEW.revision := OLD.revision + 1; end if;
      return NEW;
    end $$`.execute(db);
  await sql`create function bump_term_revision() returns trigger language plpgsql as $$
    begin
      if NEW.revision = OLD.revision and (${sql.raw(TERM_FIELDS.map((f) => `NEW.${f}`).join(', '))}) is distinct from (${sql.raw(TERM_FIELDS.map((f) => `OLD.${f}`).join(', '))}) then
        NEW.revision := OLD.revision + 1;
      end if;
      return NEW;
    end $$`.execute(db);
  await sql.raw(`create function record_change() returns trigger language plpgsql as $$
    declare
      v_kind text := TG_ARGV[0];
      v_before jsonb := case when TG_OP = 'INSERT' then null else to_jsonb(OLD) end;
      v_after jsonb := case when TG_OP = 'DELETE' then null else to_jsonb(NEW) end;
      v_current jsonb := coalesce(v_after, v_before);
      v_op text;
    begin
      if TG_OP = 'UPDATE' and NEW.revision = OLD.revision then return null; end if;
      if v_kind = 'term' then v_kind := case when v_current->>'taxonomy' = 'post_tag' then 'tag' else 'category' end; end if;
      v_op := case
        when TG_OP = 'INSERT' then 'create'
        when TG_OP = 'DELETE' then 'delete'
        when v_before->>'status' is distinct from 'trash' and v_after->>'status' = 'trash' then 'trash'
        when v_before->>'status' = 'trash' and v_after->>'status' is distinct from 'trash' then 'restore'
        else 'update' end;
      insert into changes (${CHANGE_COLUMNS}) values (
        v_kind, (v_current->>'id')::integer, v_op, ${POSTGRES_NOW},
        coalesce((v_current->>'post_parent')::integer, 0), coalesce((v_current->>'is_series_master')::integer, 0),
        v_before->>'status', v_after->>'status', (v_before->>'author')::integer, (v_after->>'author')::integer,
        (v_before->>'password' <> '')::integer, (v_after->>'password' <> '')::integer,
        (v_before->>'hide_from_listings')::integer, (v_after->>'hide_from_listings')::integer,
        v_before->>'date_utc', v_after->>'date_utc')
      on conflict (txid, kind, record_id) do update set ${MERGE};
      return null;
    end $$`).execute(db);
  for (const { table, kind } of [...POST_TABLES, { table: 'terms', kind: "'term'" }]) {
    const bump = table === 'terms' ? 'bump_term_revision' : 'bump_revision';
    await sql.raw(`create trigger ${table}_revision before update on ${table} for each row execute function ${bump}()`).execute(db);
    await sql.raw(`create trigger ${table}_change after insert or update or delete on ${table} for each row execute function record_change(${kind})`).execute(db);
  }
}

/** The instant an entry is written, as each dialect spells it. */
const SQLITE_NOW = `strftime('%Y-%m-%d %H:%M:%S', 'now')`;
export const POSTGRES_NOW = `to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS')`;

/**
 * The values of a change-log entry (CHANGE_COLUMNS) read from the columns of a record row before
 * and after the change (either may be absent): one spelling for SQLite's row triggers and
 * PostgreSQL's statement triggers (migration 0014).
 */
export function changeEntryValues(kind: string, op: string, at: string, before: string | null, after: string | null, extra: { post: boolean; events: boolean }): string {
  const current = after ?? before!;
  const col = (row: string | null, name: string) => (row === null ? 'null' : `${row}.${name}`);
  const post = extra.post;
  const protectedIn = (row: string | null) => (post && row !== null ? `cast(${row}.password <> '' as integer)` : 'null');
  return `${kind}, ${current}.id, ${op}, ${at},
    ${extra.events ? `${current}.post_parent` : '0'}, ${extra.events ? `${current}.is_series_master` : '0'},
    ${post ? col(before, 'status') : 'null'}, ${post ? col(after, 'status') : 'null'},
    ${post ? col(before, 'author') : 'null'}, ${post ? col(after, 'author') : 'null'},
    ${protectedIn(before)}, ${protectedIn(after)},
    ${extra.events ? col(before, 'hide_from_listings') : 'null'}, ${extra.events ? col(after, 'hide_from_listings') : 'null'},
    ${post ? col(before, 'date_utc') : 'null'}, ${post ? col(after, 'date_utc') : 'null'}`;
}

/** The SQLite entry of one statement, from `old`/`new` (either may be absent). */
function sqliteInsert(kind: string, op: string, before: 'old' | null, after: 'new' | null, extra: { post: boolean; events: boolean }): string {
  return `${SQLITE_NUMBER_TRANSACTION};
  insert into changes (tx, ${CHANGE_COLUMNS}) values (
    (select tx from feed_tx where id = 1), ${changeEntryValues(kind, op, SQLITE_NOW, before, after, extra)})
  on conflict (tx, kind, record_id) do update set ${MERGE};`;
}

const SQLITE_OP = `case when old.status is not 'trash' and new.status = 'trash' then 'trash'
  when old.status = 'trash' and new.status is not 'trash' then 'restore' else 'update' end`;

/**
 * SQLite cannot assign `new` in a trigger: one AFTER UPDATE trigger both bumps the revision (its
 * own update does not fire it again: recursive triggers are off) and records the entry. It fires
 * when any column changed — the columns as this migration sees them; a migration that adds a
 * column to a record table recreates it with `sqlitePostTriggers` so writes of that column count.
 */
export async function sqlitePostTriggers(db: Kysely<any>, table: string, kind: string): Promise<void> {
  const columns = (await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db)).rows.map((row) => row.name);
  const changed = columns.map((name) => `old.${name} is not new.${name}`).join(' or ');
  const extra = { post: true, events: table === 'events' };
  for (const name of [`${table}_insert_change`, `${table}_update_change`, `${table}_delete_change`]) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  await sql.raw(`create trigger ${table}_insert_change after insert on ${table} begin ${sqliteInsert(kind, "'create'", null, 'new', extra)} end`).execute(db);
  await sql.raw(`create trigger ${table}_update_change after update on ${table} when ${changed} begin
    update ${table} set revision = old.revision + 1 where id = new.id and new.revision = old.revision;
    ${sqliteInsert(kind, SQLITE_OP, 'old', 'new', extra)} end`).execute(db);
  await sql.raw(`create trigger ${table}_delete_change after delete on ${table} begin ${sqliteInsert(kind, "'delete'", 'old', null, extra)} end`).execute(db);
}

async function sqliteTermTriggers(db: Kysely<any>): Promise<void> {
  const extra = { post: false, events: false };
  const changed = [...TERM_FIELDS, 'revision'].map((name) => `old.${name} is not new.${name}`).join(' or ');
  await sql.raw(`create trigger terms_insert_change after insert on terms begin ${sqliteInsert(TERM_KIND('new'), "'create'", null, 'new', extra)} end`).execute(db);
  await sql.raw(`create trigger terms_update_change after update on terms when ${changed} begin
    update terms set revision = old.revision + 1 where id = new.id and new.revision = old.revision;
    ${sqliteInsert(TERM_KIND('new'), "'update'", 'old', 'new', extra)} end`).execute(db);
  await sql.raw(`create trigger terms_delete_change after delete on terms begin ${sqliteInsert(TERM_KIND('old'), "'delete'", 'old', null, extra)} end`).execute(db);
}

/** A link row written or removed: its event's revision goes up, which records the event's entry. */
async function linkTriggers(db: Kysely<any>, dialect: Dialect, table: string): Promise<void> {
  if (dialect === 'postgres') {
    await sql.raw(`create function ${table}_touch_event() returns trigger language plpgsql as $$
      begin
        update events set revision = revision + 1 where id = case when TG_OP = 'DELETE' then OLD.event_id else NEW.event_id end;
        return null;
      end $$`).execute(db);
    await sql.raw(`create trigger ${table}_touch_event after insert or update or delete on ${table} for each row execute function ${table}_touch_event()`).execute(db);
    return;
  }
  for (const [operation, row] of [['insert', 'new'], ['update', 'new'], ['delete', 'old']] as const) {
    await sql.raw(`create trigger ${table}_${operation}_touch_event after ${operation} on ${table} begin
      update events set revision = revision + 1 where id = ${row}.event_id; end`).execute(db);
  }
}
