import { sql, type Compilable, type CompiledQuery, type ExpressionBuilder, type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { DateWindowParam } from '../../domain/dates/date-window.ts';
import type { Status } from '../../domain/status.ts';
import type { SearchTerms } from '../../domain/text/search.ts';
import type { Database, EventRow, ObjectKind, Taxonomy } from '../schema.ts';
import { containsInsensitive, isPostgres, SCHEDULED, toInt, TRASHED } from '../sql-helpers.ts';
import { effectiveStatusIn } from './linked-posts-repository.ts';
import { asOfNow } from '../../domain/posts/scheduled.ts';
import type { GeoFilter } from '../../domain/geo/geo.ts';
import { nearVenues } from './geo-sql.ts';
import { noteTransactionId } from '../write-journal.ts';
import { PLANNED_PER_RUN } from '../prepared-statements.ts';
import { reusedQuery } from '../reusable-statements.ts';
import { hasModifiedBound, type ModifiedBounds } from '../../domain/sync/modified-bounds.ts';
import type { SortKey } from '../../domain/lists/list-order.ts';

/** The filters of the event list (10-events §4.2–§4.4), already validated and resolved to ids. */
export interface EventListFilter {
  statuses: readonly Status[];
  /** Compare the window with UTC instants (site zone UTC) or with each event's local wall clock. */
  windowOnUtc: boolean;
  bounds: Partial<Record<DateWindowParam, string>>;
  search?: SearchTerms;
  /** Categories with their descendants. */
  categoryIds?: readonly number[];
  tagIds?: readonly number[];
  venueIds?: readonly number[];
  organizerIds?: readonly number[];
  featured?: boolean;
  include?: readonly number[];
  /** Only events sent through the submission form (the back office's `submissions=1`, 120 §8.1). */
  submitted?: true;
  postParent?: number;
  /** `hide_from_listings` events too: only single pages reach them (55 §3.3). */
  withHidden?: boolean;
  /** 60 §5 `hide_subsequent_recurrences`: of each series only its earliest matching occurrence. */
  firstOfSeries?: boolean;
  /** Location search (70-geo §3): only events at an eligible venue, within the radius of a centre. */
  geo?: GeoFilter;
  /** Modification-time bounds (80 §2). */
  modified?: ModifiedBounds;
  /** Sort key (70 §3.2, 80 §2); `distance` needs `geo` with a centre. Default: start. */
  orderBy?: SortKey;
  /** Reverses the whole order, ties included. */
  orderDesc?: boolean;
}

type EventQuery = SelectQueryBuilder<Database, 'events', object>;
type Changes = Partial<Omit<EventRow, 'id'>>;
/** One taxonomy's terms of an event, in the order given. */
type TermList = { taxonomy: Taxonomy; termIds: readonly number[] };

const SEARCHED = ['title', 'excerpt', 'description'] as const;

/** Columns no list reads to choose or order its events (they are only shown). */
const ONLY_SHOWN: ReadonlySet<string> = new Set(['cost', 'currency_symbol', 'currency_position', 'website', 'show_map', 'show_map_link', 'revision']);
const MODIFIED = ['modified_local', 'modified_utc'];

/**
 * Whether a change of only these columns of one event leaves which events `filter` lists, and in
 * what order, as it was: text matters to a search, the modification time to its bounds and order.
 */
export function listUnaffectedBy(filter: EventListFilter, columns: readonly string[]): boolean {
  const readsModified = filter.orderBy === 'modified' || (filter.modified !== undefined && hasModifiedBound(filter.modified));
  return columns.every(
    (column) =>
      ONLY_SHOWN.has(column) ||
      (filter.search === undefined && (SEARCHED as readonly string[]).includes(column)) ||
      (!readsModified && MODIFIED.includes(column)),
  );
}

function anyField(eb: ExpressionBuilder<Database, 'events'>, word: string) {
  return eb.or(SEARCHED.map((column) => containsInsensitive(eb.ref(`events.${column}`), word)));
}

/**
 * Events and their links to organizers and terms; the only SQL about events. A scheduled event
 * reads as published once its instant has passed (40 §6.1), evaluated at read time as for
 * venues and organizers, so every instance sees the change at the same moment.
 */
export class EventsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    /** Now in UTC, `YYYY-MM-DD HH:MM:SS`. */
    private readonly nowUtc: string,
  ) {}

  async findById(id: number): Promise<EventRow | undefined> {
    const row = await this.db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
    return row && asOfNow(row, this.nowUtc);
  }

  /**
   * The event read for a write, its row lock held until the transaction ends: on PostgreSQL a
   * concurrent write then waits instead of being overwritten from a stale read. SQLite has no row
   * locks and needs none: the first statement of every transaction of ours is a write
   * (transactions.ts), so it already holds the database's one write lock.
   */
  async findForUpdate(id: number): Promise<EventRow | undefined> {
    const locks = isPostgres(this.db);
    const statement = reusedQuery(this.db, 'event for update', [id], ([eventId]) => {
      const query = this.db.selectFrom('events').selectAll().where('id', '=', eventId);
      return locks ? query.forUpdate() : query;
    });
    const [row] = (await this.db.executeQuery(statement)).rows;
    return row && asOfNow(row, this.nowUtc);
  }

  /**
   * PostgreSQL: the row heading the event's series — its master when it is an occurrence, the
   * event itself otherwise — read and locked in one statement, so that a writer takes the
   * series' lock before any occurrence's (60 §6).
   */
  async findSeriesHeadForUpdate(id: number): Promise<EventRow | undefined> {
    const statement = reusedQuery(this.db, 'series head for update', [id], ([memberId]) =>
      this.db
        .selectFrom('events')
        .selectAll()
        // The lock gives the transaction its id: the write journal's, read here instead of by a query of its own.
        .select(sql<string>`pg_current_xact_id()::text`.as('transaction_id'))
        .where(sql<SqlBool>`id = (select case when member.post_parent = 0 then member.id else member.post_parent end from events as member where member.id = ${memberId})`)
        .forUpdate(),
    );
    const [found] = (await this.db.executeQuery(statement)).rows;
    if (found === undefined) return undefined;
    const { transaction_id: transactionId, ...row } = found;
    noteTransactionId(this.db, transactionId);
    return asOfNow(row, this.nowUtc);
  }

  /** Events by id, as of now, in no particular order. */
  async findByIds(ids: readonly number[]): Promise<EventRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('events').selectAll().where('id', 'in', [...ids]).execute();
    return rows.map((row) => asOfNow(row, this.nowUtc));
  }

  /** Every occurrence of these series masters except trashed ones, as of now, in start order. */
  async occurrencesOf(masterIds: readonly number[]): Promise<EventRow[]> {
    if (masterIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('events')
      .selectAll()
      .where('post_parent', 'in', [...masterIds])
      .where('is_series_master', '=', 0)
      .where('status', '!=', 'trash')
      .orderBy('start_local')
      .orderBy('id')
      .execute();
    return rows.map((row) => asOfNow(row, this.nowUtc));
  }

  /**
   * The oldest event carrying `slug` in any status (slugs are unique among events); occurrences
   * share their master's slug and resolve to it (60 §2).
   */
  async findIdBySlug(slug: string): Promise<number | undefined> {
    if (slug === '') return undefined;
    const row = await this.db.selectFrom('events').select('id').where('slug', '=', slug).where('post_parent', '=', 0).orderBy('id').executeTakeFirst();
    return row?.id;
  }

  /**
   * The event of `id` that starts on a local date (YYYY-MM-DD): the first non-trashed occurrence
   * of a series master that day, or a standalone event itself when it starts that day (60 §2).
   */
  async findIdOnLocalDate(id: number, date: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('events')
      .select('id')
      .where((eb) => eb.or([eb('post_parent', '=', id), eb.and([eb('id', '=', id), eb('is_series_master', '=', 0)])]))
      .where('status', '!=', 'trash')
      .where('start_local', '>=', `${date} 00:00:00`)
      .where('start_local', '<=', `${date} 23:59:59`)
      .orderBy('start_local')
      .orderBy('id')
      .executeTakeFirst();
    return row?.id;
  }

  /**
   * One page of the list and the total across pages: two queries whatever the page size, sent
   * side by side (on PostgreSQL each on a connection of its own), or one after the other for a
   * list filtered by terms (`listThroughTerms`). A caller with `rowsUpTo` wants no rows beyond it
   * and waits for the total first.
   */
  async list(filter: EventListFilter, page: number, perPage: number, options: { rowsUpTo?: number } = {}): Promise<{ rows: EventRow[]; total: number; distances?: Map<number, number> }> {
    if ((filter.categoryIds ?? filter.tagIds) !== undefined && filter.geo === undefined && !filter.firstOfSeries) return this.listThroughTerms(filter, page, perPage, options);
    const counting = this.count(filter);
    if (options.rowsUpTo !== undefined && (await counting) > options.rowsUpTo) return { rows: [], total: await counting };
    const [total, listed] = await Promise.all([counting, this.page(filter, page, perPage)]);
    return total <= (page - 1) * perPage ? { rows: [], total } : { ...listed, total };
  }

  /**
   * A list filtered by terms: their events are visited once, by id, into a materialized set of
   * their sort keys, which gives the total and, sorted for the page's rows only (a top-N sort), the
   * page — with the page's rows, in one statement. A page read from the start-order index instead
   * walked the window until it had its rows: at 200,000 events a category of 3 events read a
   * window of 100,000 (0.5–1 s on SQLite), and so did a busy category with a search word it lacks
   * (360 ms on SQLite, 300 on PostgreSQL). Returning every match's id in list order instead cost
   * a full sort and a row per match: 2.5 of the 6.3 ms SQLite took for a category's 4,900 events
   * of a year at 200,000.
   */
  private async listThroughTerms(filter: EventListFilter, page: number, perPage: number, { rowsUpTo }: { rowsUpTo?: number }): Promise<{ rows: EventRow[]; total: number }> {
    if (this.walksOneTerm(filter)) return this.walkThroughTerm(filter, page, perPage, rowsUpTo);
    const { keys, direction } = listOrder(filter);
    const inOrder = <Q extends { orderBy: (expression: RawBuilder<unknown>, direction: 'asc' | 'desc') => Q }>(query: Q, table: string) =>
      keys.reduce((ordered, key) => ordered.orderBy(sql.ref(`${table}.${key}`), direction), query);
    const statement = this.statementFor('through terms', [filter, page, perPage], (repo) =>
      repo.db
        .with((cte) => cte('matching').materialized(), () => inStartWindow(repo.filtered(filter, { drivenByTerms: true }), filter).select(keys.map((key) => `events.${key}` as const)))
        .selectFrom((db) => db.selectFrom('matching').select((eb) => eb.fn.countAll().as('list_total')).as('counted'))
        .leftJoin(
          (db) => inOrder(db.selectFrom('matching').selectAll(), 'matching').limit(perPage).offset((page - 1) * perPage).as('paged'),
          (join) => join.onTrue(),
        )
        .leftJoin('events', 'events.id', 'paged.id')
        .selectAll('events')
        .select('counted.list_total')
        .$call((query) => inOrder(query, 'paged'))
        // Planned for its terms and window on every run (a generic plan misjudged them, prepared-statements.ts).
        .$if(isPostgres(repo.db), (q) => q.modifyEnd(sql.raw(PLANNED_PER_RUN))),
    );
    const listed = (await this.db.executeQuery(statement)).rows;
    const total = toInt(listed[0].list_total);
    if (rowsUpTo !== undefined && total > rowsUpTo) return { rows: [], total };
    // An empty page is the total's row alone, its event's columns null.
    const rows = listed.flatMap(({ list_total: _total, ...row }) => (row.id === null ? [] : [asOfNow(row as EventRow, this.nowUtc)]));
    return { rows, total };
  }

  /**
   * Whether the page can be read by walking one term's links in start order (SQLite; the list in
   * start order; a single term drives it): the links' index gives the order, so only ties on the
   * start are sorted, and the walk stops once it has the page.
   */
  private walksOneTerm(filter: EventListFilter): boolean {
    const driving = filter.categoryIds ?? filter.tagIds;
    return !isPostgres(this.db) && driving?.length === 1 && listOrder(filter).keys[0] === 'start_local';
  }

  /**
   * The page first, walking the term's links in list order; then the total, counted without
   * keeping the matches — unless the walk reached the window's end, when the page says it. Where
   * most of the term's events match (a category and a word its titles share), the walk reads a
   * page's worth of events and the count reads each event once: at 200,000 events, 4,900 matches
   * took 5.2–6.0 ms in SQLite with the materialized set; the walk's page takes 0.2–0.4 and its
   * count 2.5–4.9. Where few match, the walk reads the whole window and the count is not needed.
   */
  private walkThroughTerm(filter: EventListFilter, page: number, perPage: number, rowsUpTo: number | undefined): Promise<{ rows: EventRow[]; total: number }> {
    // The page and its count on the connection held for both: no other request's write runs between them.
    if (this.db.isTransaction) return this.walk(filter, page, perPage, rowsUpTo);
    return this.db.connection().execute((db) => new EventsRepository(db, this.nowUtc).walk(filter, page, perPage, rowsUpTo));
  }

  /** `walkThroughTerm` on a connection already held. */
  private async walk(filter: EventListFilter, page: number, perPage: number, rowsUpTo: number | undefined): Promise<{ rows: EventRow[]; total: number }> {
    const { keys, direction } = listOrder(filter);
    // The links are bounded by the window already (`filtered`): no second bound on the events.
    const walked = this.statementFor('walk', [filter, page, perPage], (repo) =>
      keys
        .reduce((ordered, key) => ordered.orderBy(sql.ref(key === 'start_local' ? 'tagged.link_start' : `events.${key}`), direction), repo.filtered(filter, { drivenByTerms: true }).selectAll('events'))
        .limit(perPage)
        .offset((page - 1) * perPage),
    );
    const { rows } = await this.db.executeQuery(walked);
    const skipped = (page - 1) * perPage;
    const counted = () => this.statementFor('walk count', [filter], (repo) => repo.filtered(filter, { drivenByTerms: true }).select((eb) => eb.fn.countAll().as('n')));
    const total =
      rows.length < perPage && (rows.length > 0 || skipped === 0) ? skipped + rows.length : toInt((await this.db.executeQuery(counted())).rows[0].n);
    if (rowsUpTo !== undefined && total > rowsUpTo) return { rows: [], total };
    return { rows: rows.map((row) => asOfNow(row, this.nowUtc)), total };
  }

  private async page(filter: EventListFilter, page: number, perPage: number): Promise<{ rows: EventRow[]; distances?: Map<number, number> }> {
    const direction = filter.orderDesc ? 'desc' : 'asc';
    // Equal distances fall back on the list's own order.
    const ordered = (repo: EventsRepository) => {
      const selected = repo.listed(filter).selectAll('events');
      return inListOrder(filter.orderBy === 'distance' ? selected.orderBy(sql`near.distance_km`, direction) : selected, filter);
    };
    if (filter.geo?.centre === undefined) {
      const { rows } = await this.db.executeQuery(this.statementFor('page', [filter, page, perPage], (repo) => ordered(repo).limit(perPage).offset((page - 1) * perPage)));
      return { rows: rows.map((row) => asOfNow(row, this.nowUtc)) };
    }
    const rows = await ordered(this)
      .select(sql<number>`near.distance_km`.as('geo_distance_km'))
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute();
    const distances = new Map(rows.map((row) => [row.id, Number(row.geo_distance_km)]));
    return { rows: rows.map(({ geo_distance_km: _distance, ...row }) => asOfNow(row, this.nowUtc)), distances };
  }

  /**
   * The number of listed events. A window of whole days, or one ending after or before an instant
   * (the back office's Upcoming and Past tabs), without other filters adds up the day counts of
   * 0011 and counts one by one only the events ending on the instant's own day and the scheduled
   * ones (their status as read depends on now); anything else counts the matching rows. A
   * collapsed list takes each series' repeats off, counted from the series' own occurrences
   * (`events_series_order`, 0032).
   */
  private async count(filter: EventListFilter): Promise<number> {
    const days = dayWindow(filter);
    if (days === undefined) {
      const counted = this.statementFor('count', [filter], (repo) =>
        repo.filtered(filter, { drivenByTerms: true }).select(filter.firstOfSeries ? sql<number>`count(*) - count(nullif(events.post_parent, 0)) + count(distinct nullif(events.post_parent, 0))`.as('n') : (eb) => eb.fn.countAll().as('n')),
      );
      return toInt((await this.db.executeQuery(counted)).rows[0].n);
    }
    const plain = filter.statuses.filter((status) => status !== 'future');
    const scheduled = filter.statuses.filter((status) => status === 'publish' || status === 'future');
    const edges = [...new Set([days.endsAfter, days.endsBefore].filter((day) => day !== undefined))];
    const statement = this.statementFor('day count', [filter], (repo) => repo.db
      .selectNoFrom((eb) => [
        plain.length === 0
          ? sql<number>`0`.as('days')
          : eb
              .selectFrom('event_day_counts')
              .select((inner) => inner.fn.sum<number | string | null>('n').as('n'))
              .where('clock', '=', filter.windowOnUtc ? 'utc' : 'local')
              .where('status', 'in', plain)
              .$if(days.from !== undefined, (q) => q.where('start_day', '>=', days.from!))
              .$if(days.to !== undefined, (q) => q.where('end_day', '<=', days.to!))
              .$if(days.endsAfter !== undefined, (q) => q.where('end_day', '>', days.endsAfter!))
              .$if(days.endsBefore !== undefined, (q) => q.where('end_day', '<', days.endsBefore!))
              .$if(!filter.withHidden, (q) => q.where('hidden', '=', 0))
              .as('days'),
        plain.length === 0 || edges.length === 0
          ? sql<number>`0`.as('edges')
          : repo.filtered({ ...filter, statuses: plain }, { endingOn: edges })
              // Stored statuses, as the day counts have them: the scheduled part counts the rest.
              .where('events.status', '!=', SCHEDULED)
              .select((inner) => inner.fn.countAll().as('n'))
              .as('edges'),
        scheduled.length === 0
          ? sql<number>`0`.as('scheduled')
          : repo.filtered({ ...filter, statuses: scheduled }, { byOtherIndex: true })
              .where('events.status', '=', SCHEDULED)
              .select((inner) => inner.fn.countAll().as('n'))
              .as('scheduled'),
        filter.firstOfSeries
          ? repo.filtered(filter)
              .where('events.post_parent', '>', 0)
              .select(sql<number>`count(*) - count(distinct events.post_parent)`.as('n'))
              .as('repeats')
          : sql<number>`0`.as('repeats'),
      ]));
    const [row] = (await this.db.executeQuery(statement)).rows;
    return toInt(row.days) + toInt(row.edges) + toInt(row.scheduled) - toInt(row.repeats);
  }

  /** The list's events before paging: the filtered ones, or of each series its first. */
  private listed(filter: EventListFilter): EventQuery {
    return filter.firstOfSeries ? this.firstOfEachSeries(filter) : this.filtered(filter);
  }

  /**
   * The statement `build` makes of a repository, built once per `name` and `key` (the filter, the
   * page) with now stood in for, then run with this repository's now: a list read again after
   * every write, its first read, is not built and compiled again each time (reusable-statements.ts).
   */
  private statementFor<Row>(name: string, key: unknown, build: (repo: EventsRepository) => Compilable<Row>): CompiledQuery<Row> {
    return reusedQuery(this.db, `events ${name} ${JSON.stringify(key)}`, [this.nowUtc], ([nowUtc]) => build(new EventsRepository(this.db, nowUtc)));
  }

  /** Local start and end of every filtered event, nothing else: per-day counts of a crowded month (55 §4). */
  async spans(filter: EventListFilter): Promise<Array<{ start_local: string; end_local: string }>> {
    return this.filtered(filter).select(['events.start_local', 'events.end_local']).execute();
  }

  /**
   * The filtered events keeping, of each series, the earliest occurrence (start, then id). The
   * earliest are ranked among the series' own filtered occurrences (`post_parent > 0`, its index)
   * and kept as a set, so the list itself stays a plain filtered query: its page reads the
   * start-order index only as far as its rows. Ranking every event of the window instead (one
   * window function over the filtered events) took 90–125 ms in SQLite at 20,000 events, for each
   * of page and count.
   */
  private firstOfEachSeries(filter: EventListFilter): EventQuery {
    const firsts = this.db
      .selectFrom(
        this.filtered(filter)
          .where('events.post_parent', '>', 0)
          .select(['events.id', sql<number>`row_number() over (partition by events.post_parent order by events.start_local, events.id)`.as('series_rank')])
          .as('ranked'),
      )
      .select('ranked.id')
      .where('ranked.series_rank', '=', 1);
    return this.filtered(filter).where((eb) => eb.or([eb('events.post_parent', '=', 0), eb('events.id', 'in', firsts)]));
  }

  /**
   * With `drivenByTerms`, a term filter becomes the outer loop: the events carrying the first
   * filter's terms, each looked up by id (a CROSS JOIN, whose order SQLite keeps), instead of every
   * event of the window probed for its terms. A count costs the term's events of the window then
   * (their links carry the start, 0018), not all the window's events.
   * PostgreSQL orders joins by its estimates, and it prices a search's `lower(…) like` as cheap:
   * with a search, it scanned a year's window (10,000 events, 14 ms at 20,000) to keep the
   * category's 500. So it takes the first term filter's events as an array of ids instead.
   * With `endingOn`, only the events ending on those days (of the window's clock) are read, found
   * by the end's index in the same way.
   */
  private filtered(
    filter: EventListFilter,
    { drivenByTerms = false, byOtherIndex = false, endingOn }: { drivenByTerms?: boolean; byOtherIndex?: boolean; endingOn?: readonly string[] } = {},
  ): EventQuery {
    const termFilters = [filter.categoryIds, filter.tagIds].filter((ids) => ids !== undefined);
    const byIdArray = drivenByTerms && isPostgres(this.db);
    const driving = drivenByTerms ? termFilters.shift() : undefined;
    // The links carry their event's local start (0018): only the terms' events of the window are
    // read. An event is linked to a term once: only several terms need DISTINCT (a sort by id).
    const { from: startsFrom, to: startsTo } = localStartRange(filter);
    const tagged = (ids: readonly number[]) =>
      this.db
        .selectFrom('event_terms')
        .select('event_terms.event_id')
        // The link's copy of the start orders a walk of one term's links (walkThroughTerm).
        .$if(!byIdArray, (q) => q.select('event_terms.start_local as link_start'))
        .$if(ids.length > 1, (q) => q.distinct())
        .where('event_terms.term_id', 'in', nonEmpty(ids))
        .$if(startsFrom !== undefined, (q) => q.where('event_terms.start_local', '>=', startsFrom!))
        .$if(startsTo !== undefined, (q) => q.where('event_terms.start_local', '<=', startsTo!));
    const end = filter.windowOnUtc ? 'end_utc' : 'end_local';
    const ending = (days: readonly string[]) =>
      this.db
        .selectFrom('events as ending')
        .select('ending.id as event_id')
        .where((eb) => eb.or(days.map((day) => eb.and([eb(`ending.${end}`, '>=', `${day} 00:00:00`), eb(`ending.${end}`, '<=', `${day} 23:59:59`)]))));
    const from =
      endingOn !== undefined
        ? isPostgres(this.db)
          ? this.db.selectFrom('events').where('events.id', 'in', ending(endingOn))
          : (this.db.selectFrom(ending(endingOn).as('ending')).crossJoin('events').whereRef('events.id', '=', 'ending.event_id') as unknown as EventQuery)
        : driving === undefined
        ? this.db.selectFrom('events')
        : byIdArray
          ? this.db.selectFrom('events').where(sql<SqlBool>`events.id = any(array${tagged(driving)})`)
          : (this.db
              .selectFrom(tagged(driving).as('tagged'))
              .crossJoin('events')
              .whereRef('events.id', '=', 'tagged.event_id') as unknown as EventQuery);
    let query: EventQuery = from
      .where(effectiveStatusIn('events', filter.statuses, this.nowUtc))
      // Series masters are never listed, their occurrences are (60 §2). `byOtherIndex` writes the
      // test so that no index serves it: SQLite has no statistics and takes an equality on
      // `is_series_master` (every listed event) over a narrow range of the end or the status.
      .where(byOtherIndex ? sql<SqlBool>`+events.is_series_master = 0` : sql<SqlBool>`is_series_master = ${0}`);
    if (!filter.withHidden) query = query.where('hide_from_listings', '=', 0);
    if (filter.geo !== undefined) {
      // The join adds `near` for ordering and distances; the rest of the query names only events.
      query = query.innerJoin(nearVenues(filter.geo, this.nowUtc), 'near.venue_id', 'events.venue_id') as unknown as EventQuery;
    }
    const start = filter.windowOnUtc ? 'start_utc' : 'start_local';
    const { bounds } = filter;
    if (bounds.start_date !== undefined) query = query.where(start, '>=', bounds.start_date);
    if (bounds.end_date !== undefined) {
      // An event never ends before it starts, so this also bounds the start: the index range on
      // (status, start) then stops at the window's end instead of running to the last event.
      query = query.where(end, '<=', bounds.end_date).where(start, '<=', bounds.end_date);
    }
    if (bounds.starts_before !== undefined) query = query.where(start, '<', bounds.starts_before);
    if (bounds.starts_after !== undefined) query = query.where(start, '>', bounds.starts_after);
    if (bounds.ends_before !== undefined) query = query.where(end, '<', bounds.ends_before);
    if (bounds.ends_after !== undefined) query = query.where(end, '>', bounds.ends_after);
    if (filter.modified?.after !== undefined) query = query.where('events.modified_utc', '>=', filter.modified.after);
    if (filter.modified?.before !== undefined) query = query.where('events.modified_utc', '<', filter.modified.before);
    for (const word of filter.search?.include ?? []) query = query.where((eb) => anyField(eb, word));
    for (const word of filter.search?.exclude ?? []) query = query.where((eb) => eb.not(anyField(eb, word)));
    for (const ids of termFilters) {
      query = query.where((eb) =>
        eb.exists(eb.selectFrom('event_terms').select('event_terms.event_id').whereRef('event_terms.event_id', '=', 'events.id').where('event_terms.term_id', 'in', nonEmpty(ids))),
      );
    }
    // A trashed venue or organizer is as if not linked (20 §8.2), for the filters too.
    if (filter.venueIds !== undefined) {
      const ids = nonEmpty(filter.venueIds);
      query = query.where('events.venue_id', 'in', (eb) => eb.selectFrom('venues').select('venues.id').where('venues.id', 'in', ids).where('venues.status', '!=', TRASHED));
    }
    if (filter.organizerIds !== undefined) {
      const ids = nonEmpty(filter.organizerIds);
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('event_organizers')
            .innerJoin('organizers', 'organizers.id', 'event_organizers.organizer_id')
            .select('event_organizers.event_id')
            .whereRef('event_organizers.event_id', '=', 'events.id')
            .where('event_organizers.organizer_id', 'in', ids)
            .where('organizers.status', '!=', TRASHED),
        ),
      );
    }
    if (filter.featured !== undefined) query = query.where('featured', '=', filter.featured ? 1 : 0);
    if (filter.include !== undefined) query = query.where('id', 'in', nonEmpty(filter.include));
    if (filter.submitted) query = query.where('id', 'in', (eb) => eb.selectFrom('submissions').select('submissions.event_id'));
    if (filter.postParent !== undefined) query = query.where('post_parent', '=', filter.postParent);
    return query;
  }

  /** Inserts the events in one statement and returns them as stored, as of now, in no particular order. */
  async insert(rows: readonly EventRow[]): Promise<EventRow[]> {
    if (rows.length === 0) return [];
    const stored = await this.db.insertInto('events').values([...rows]).returningAll().execute();
    return stored.map((row) => asOfNow(row, this.nowUtc));
  }

  async update(id: number, changes: Changes): Promise<void> {
    await this.db.updateTable('events').set(changes).where('id', '=', id).execute();
  }

  /**
   * Updates the event and returns its row as stored, in one statement. The revision is bumped
   * here rather than by the triggers, whose SQLite version runs after the statement and so after
   * its RETURNING; the triggers leave a revision the statement moved alone.
   */
  async updateReturning(current: EventRow, changes: Changes): Promise<EventRow> {
    // Columns left undefined are not written (as Kysely leaves them out): the statement names the rest.
    const set = Object.entries({ ...changes, revision: (current.revision ?? 0) + 1 }).filter(([, value]) => value !== undefined);
    const statement = reusedQuery(this.db, `event update ${set.map(([column]) => column).join(' ')}`, [current.id, ...set.map(([, value]) => value)], ([id, ...values]) =>
      this.db
        .updateTable('events')
        .set(Object.fromEntries(set.map(([column], index) => [column, values[index]])) as Changes)
        .where('id', '=', id as number)
        .returningAll(),
    );
    const [row] = (await this.db.executeQuery(statement)).rows;
    if (row === undefined) throw new Error(`event ${current.id} was not there to update`);
    return asOfNow(row, this.nowUtc);
  }

  /** Replaces the event's organizers, keeping the given order. */
  async setOrganizers(eventId: number, organizerIds: readonly number[]): Promise<void> {
    await this.db.deleteFrom('event_organizers').where('event_id', '=', eventId).execute();
    await this.linkOrganizers([{ eventId, organizerIds }]);
  }

  /** Adds organizers to events, each list in its order, in one statement. */
  async linkOrganizers(links: ReadonlyArray<{ eventId: number; organizerIds: readonly number[] }>): Promise<void> {
    const rows = links.flatMap(({ eventId, organizerIds }) => organizerIds.map((organizer_id, position) => ({ event_id: eventId, organizer_id, position })));
    if (rows.length > 0) await this.db.insertInto('event_organizers').values(rows).execute();
  }

  /**
   * Replaces the event's terms of the given taxonomies, keeping those of any other, each list in
   * its order.
   */
  async setTerms(eventId: number, lists: readonly TermList[]): Promise<void> {
    if (lists.length === 0) return;
    await this.db
      .deleteFrom('event_terms')
      .where('event_id', '=', eventId)
      .where('term_id', 'in', (eb) => eb.selectFrom('terms').select('terms.id').where('terms.taxonomy', 'in', lists.map((list) => list.taxonomy)))
      .execute();
    await this.linkTerms([{ eventId, lists }]);
  }

  /**
   * Adds terms to events, each list in its order, in one statement. A link given its event's local
   * start spares the database looking it up (0018).
   */
  async linkTerms(links: ReadonlyArray<{ eventId: number; start?: string; lists: readonly TermList[] }>): Promise<void> {
    const rows = links.flatMap(({ eventId, start, lists }) =>
      lists.flatMap((list) => list.termIds.map((term_id, position) => ({ event_id: eventId, term_id, position, start_local: start ?? null }))),
    );
    if (rows.length === 0) return;
    // Each link's trigger locks its term's count row until commit: taking them in id order (the
    // position keeps the list's order) means two writers sharing terms never deadlock.
    rows.sort((a, b) => a.term_id - b.term_id || a.event_id - b.event_id);
    await this.db.insertInto('event_terms').values(rows).execute();
  }

  /** Whether every id names a record of `kind` (one query for the whole list). */
  async allOfKind(ids: readonly number[], kind: ObjectKind): Promise<boolean> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return false;
    const row = await this.db
      .selectFrom('objects')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('id', 'in', unique)
      .where('kind', '=', kind)
      .executeTakeFirstOrThrow();
    return toInt(row.n) === unique.length;
  }
}

