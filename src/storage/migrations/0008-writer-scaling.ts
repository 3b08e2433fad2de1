import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { CHANGES_CHANNEL } from '../cache-epochs.ts';

/** The tables whose rows make up responses (as 0002 watched them). */
const WATCHED = ['events', 'venues', 'organizers', 'media', 'terms', 'event_terms', 'event_organizers'];

/**
 * Two designs that serialized writers, replaced. Read caches no longer key on the data-version row of 0002: every writer updated that one row,
 * so on PostgreSQL concurrent writers queued on its lock until commit. SQLite observes changes
 * through `PRAGMA data_version` and the connection's own change count instead; PostgreSQL
 * writers notify CHANGES_CHANNEL (one notification per transaction and schema, as the server
 * folds identical ones), which each instance's listener turns into a new cache epoch.
 */
export function writerScaling(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      if (dialect === 'postgres') {
        for (const table of WATCHED) await sql.raw(`drop trigger ${table}_data_version on ${table}`).execute(db);
        await sql`drop function bump_data_version()`.execute(db);
        await sql.raw(`create function notify_calendar_change() returns trigger language plpgsql as $$
          begin perform pg_notify('${CHANGES_CHANNEL}', TG_TABLE_SCHEMA); return null; end $$`).execute(db);
        for (const table of WATCHED) {
          await sql.raw(`create trigger ${table}_notify_change after insert or update or delete or truncate on ${table} for each statement execute function notify_calendar_change()`).execute(db);
        }
      } else {
        for (const table of WATCHED) {
          for (const operation of ['insert', 'update', 'delete']) await sql.raw(`drop trigger ${table}_${operation}_data_version`).execute(db);
        }
      }
      await db.schema.dropTable('data_version').execute();
      await publishedCounts(db, dialect);
    },
  };
}

/** The event rows a term count counts (60 §2: a series once, by its master); overdue scheduled ones are added at read time. */
const COUNTED = (row: 'new' | 'old') => `(${row}.status = 'publish' and ${row}.post_parent = 0)`;

/**
 * `terms.published_count`: the published events carrying the term, kept by triggers inside the
 * writing transaction. A term's count used to be counted per read, linear in its events, and
 * every create embeds its terms with their counts. An event leaving goes before its links: the
 * cascade that removes them then finds it no longer counted.
 */
async function publishedCounts(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('terms').addColumn('published_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`update terms set published_count = (
    select count(*) from event_terms join events on events.id = event_terms.event_id
    where event_terms.term_id = terms.id and events.status = 'publish' and events.post_parent = 0)`.execute(db);
  const linkCounted = (row: 'new' | 'old') => `exists (select 1 from events where events.id = ${row}.event_id and events.status = 'publish' and events.post_parent = 0)`;
  const statements = {
    linked: `update terms set published_count = published_count + 1 where id = new.term_id and ${linkCounted('new')}`,
    unlinked: `update terms set published_count = published_count - 1 where id = old.term_id and ${linkCounted('old')}`,
    changed: `update terms set published_count = published_count + (case when ${COUNTED('new')} then 1 else -1 end)
      where id in (select term_id from event_terms where event_id = new.id)`,
    removed: `update terms set published_count = published_count - 1 where id in (select term_id from event_terms where event_id = old.id)`,
  };
  const changedWhen = `(${COUNTED('old')}) <> (${COUNTED('new')})`;
  if (dialect === 'postgres') {
    const fn = async (name: string, body: string, returned: 'new' | 'old') =>
      sql.raw(`create function ${name}() returns trigger language plpgsql as $$ begin ${body}; return ${returned}; end $$`).execute(db);
    await fn('term_count_linked', statements.linked, 'new');
    await fn('term_count_unlinked', statements.unlinked, 'old');
    await fn('term_count_changed', statements.changed, 'new');
    await fn('term_count_removed', `if ${COUNTED('old')} then ${statements.removed}; end if`, 'old');
    await sql.raw('create trigger event_terms_count_insert after insert on event_terms for each row execute function term_count_linked()').execute(db);
    await sql.raw('create trigger event_terms_count_delete after delete on event_terms for each row execute function term_count_unlinked()').execute(db);
    await sql.raw(`create trigger events_count_update after update of status, post_parent on events for each row when (${changedWhen}) execute function term_count_changed()`).execute(db);
    await sql.raw('create trigger events_count_delete before delete on events for each row execute function term_count_removed()').execute(db);
  } else {
    await sql.raw(`create trigger event_terms_count_insert after insert on event_terms begin ${statements.linked}; end`).execute(db);
    await sql.raw(`create trigger event_terms_count_delete after delete on event_terms begin ${statements.unlinked}; end`).execute(db);
    await sql.raw(`create trigger events_count_update after update of status, post_parent on events when ${changedWhen} begin ${statements.changed}; end`).execute(db);
    await sql.raw(`create trigger events_count_delete before delete on events when ${COUNTED('old')} begin ${statements.removed}; end`).execute(db);
  }
}
