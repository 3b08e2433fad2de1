import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { LinkedFlag, LinkedPostType, LinkedTextField } from '../../domain/linked-posts/linked-post-type.ts';
import type { Status } from '../../domain/status.ts';
import type { Database, PostColumns } from '../schema.ts';
import { containsInsensitive, toInt, TRASHED } from '../sql-helpers.ts';
import { ObjectsRepository } from './objects-repository.ts';
import { asOfNow } from '../../domain/posts/scheduled.ts';
import type { GeoFilter } from '../../domain/geo/geo.ts';
import { nearVenues } from './geo-sql.ts';
import type { ModifiedBounds } from '../../domain/sync/modified-bounds.ts';

/** A stored venue or organizer; the text fields and flags present are those of its type. */
export interface LinkedRecord extends PostColumns, Partial<Record<LinkedTextField, string>>, Partial<Record<LinkedFlag, number>> {
  name: string;
  status: Status;
  pre_trash_status: Status | null;
  /** Venues only: degrees, both set or both null (70-geo §4.1). */
  geo_lat?: number | null;
  geo_lng?: number | null;
}

export interface LinkedListFilter {
  statuses: readonly Status[];
  /** Pieces of `search` that must all occur in one field (20 §5.4); an empty list matches nothing. */
  searchPieces?: readonly string[];
  eventId?: number;
  /** true: linked from a counted event; false: linked from none (20 §5.5). */
  hasEvents?: boolean;
  /** Only records linked from an event starting at or after now whose status is in `statuses`. */
  onlyWithUpcoming?: boolean;
  /** Venues only: location search by their own coordinates (70-geo §3.2). */
  geo?: GeoFilter;
  /** Modification-time bounds (80 §2). */
  modified?: ModifiedBounds;
  /**
   * Sort key (80 §2): `distance` nearest first (needs `geo` with a centre), ties by publication
   * date then id; `date` and `modified` ties by id. Neither key nor direction: newest first (20 §5.7).
   */
  orderBy?: 'date' | 'modified' | 'distance';
  /** The whole order reversed, ties included. */
  orderDesc?: boolean;
}

/**
 * Event statuses that count for `has_events` (20 §5.5; trashed events do not count in S). Of a
 * series, the occurrences count and the master does not (60 §2).
 */
const COUNTED_EVENT_STATUSES: readonly Status[] = ['publish', 'future', 'private'];

/**
 * Records whose status, as read now, is in `statuses`. A scheduled record is published once its
 * date has passed (40 §6.1): that is evaluated here at read time rather than by a background job,
 * so every instance sees it at the same instant.
 */