/**
 * The days of a window the day counts can total, with no other filter, else undefined: whole days
 * (`D 00:00:00` to `D 23:59:59`), and ending after or before an instant, whose own day's events
 * are counted one by one (`endsAfter`, `endsBefore`).
 */
function dayWindow(filter: EventListFilter): { from?: string; to?: string; endsAfter?: string; endsBefore?: string } | undefined {
  const { start_date: from, end_date: to, ends_after: endsAfter, ends_before: endsBefore, ...others } = filter.bounds;
  const narrowed =
    filter.search ?? filter.categoryIds ?? filter.tagIds ?? filter.venueIds ?? filter.organizerIds ?? filter.featured ?? filter.include ?? filter.submitted ?? filter.postParent ?? filter.geo;
  if (narrowed !== undefined || (filter.modified !== undefined && hasModifiedBound(filter.modified))) return undefined;
  if (Object.values(others).some((bound) => bound !== undefined)) return undefined;
  if ((from !== undefined && !from.endsWith(' 00:00:00')) || (to !== undefined && !to.endsWith(' 23:59:59'))) return undefined;
  return { from: from?.slice(0, 10), to: to?.slice(0, 10), endsAfter: endsAfter?.slice(0, 10), endsBefore: endsBefore?.slice(0, 10) };
}

