import type { Kysely } from 'kysely';
import type { Status } from '../../domain/status.ts';
import type { Database, EventRow } from '../schema.ts';
import { toInt } from '../sql-helpers.ts';
import { effectiveStatusIn } from './linked-posts-repository.ts';

/** What re-expansion needs to know about an existing occurrence. */
export interface OccurrenceState {
  id: number;
  recurrence_key: string | null;
  recurrence_id: string | null;
  overridden: string | null;
  status: string;
  start_local: string;
  end_local: string;
  timezone: string;
}

export interface SeriesSummary {
  count: number;
  first: string | null;
  last: string | null;
}

/** Rows per insert statement: far below both dialects' parameter limits (60 §8). */
const BATCH = 500;

function chunks<T>(items: readonly T[], size = BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

type Changes = Partial<Omit<EventRow, 'id'>>;

/** The SQL of series: occurrences of a master, in batches; the only SQL about recurrence. */
export class SeriesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  occurrences(masterId: number): Promise<OccurrenceState[]> {
    return this.db
      .selectFrom('events')
      .select(['id', 'recurrence_key', 'recurrence_id', 'overridden', 'status', 'start_local', 'end_local', 'timezone'])
      .where('post_parent', '=', masterId)
      .execute();
  }

  /** New ids from the shared sequence, one statement per batch. */
  async allocateIds(count: number): Promise<number[]> {
    const ids: number[] = [];
    for (const batch of chunks(Array.from({ length: count }, () => ({ kind: 'event' as const })))) {
      const rows = await this.db.insertInto('objects').values(batch).returning('id').execute();
      ids.push(...rows.map((row) => row.id));
    }
    return ids;
  }

  async insert(rows: readonly EventRow[]): Promise<void> {
    for (const batch of chunks(rows)) await this.db.insertInto('events').values(batch).execute();
  }

  async update(id: number, changes: Changes): Promise<void> {
    await this.db.updateTable('events').set(changes).where('id', '=', id).execute();
  }

  async updateMany(ids: readonly number[], changes: Changes): Promise<void> {
    for (const batch of chunks(ids)) await this.db.updateTable('events').set(changes).where('id', 'in', batch).execute();
  }

  /** Rows and their links go with their ids (the cascade from the shared sequence). */
  async delete(ids: readonly number[]): Promise<void> {
    for (const batch of chunks(ids)) await this.db.deleteFrom('objects').where('id', 'in', batch).execute();
  }

  /**
   * Copies the master's values into its occurrences: one statement for those without overrides,
   * one per distinct set of overrides, each leaving the overridden columns alone.
   */
  async propagate(masterId: number, columnsFor: (overridden: readonly string[]) => Changes): Promise<void> {
    await this.db.updateTable('events').set(columnsFor([])).where('post_parent', '=', masterId).where('overridden', 'is', null).execute();
    const groups = await this.db
      .selectFrom('events')
      .select('overridden')
      .distinct()
      .where('post_parent', '=', masterId)
      .where('overridden', 'is not', null)
      .execute();
    for (const { overridden } of groups) {
      const changes = columnsFor(JSON.parse(overridden!) as string[]);
      if (Object.keys(changes).length === 0) continue;
      await this.db.updateTable('events').set(changes).where('post_parent', '=', masterId).where('overridden', '=', overridden).execute();
    }
  }

  /**
   * Gives the occurrences (`only` ids, or all of the series) the master's organizers and terms,
   * except where the occurrence overrides them.
   */
  async copyLinks(masterId: number, kinds: { organizers: boolean; categories: boolean; tags: boolean }, only?: readonly number[]): Promise<void> {
    const targets = (field: string) => (eb: any) => {
      let query = eb.selectFrom('events as o').select('o.id').where('o.post_parent', '=', masterId)
        .where((w: any) => w.or([w('o.overridden', 'is', null), w('o.overridden', 'not like', `%"${field}"%`)]));
      if (only) query = query.where('o.id', 'in', only.length > 0 ? [...only] : [0]);
      return query;
    };
    if (kinds.organizers) {
      await this.db.deleteFrom('event_organizers').where('event_id', 'in', targets('organizer')).execute();
      await this.db.insertInto('event_organizers').columns(['event_id', 'organizer_id', 'position'])
        .expression((eb) => eb.selectFrom(['event_organizers as l', 'events as o'])
          .select(['o.id', 'l.organizer_id', 'l.position'])
          .where('l.event_id', '=', masterId)
          .where('o.id', 'in', targets('organizer')(eb)))
        .execute();
    }
    for (const [taxonomy, field, wanted] of [['tribe_events_cat', 'categories', kinds.categories], ['post_tag', 'tags', kinds.tags]] as const) {
      if (!wanted) continue;
      const ofTaxonomy = (eb: any) => eb.selectFrom('terms').select('terms.id').where('terms.taxonomy', '=', taxonomy);
      await this.db.deleteFrom('event_terms').where('event_id', 'in', targets(field)).where('term_id', 'in', ofTaxonomy).execute();
      await this.db.insertInto('event_terms').columns(['event_id', 'term_id', 'position'])
        .expression((eb) => eb.selectFrom(['event_terms as l', 'events as o'])
          .select(['o.id', 'l.term_id', 'l.position'])
          .where('l.event_id', '=', masterId)
          .where('o.id', 'in', targets(field)(eb))
          .where('l.term_id', 'in', ofTaxonomy(eb)))
        .execute();
    }
  }

  /** A new master gets the organizers and terms of the event it is made from. */
  async cloneLinks(fromId: number, toId: number): Promise<void> {
    await this.db.insertInto('event_organizers').columns(['event_id', 'organizer_id', 'position'])
      .expression((eb) => eb.selectFrom('event_organizers').select([eb.val(toId).as('event_id'), 'organizer_id', 'position']).where('event_id', '=', fromId))
      .execute();
    await this.db.insertInto('event_terms').columns(['event_id', 'term_id', 'position'])
      .expression((eb) => eb.selectFrom('event_terms').select([eb.val(toId).as('event_id'), 'term_id', 'position']).where('event_id', '=', fromId))
      .execute();
  }

  /** Moves the occurrences from `start` on (original starts) to another master, keeping their ids (60 §6.1 `following`). */
  async reparent(fromId: number, toId: number, start: string): Promise<void> {
    await this.db.updateTable('events').set({ post_parent: toId }).where('post_parent', '=', fromId).where('recurrence_id', '>=', start).execute();
  }

  /** The occurrences from `start` on (original starts). */
  async following(masterId: number, start: string): Promise<OccurrenceState[]> {
    return this.db
      .selectFrom('events')
      .select(['id', 'recurrence_key', 'recurrence_id', 'overridden', 'status', 'start_local', 'end_local', 'timezone'])
      .where('post_parent', '=', masterId)
      .where('recurrence_id', '>=', start)
      .execute();
  }

  /** Count, first and last start of the masters' occurrences the statuses admit (60 §5). */
  async summaries(masterIds: readonly number[], statuses: readonly Status[], nowUtc: string): Promise<Map<number, SeriesSummary>> {
    const out = new Map<number, SeriesSummary>();
    if (masterIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('events')
      .select((eb) => ['post_parent', eb.fn.countAll().as('n'), eb.fn.min('start_local').as('first'), eb.fn.max('start_local').as('last')])
      .where('post_parent', 'in', [...masterIds])
      .where(effectiveStatusIn('events', statuses, nowUtc))
      .groupBy('post_parent')
      .execute();
    for (const row of rows) out.set(row.post_parent, { count: toInt(row.n), first: row.first as string | null, last: row.last as string | null });
    return out;
  }

  /** Masters whose occurrences stop before `horizon` and whose rule goes on (60 §4.1). */
  async mastersToExtend(horizon: string): Promise<number[]> {
    const rows = await this.db
      .selectFrom('events')
      .select('id')
      .where('is_series_master', '=', 1)
      .where('recurrence_complete', '=', 0)
      .where('recurrence_truncated', '=', 0)
      .where('recurrence_horizon', '<', horizon)
      .execute();
    return rows.map((row) => row.id);
  }
}