export function effectiveStatusIn(alias: string, statuses: readonly Status[], nowUtc: string): RawBuilder<SqlBool> {
  const status = sql.ref(`${alias}.status`);
  const dateUtc = sql.ref(`${alias}.date_utc`);
  const parts: RawBuilder<SqlBool>[] = [];
  const plain = statuses.filter((value) => value !== 'future');
  if (plain.length > 0) parts.push(sql<SqlBool>`${status} in (${sql.join(plain)})`);
  if (statuses.includes('publish')) parts.push(sql<SqlBool>`(${status} = 'future' and ${dateUtc} <= ${nowUtc})`);
  if (statuses.includes('future')) parts.push(sql<SqlBool>`(${status} = 'future' and ${dateUtc} > ${nowUtc})`);
  if (parts.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

/**
 * Which of these venue ids and organizer ids are records, any status (as `existingIds` finds
 * them), in one statement: a group of creates names both kinds.
 */
export async function existingVenueAndOrganizerIds(
  db: Kysely<Database>,
  ids: { venues: readonly number[]; organizers: readonly number[] },
): Promise<{ venues: Set<number>; organizers: Set<number> }> {
  const found = { venues: new Set<number>(), organizers: new Set<number>() };
  const lookups = (['venues', 'organizers'] as const)
    .filter((table) => ids[table].length > 0)
    .map((table) => db.selectFrom(table).select([sql.lit(table).as('kind'), 'id']).where('id', 'in', [...new Set(ids[table])]));
  if (lookups.length === 0) return found;
  const rows = await (lookups.length === 1 ? lookups[0] : lookups[0].unionAll(lookups[1])).execute();
  for (const row of rows) found[row.kind as keyof typeof found].add(row.id);
  return found;
}

/**
 * Venues or organizers, one class for both tables. Only the post columns, `name`, `phone` and
 * `website` are common to both; queries name the table through the `venues` type for Kysely and
 * read or write type-specific columns through whole-record objects.
 */
export class LinkedPostsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly type: LinkedPostType,
    /** Now in UTC, `YYYY-MM-DD HH:MM:SS`: scheduled records read as published after it. */
    private readonly nowUtc: string,
  ) {}

  private get table(): 'venues' {
    return this.type.collection as 'venues';
  }

  private from() {
    return this.db.selectFrom(`${this.table} as p`);
  }

  private record(row: object): LinkedRecord {
    return asOfNow(row as LinkedRecord, this.nowUtc);
  }

  /** (linked_id, event_id, position) for every link of this type from an event. */
  private links(): RawBuilder<unknown> {
    return this.type.kind === 'venue'
      ? sql`(select venue_id as linked_id, id as event_id, 0 as position from events where venue_id is not null)`
      : sql`(select organizer_id as linked_id, event_id, position from event_organizers)`;
  }

  async findById(id: number): Promise<LinkedRecord | undefined> {
    const row = await this.from().selectAll('p').where('p.id', '=', id).executeTakeFirst();
    return row && this.record(row);
  }

  /** Records of this type by id, any status, as of now, in no particular order. */
  async findByIds(ids: readonly number[]): Promise<LinkedRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.from().selectAll('p').where('p.id', 'in', [...new Set(ids)]).execute();
    return rows.map((row) => this.record(row));
  }

  /** Which of these ids are records of this type, any status (as `findById` finds them). */
  async existingIds(ids: readonly number[]): Promise<Set<number>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Set();
    const rows = await this.db.selectFrom(this.table).select('id').where('id', 'in', unique).execute();
    return new Set(rows.map((row) => row.id));
  }

  /** Any status; when several share the slug the oldest wins (20 §4.2). */
  async findBySlug(slug: string): Promise<LinkedRecord | undefined> {
    if (slug === '') return undefined;
    const row = await this.from().selectAll('p').where('p.slug', '=', slug).orderBy('p.id').limit(1).executeTakeFirst();
    return row && this.record(row);
  }

  /** The records with these ids, trashed ones left out (20 §8.2); `recordsById` reads the rows. */
  byIdsQuery(ids: readonly number[]) {
    return this.from().selectAll('p').where('p.id', 'in', [...new Set(ids)]).where('p.status', '!=', TRASHED);
  }

  recordsById(rows: readonly object[]): Map<number, LinkedRecord> {
    return new Map(rows.map((row) => [(row as LinkedRecord).id, this.record(row)]));
  }

  /**
   * Records linked from the given events, trashed ones left out (20 §8.2), each row naming its
   * event and its place in the event's list; `linkedRecords` reads the rows.
   */
  linkedToEventsQuery(eventIds: readonly number[]) {
    return this.from()
      .innerJoin(sql<{ linked_id: number; event_id: number; position: number }>`${this.links()}`.as('l'), 'l.linked_id', 'p.id')
      .selectAll('p')
      .select(['l.event_id as linked_event_id', 'l.position as linked_position'])
      .where('l.event_id', 'in', [...new Set(eventIds)])
      .where('p.status', '!=', TRASHED);
  }

  /** The rows of `linkedToEventsQuery` in the events' linking order (rows gathered as JSON keep no order). */
  linkedRecords(rows: ReadonlyArray<{ linked_event_id: number; linked_position: number }>): Array<{ eventId: number; record: LinkedRecord }> {
    return [...rows]
      .sort((a, b) => a.linked_event_id - b.linked_event_id || a.linked_position - b.linked_position)
      .map(({ linked_event_id, linked_position: _position, ...row }) => ({ eventId: linked_event_id, record: this.record(row) }));
  }

  /**
   * Duplicate candidates of a create (20 §6.5): same name and, when given, same description, both
   * compared case-insensitively; any status but trash; oldest first.
   */
  async findDuplicateCandidates(name: string, description: string | undefined): Promise<LinkedRecord[]> {
    // SQLite's lower() folds ASCII letters only, PostgreSQL's every letter: SQL only narrows the
    // candidates by a test both dialects agree on, the comparison itself is made here.
    const narrow = /^[\x00-\x7f]*$/.test(name)
      ? sql<SqlBool>`lower(p.name) = ${name.toLowerCase()}`
      : sql<SqlBool>`length(p.name) = ${[...name].length}`;
    const rows = await this.from().selectAll('p').where('p.status', '!=', 'trash').where(narrow).orderBy('p.id').execute();
    const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
    return rows
      .filter((row) => same(row.name, name) && (description === undefined || same(row.description, description)))
      .map((row) => this.record(row));
  }

  /**
   * One page of a list and the number of matches over all pages, in one query; with a location
   * search centre, `distances` gives each listed venue's distance in km.
   */
  async list(filter: LinkedListFilter, offset: number, limit: number): Promise<{ records: LinkedRecord[]; total: number; distances?: Map<number, number> }> {
    let query = this.from()
      .selectAll('p')
      .select(sql<number | string>`count(*) over ()`.as('total_matches'))
      .where(effectiveStatusIn('p', filter.statuses, this.nowUtc));
    if (filter.geo !== undefined) {
      query = query
        .innerJoin(nearVenues(filter.geo, this.nowUtc), 'near.venue_id', 'p.id')
        .select(sql<number | null>`near.distance_km`.as('geo_distance_km')) as unknown as typeof query;
    }
    if (filter.searchPieces !== undefined) query = query.where(this.searchCondition(filter.searchPieces));
    if (filter.eventId !== undefined) {
      query = query.where(sql<SqlBool>`p.id in (select l.linked_id from ${this.links()} l where l.event_id = ${filter.eventId})`);
    }
    if (filter.hasEvents !== undefined) {
      const linked = sql`select l.linked_id from ${this.links()} l join events e on e.id = l.event_id where e.is_series_master = 0 and e.status in (${sql.join(COUNTED_EVENT_STATUSES)})`;
      query = query.where(filter.hasEvents ? sql<SqlBool>`p.id in (${linked})` : sql<SqlBool>`p.id not in (${linked})`);
    }
    if (filter.onlyWithUpcoming) {
      query = query.where(
        sql<SqlBool>`p.id in (select l.linked_id from ${this.links()} l join events e on e.id = l.event_id where e.is_series_master = 0 and e.start_utc >= ${this.nowUtc} and ${effectiveStatusIn('e', filter.statuses, this.nowUtc)})`,
      );
    }
    if (filter.modified?.after !== undefined) query = query.where('p.modified_utc', '>=', filter.modified.after);
    if (filter.modified?.before !== undefined) query = query.where('p.modified_utc', '<', filter.modified.before);
    const direction = filter.orderBy === undefined && filter.orderDesc === undefined ? 'desc' : filter.orderDesc ? 'desc' : 'asc';
    if (filter.orderBy === 'distance') query = query.orderBy(sql`near.distance_km`, direction);
    query = filter.orderBy === 'modified'
      ? query.orderBy('p.modified_utc', direction).orderBy('p.id', direction)
      : query.orderBy('p.date_local', direction).orderBy('p.id', direction);
    const rows = await query.limit(limit).offset(offset).execute();
    const total = rows.length > 0 ? toInt(rows[0].total_matches) : 0;
    const distances = filter.geo?.centre === undefined
      ? undefined
      : new Map(rows.map((row) => [row.id, Number((row as { geo_distance_km?: unknown }).geo_distance_km)]));
    const records = rows.map(({ total_matches: _total, ...row }) => {
      const { geo_distance_km: _distance, ...record } = row as typeof row & { geo_distance_km?: unknown };
      return this.record(record);
    });
    return { records, total, distances };
  }

  private searchCondition(pieces: readonly string[]): RawBuilder<SqlBool> {
    if (pieces.length === 0) return sql<SqlBool>`1 = 0`;
    const fields = ['name', 'description', 'excerpt', ...this.type.searchFields].map((field) => {
      const column = sql.ref(`p.${field}`);
      return sql<SqlBool>`(${sql.join(pieces.map((piece) => containsInsensitive(column, piece)), sql` and `)})`;
    });
    // Trashed records never match a search (20 §5.4).
    return sql<SqlBool>`(p.status <> 'trash' and (${sql.join(fields, sql` or `)}))`;
  }

  async insert(record: LinkedRecord): Promise<void> {
    await this.db.insertInto(this.table).values(record as never).execute();
  }

  async update(id: number, changes: Partial<LinkedRecord>): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await this.db.updateTable(this.table).set(changes as never).where('id', '=', id).execute();
  }

  /** Permanent deletion: exactly this record's links from events go with it (20 §8.2). */
  async deletePermanently(id: number): Promise<void> {
    if (this.type.kind === 'venue') {
      await this.db.updateTable('events').set({ venue_id: null }).where('venue_id', '=', id).execute();
    } else {
      await this.db.deleteFrom('event_organizers').where('organizer_id', '=', id).execute();
    }
    await this.db.deleteFrom(this.table).where('id', '=', id).execute();
    await new ObjectsRepository(this.db).delete(id);
  }

  /** Whether an event with this id exists, in any status (the list filter `event`, 20 §5.1). */
  async eventExists(id: number): Promise<boolean> {
    return (await this.db.selectFrom('events').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }
}