/**
 * No wall clock is more than a day from UTC (offsets stay within −12…+14 hours, local mean times
 * within 16): a window on UTC instants bounds the local start too.
 */
const CLOCK_MARGIN_MS = 86_400_000;

/** `wall` moved by `ms`, or undefined outside the four-digit years that stored times use. */
function shiftWall(wall: string, ms: number): string | undefined {
  const shifted = Date.parse(`${wall.replace(' ', 'T')}Z`) + ms;
  if (Number.isNaN(shifted)) return undefined;
  const text = new Date(shifted).toISOString();
  return /^\d{4}-/.test(text) ? text.slice(0, 19).replace('T', ' ') : undefined;
}

/** The list's order (`orderby`, `order`); after the distance, the start order breaks ties. */
function inListOrder<O>(query: SelectQueryBuilder<Database, 'events', O>, filter: EventListFilter): SelectQueryBuilder<Database, 'events', O> {
  const { keys, direction } = listOrder(filter);
  return keys.reduce((ordered, key) => ordered.orderBy(`events.${key}`, direction), inStartWindow(query, filter));
}

/** The columns of events the list is sorted by, most significant first; the id last makes the order total. */
function listOrder(filter: EventListFilter): { keys: Array<'start_local' | 'date_local' | 'modified_utc' | 'id'>; direction: 'asc' | 'desc' } {
  const direction = filter.orderDesc ? 'desc' : 'asc';
  if (filter.orderBy === 'modified') return { keys: ['modified_utc', 'id'], direction };
  if (filter.orderBy === 'date' || (filter.include && filter.orderBy === undefined)) return { keys: ['date_local', 'id'], direction };
  // The default order, read from `events_list_order` (0011): the page is the first rows of an index range instead of a sorted window.
  return { keys: ['start_local', 'date_local', 'id'], direction };
}

/**
 * A list in start order on UTC instants also bounds the local start by the range the window
 * implies, so that the walk of the start-order index begins at the window instead of at the first
 * event ever.
 */
function inStartWindow<O>(query: SelectQueryBuilder<Database, 'events', O>, filter: EventListFilter): SelectQueryBuilder<Database, 'events', O> {
  if (!filter.windowOnUtc || listOrder(filter).keys[0] !== 'start_local') return query;
  const { from, to } = localStartRange(filter);
  let bounded = query;
  if (from !== undefined) bounded = bounded.where('events.start_local', '>=', from);
  if (to !== undefined) bounded = bounded.where('events.start_local', '<=', to);
  return bounded;
}

/**
 * The local starts, inclusive, that a window's events can have: its own bounds on the local
 * clock, widened by a day each way on UTC instants. Outside them no event of the window starts.
 */
function localStartRange(filter: EventListFilter): { from?: string; to?: string } {
  const { start_date, end_date, starts_after, starts_before } = filter.bounds;
  const from = start_date ?? starts_after;
  const to = end_date ?? starts_before;
  if (!filter.windowOnUtc) return { from, to };
  return { from: from === undefined ? undefined : shiftWall(from, -CLOCK_MARGIN_MS), to: to === undefined ? undefined : shiftWall(to, CLOCK_MARGIN_MS) };
}

/** `in ()` is not SQL; an empty id list matches nothing, as `in (0)` does (ids start at 1). */
function nonEmpty(ids: readonly number[]): number[] {
  return ids.length > 0 ? [...ids] : [0];
}
