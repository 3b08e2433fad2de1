import type { Kysely } from 'kysely';
import { can } from '../domain/auth/capabilities.ts';
import type { OwnedRecord } from '../domain/auth/record-permissions.ts';
import { parseInstant, parseWallClock } from '../domain/dates/date-input.ts';
import { formatWall } from '../domain/dates/datetime-format.ts';
import { utcToWall, wallToUtc } from '../domain/dates/time-zone.ts';
import { invalidParam, RestError } from '../domain/errors.ts';
import { REASONS } from '../domain/reasons.ts';
import { parseTimeZone } from '../domain/dates/time-zone.ts';
import { cleanWebsite } from '../domain/events/event-web.ts';
import { resolveSchedule } from '../domain/events/schedule.ts';
import { resolvePublication } from '../domain/posts/publication.ts';
import { restoredSlug, trashed } from '../domain/posts/trash.ts';
import { scaleRequestedStatus, type Status } from '../domain/status.ts';
import { inferCurrency, parseCostInput } from '../domain/text/cost.ts';
import { filterRichHtml } from '../domain/text/html-filter.ts';
import { slugify } from '../domain/text/slug.ts';
import type { User } from '../domain/users/user.ts';
import type { RenderContext } from '../render/context.ts';
import { EventsRepository, type EventListFilter } from '../storage/repositories/events-repository.ts';
import { MediaRepository } from '../storage/repositories/media-repository.ts';
import { ObjectsRepository } from '../storage/repositories/objects-repository.ts';
import { findFreeSlug, findFreeSlugs } from '../storage/repositories/slugs.ts';
import type { Database, EventRow, Taxonomy } from '../storage/schema.ts';
import { inTransaction } from '../storage/transactions.ts';
import { isPostgres } from '../storage/sql-helpers.ts';
import type { DescribedWrite, WriteJournal } from '../storage/write-journal.ts';
import { RECURRENCE_DEFAULTS } from '../config.ts';
import { knownLinkedIds, resolveEventOrganizers, resolveEventVenue } from './linked-posts-service.ts';
import { NO_RECURRENCE, overrideName, overridesOf, SeriesService, shiftWall, storedOverrides, type RecurrenceSettings } from './series-service.ts';
import { SeriesRepository } from '../storage/repositories/series-repository.ts';
import { isRecurrenceRemoval } from '../domain/recurrence/recurrence-input.ts';
import { loadRecurrence } from '../domain/recurrence/series.ts';
import { nominalEnd, type Expansion } from '../domain/recurrence/expand.ts';
import { resolveEventTerms } from './terms-service.ts';
import type { Settled } from './coalescer.ts';
import { checkPrecondition, type Precondition, type RecordTag } from '../domain/sync/preconditions.ts';

/**
 * The writable fields of an event, as validated request values. A property that is absent was
 * not sent (an update leaves that field alone, 10-events §7.2); empty values clear.
 */
export interface EventFields {
  title?: string;
  description?: string;
  excerpt?: string;
  slug?: string;
  author?: number;
  status?: Status;
  /** Date-time inputs of §2.1, parsed here in the right zone. */
  date?: unknown;
  date_utc?: unknown;
  start_date?: unknown;
  end_date?: unknown;
  /** '' = the site zone. */
  timezone?: string;
  all_day?: boolean;
  /** A media id, an image URL, or '' to remove. */
  image?: unknown;
  cost?: unknown;
  /** '' clears. */
  website?: string;
  show_map?: boolean;
  show_map_link?: boolean;
  hide_from_listings?: boolean;
  sticky?: boolean;
  featured?: boolean;
  categories?: unknown;
  tags?: unknown;
  venue?: unknown;
  organizer?: unknown;
  /** '' removes the password. */
  password?: string;
  /** 60 §3: any accepted spelling; a removal value (null, '', [], false) removes it. */
  recurrence?: unknown;
  /** 60 §6: which members of a series a write on an occurrence reaches. */
  scope?: Scope;
}

export type Scope = 'this' | 'following' | 'all';

/** What the permission and password rules (40 §5, §8) need to know about a stored event. */
export function eventOwnership(event: EventRow): OwnedRecord & { password: string } {
  return {
    author: event.author,
    status: event.status as Status,
    preTrashStatus: event.pre_trash_status as Status | null,
    password: event.password,
  };
}

/** The parts of an event's entity tag (80 §1.1). */
export function eventTag(event: EventRow): RecordTag {
  return { kind: 'e', id: event.id, revision: event.revision ?? 0 };
}

const SLUG_MAX = 200;
const FLAGS = ['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured'] as const;

/** Published, private and scheduled events have a slug; drafts and pending ones may have none. */
function needsSlug(status: Status): boolean {
  return status === 'publish' || status === 'private' || status === 'future';
}

function bit(value: boolean): number {
  return value ? 1 : 0;
}

/** Validation already accepted these inputs; a parse failure here would be a validator bug. */
function wallClock(name: string, input: unknown, zone: string, now: Date): string {
  const parsed = parseWallClock(input, zone, now);
  if (parsed === null) throw invalidParam(name, REASONS.date);
  return parsed;
}

function instant(name: string, input: unknown, now: Date): string {
  const parsed = parseInstant(input, 'UTC', now);
  if (parsed === null) throw invalidParam(name, REASONS.date);
  return parsed;
}

const NO_LINKS = { organizers: false, categories: false, tags: false };
const TERM_FIELDS = [['categories', 'tribe_events_cat'], ['tags', 'post_tag']] as const;

/** The term inputs a write sent, per taxonomy. */
function sentTerms(fields: EventFields): Array<{ taxonomy: Taxonomy; input: unknown }> {
  return TERM_FIELDS.flatMap(([field, taxonomy]) => (fields[field] === undefined ? [] : [{ taxonomy, input: fields[field] }]));
}

/** Whether the update relinks organizers or terms (`links`). */
function sendsLinks(fields: EventFields): boolean {
  return fields.organizer !== undefined || sentTerms(fields).length > 0;
}

/** One event create: the request it came in, who asks, and the validated fields. */
export interface CreateRequest {
  ctx: RenderContext;
  user: User;
  fields: EventFields;
}

interface EventDraft {
  request: CreateRequest;
  /** The slug asked for or derived from the title, before uniqueness ('' for none). */
  slug: string;
  trash: boolean;
  status: Status;
  expansion?: Expansion;
  columns: Omit<EventRow, 'id' | 'status' | 'slug' | 'pre_trash_status' | 'pre_trash_slug' | 'image_id' | 'venue_id'>;
}

/**
 * An edit sent to an occurrence with scope `all`/`following`, as it applies to the series (60
 * §6.1): new start/end move the series' first instance by the same amount as this occurrence.
 */
function seriesFields(fields: EventFields, occurrence: EventRow, master: EventRow, now: Date): EventFields {
  const zone = fields.timezone || master.timezone;
  const moved: EventFields = { ...fields, scope: undefined };
  if (fields.start_date !== undefined) moved.start_date = shiftWall(master.start_local, occurrence.start_local, wallClock('start_date', fields.start_date, zone, now));
  if (fields.end_date !== undefined) moved.end_date = shiftWall(master.end_local, occurrence.end_local, wallClock('end_date', fields.end_date, zone, now));
  return moved;
}

/** A storage failure after validation answers with the operation's own code (10-events §6.6, §8). */
async function failingAs<T>(code: 'could-not-create-event' | 'could-not-delete-event', work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RestError) throw error;
    throw new RestError(500, code, { cause: error });
  }
}

/**
 * An update of a standalone event described to the caches: the columns of its row that changed.
 * One that relinked organizers or terms, or may have created a venue or an image, changed other
 * records too and is not described.
 */
function describedUpdate(before: EventRow, after: EventRow, fields: EventFields): DescribedWrite | undefined {
  if (fields.venue !== undefined || fields.organizer !== undefined || fields.image !== undefined || sentTerms(fields).length > 0) return undefined;
  const columns = (Object.keys(after) as Array<keyof EventRow>).filter((column) => after[column] !== before[column]);
  return { kind: 'event', id: after.id, columns };
}

/** The changes that differ from the stored row, always with the modification time. */
function changedColumns(current: EventRow, changes: Partial<EventRow>): Partial<EventRow> {
  const changed: Partial<EventRow> = { modified_local: changes.modified_local, modified_utc: changes.modified_utc };
  for (const column of Object.keys(changes) as Array<keyof EventRow>) {
    if (changes[column] !== current[column]) Object.assign(changed, { [column]: changes[column] });
  }
  return changed;
}

/** What an update (or a delete) checks, and whom it tells, once it holds the event's row (updateIn). */
export interface UpdateChecks {
  /** The request's `If-Match` / `If-Unmodified-Since` (80 §1.2). */
  precondition?: Precondition;
  /**
   * The caller's right to edit (or delete), judged on the row as locked — the series master when
   * the event is an occurrence (60 §6) — before anything else: throws to refuse.
   */
  authorize?: (series: EventRow) => void;
  /** Told, with the row before and after, when the update was of a standalone event (no series involved). */
  onStandalone?: (before: EventRow, after: EventRow) => void;
  /** Told when the publication hook wrote other records too (what the update is described as no longer covers). */
  onHookWrites?: () => void;
}

/**
 * What else an update that publishes an event writes, inside its transaction (120 §8.2: the
 * publication of a submitted event is its approval); true when it wrote anything.
 */
export type PublicationHook = (trx: Kysely<Database>, ctx: RenderContext, user: User, event: EventRow) => Promise<boolean>;

/** Publication: a stored status that was neither published nor scheduled becomes one of them (40 §6.1). */
function publishes(before: EventRow, after: EventRow): boolean {
  const published = (status: string) => status === 'publish' || status === 'future';
  return !published(before.status) && published(after.status);
}

/** What a write's caller checks on the row it locks: its precondition and its right (UpdateChecks). */
type WriteChecks = Pick<UpdateChecks, 'precondition' | 'authorize'>;

/** Renders an event as stored, inside the write's transaction. */
type Describe<T> = (trx: Kysely<Database>, event: EventRow) => Promise<T>;

/** Event use cases (10-events §6–§8): each write runs in one transaction, so a failure writes nothing. */
export class EventsService {
  readonly series: SeriesService;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly siteZone: string,
    recurrence: RecurrenceSettings = RECURRENCE_DEFAULTS,
    /** Where updates are described, so that caches keep what they cannot have changed. */
    private readonly journal?: WriteJournal,
    /** Run by every update that publishes an event. */
    private readonly onPublication?: PublicationHook,
  ) {
    this.series = new SeriesService(recurrence);
  }

  /** The event with this id as read now; 404/400 when the id names no event. */
  read(id: number, now: Date): Promise<EventRow> {
    return this.existing(this.db, id, now);
  }

  /** The event for a permission gate, or undefined when the id names no event. */
  find(id: number, now: Date): Promise<EventRow | undefined> {
    return new EventsRepository(this.db, formatWall(now)).findById(id);
  }

  /** Series masters and their non-trashed occurrences (what an iCalendar file of a series needs). */
  async seriesOf(masterIds: readonly number[], now: Date): Promise<{ masters: EventRow[]; occurrences: EventRow[] }> {
    const events = new EventsRepository(this.db, formatWall(now));
    const [masters, occurrences] = await Promise.all([events.findByIds(masterIds), events.occurrencesOf(masterIds)]);
    return { masters, occurrences };
  }

  /**
   * The occurrence of a series whose original start is this UTC instant (an all-day series: whose
   * original date is its date), trashed ones included; undefined when the rule gives none there.
   */
  async occurrenceAt(master: EventRow, originalUtc: string, now: Date): Promise<EventRow | undefined> {
    const matches = (start: string) => (master.all_day === 1 ? start.slice(0, 10) === originalUtc.slice(0, 10) : wallToUtc(start, master.timezone) === originalUtc);
    const found = (await new SeriesRepository(this.db).occurrences(master.id)).find((row) => row.recurrence_id !== null && matches(row.recurrence_id));
    return found === undefined ? undefined : this.find(found.id, now);
  }

  findIdBySlug(slug: string, now: Date): Promise<number | undefined> {
    return new EventsRepository(this.db, formatWall(now)).findIdBySlug(slug);
  }

  findIdOnLocalDate(id: number, date: string, now: Date): Promise<number | undefined> {
    return new EventsRepository(this.db, formatWall(now)).findIdOnLocalDate(id, date);
  }

  /** `rowsUpTo`: when more events match, only the total is read. */
  list(filter: EventListFilter, page: number, perPage: number, now: Date, options: { rowsUpTo?: number } = {}): Promise<{ rows: EventRow[]; total: number; distances?: Map<number, number> }> {
    return new EventsRepository(this.db, formatWall(now)).list(filter, page, perPage, options);
  }

  spans(filter: EventListFilter, now: Date): Promise<Array<{ start_local: string; end_local: string }>> {
    return new EventsRepository(this.db, formatWall(now)).spans(filter);
  }

  allOfKind(ids: readonly number[], kind: 'venue' | 'organizer' | 'event', now: Date): Promise<boolean> {
    return new EventsRepository(this.db, formatWall(now)).allOfKind(ids, kind);
  }

  /** Creates an event; `describe` renders it inside the transaction, as update does. */
  /**
   * The dates a create with these fields would give its series, nothing written (the back
   * office's "preview dates", 100 §8.4): the create's own reading of the schedule and rule.
   */
  previewDates(fields: Pick<EventFields, 'start_date' | 'end_date' | 'timezone' | 'all_day' | 'recurrence'>, now: Date, limit: number) {
    const zone = fields.timezone || this.siteZone;
    if (parseTimeZone(zone) === null) throw invalidParam('timezone', REASONS.timezone);
    const allDay = fields.all_day ?? false;
    const schedule = resolveSchedule({
      zone,
      start: wallClock('start_date', fields.start_date, zone, now),
      end: wallClock('end_date', fields.end_date ?? fields.start_date, zone, now),
      allDay,
    });
    return this.series.preview(fields.recurrence, { ...schedule, allDay }, now, limit);
  }

  async create<T>(ctx: RenderContext, user: User, fields: EventFields, describe: Describe<T>): Promise<T> {
    const [result] = await this.createMany([{ ctx, user, fields }], async (trx, _requests, [event]) => [await describe(trx, event)]);
    if (!result.ok) throw result.error;
    return result.value;
  }

  /**
   * Creates several events in one transaction — concurrent requests coalesced (coalescer.ts), so
   * that they share one commit and one statement per step — and renders them inside it. If any
   * step fails, nothing of the group stays and each request runs again alone: a request's
   * failure is its own.
   */
  async createMany<T>(
    requests: readonly CreateRequest[],
    describe: (trx: Kysely<Database>, requests: readonly CreateRequest[], events: readonly EventRow[]) => Promise<T[]>,
  ): Promise<Array<Settled<T>>> {
    const attempt = (group: readonly CreateRequest[]) =>
      failingAs('could-not-create-event', () => inTransaction(this.db, async (trx) => describe(trx, group, await this.createManyIn(trx, group))));
    try {
      return (await attempt(requests)).map((value) => ({ ok: true, value }));
    } catch (error) {
      if (requests.length === 1) return [{ ok: false, error }];
      return Promise.all(requests.map((request) => attempt([request]).then(
        ([value]): Settled<T> => ({ ok: true, value }),
        (alone: unknown): Settled<T> => ({ ok: false, error: alone }),
      )));
    }
  }

  /** Create inside the caller's transaction (an import writes many events all-or-nothing). */
  async createIn(trx: Kysely<Database>, ctx: RenderContext, user: User, fields: EventFields): Promise<EventRow> {
    return (await this.createManyIn(trx, [{ ctx, user, fields }]))[0];
  }

  /**
   * The events of `requests`, created inside the caller's transaction in request order: slugs,
   * ids, rows, organizer links and term links each in one statement for all of them. An inline
   * venue, organizer or image URL is created per request, as it names.
   */
  private async createManyIn(trx: Kysely<Database>, requests: readonly CreateRequest[]): Promise<EventRow[]> {
    const drafts = requests.map((request) => this.draft(request));
    const slugs = await findFreeSlugs(trx, 'events', drafts.map((draft) => draft.slug), SLUG_MAX);
    const ids = await new ObjectsRepository(trx).allocateMany('event', requests.length);
    const known = await knownLinkedIds(trx, requests.map(({ fields }) => fields));
    const rows: EventRow[] = [];
    for (const [index, { request: { ctx, user, fields }, trash, status, columns }] of drafts.entries()) {
      const slug = slugs[index];
      rows.push({
        ...columns,
        id: ids[index],
        ...(trash ? trashed({ status, slug }) : { status, slug, pre_trash_status: null, pre_trash_slug: null }),
        image_id: await this.image(trx, fields.image, columns.modified_utc),
        venue_id: fields.venue === undefined ? null : await resolveEventVenue(trx, fields.venue, user, ctx, this.siteZone, known),
      });
    }
    const events = new EventsRepository(trx, formatWall(requests[0].ctx.now));
    // In start order: on PostgreSQL each row's trigger takes its days' count rows, and writers
    // taking them in the same order wait for each other instead of deadlocking.
    const inserted = await events.insert([...rows].sort((a, b) => (a.start_local < b.start_local ? -1 : a.start_local > b.start_local ? 1 : 0)));
    const organizers: Array<{ eventId: number; organizerIds: number[] }> = [];
    for (const [index, { ctx, user, fields }] of requests.entries()) {
      if (fields.organizer !== undefined) organizers.push({ eventId: ids[index], organizerIds: await resolveEventOrganizers(trx, fields.organizer, user, ctx, this.siteZone, known) });
    }
    await events.linkOrganizers(organizers);
    const sent = requests.map(({ fields }) => sentTerms(fields));
    const resolved = await resolveEventTerms(trx, sent.flat());
    let next = 0;
    await events.linkTerms(sent.map((lists, index) => ({
      eventId: ids[index],
      start: rows[index].start_local,
      lists: lists.map(({ taxonomy }) => ({ taxonomy, termIds: resolved[next++] })),
    })));
    // The rows as inserted are the rows as stored: links to an event created in this transaction
    // leave its row alone (migration 0012).
    const stored = new Map(inserted.map((event) => [event.id, event]));
    const created = ids.map((id) => stored.get(id)!);
    for (const [index, { expansion, request }] of drafts.entries()) {
      if (expansion !== undefined) created[index] = { ...created[index], ...(await this.series.materialise(trx, created[index], request.ctx.now, expansion)) };
    }
    return created;
  }

  /** Everything about a new event that needs no query: its columns but id, slug, image and venue. */
  private draft(request: CreateRequest): EventDraft {
    const { ctx, user, fields } = request;
    const now = ctx.now;
    const nowUtc = formatWall(now);
    const zone = fields.timezone || this.siteZone;
    const allDay = fields.all_day ?? false;
    const schedule = resolveSchedule({
      zone,
      start: wallClock('start_date', fields.start_date, zone, now),
      end: wallClock('end_date', fields.end_date, zone, now),
      allDay,
    });
    const recurring = fields.recurrence !== undefined && !isRecurrenceRemoval(fields.recurrence);
    const spec = recurring ? this.series.read(fields.recurrence, zone, now) : null;
    const expansion = spec === null ? undefined : this.series.check(spec, zone, schedule.start_local, now);
    const requested = scaleRequestedStatus(fields.status, user, true)!;
    // An event created straight into the trash is a trashed draft (restorable as such).
    const publication = resolvePublication({
      status: requested === 'trash' ? 'draft' : requested,
      dateLocal: fields.date === undefined ? undefined : wallClock('date', fields.date, zone, now),
      dateUtc: fields.date_utc === undefined ? undefined : instant('date_utc', fields.date_utc, now),
      siteZone: this.siteZone,
      now,
    });
    const title = this.html(user, fields.title ?? '');
    let slug = fields.slug === undefined ? '' : slugify(fields.slug, SLUG_MAX);
    if (slug === '' && needsSlug(publication.status)) slug = slugify(title, SLUG_MAX);
    const cost = parseCostInput(fields.cost);
    const currency = inferCurrency(cost);
    const website = fields.website === undefined ? '' : cleanWebsite(fields.website);
    return {
      request,
      slug,
      trash: requested === 'trash',
      status: publication.status,
      expansion,
      columns: {
        author: fields.author ?? user.id,
        password: fields.password ?? '',
        description: this.html(user, fields.description ?? ''),
        excerpt: this.html(user, fields.excerpt ?? ''),
        date_local: publication.date_local,
        date_utc: publication.date_utc,
        modified_local: utcToWall(nowUtc, this.siteZone),
        modified_utc: nowUtc,
        title,
        ...schedule,
        all_day: bit(allDay),
        cost: JSON.stringify(cost),
        currency_symbol: currency.symbol,
        currency_position: currency.position,
        // Never stored reads back as the event page (§3.8).
        website: website === '' ? null : website,
        show_map: bit(fields.show_map ?? false),
        show_map_link: bit(fields.show_map_link ?? false),
        hide_from_listings: bit(fields.hide_from_listings ?? false),
        sticky: bit(fields.sticky ?? false),
        featured: bit(fields.featured ?? false),
        post_parent: 0,
        ...NO_RECURRENCE,
        ...(spec === null ? {} : this.series.stored(spec, zone)),
      },
    };
  }

  /**
   * Partial update (§7, 60 §6.1): only sent fields change; the caller passed the permission gate.
   * `describe` renders the updated event inside the transaction, so that the answer shows what
   * this request stored, not what a concurrent write made of it a moment later; it is told how
   * the update is described to the caches, when it is.
   */
  async update<T>(
    ctx: RenderContext,
    user: User,
    id: number,
    fields: EventFields,
    describe: (trx: Kysely<Database>, event: EventRow, write?: DescribedWrite) => Promise<T>,
    checks: WriteChecks = {},
  ): Promise<T> {
    let write: DescribedWrite | undefined;
    let hookWrites = false;
    const described = this.journal && { journal: this.journal, write: () => (hookWrites ? undefined : write) };
    const onStandalone = (before: EventRow, after: EventRow) => (write = describedUpdate(before, after, fields));
    const onHookWrites = () => (hookWrites = true);
    return inTransaction(this.db, async (trx) => {
      const updated = await this.updateIn(trx, ctx, user, id, fields, { ...checks, onStandalone, onHookWrites });
      return describe(trx, updated, hookWrites ? undefined : write);
    }, described);
  }

  /** Update inside the caller's transaction, dispatched by scope (60 §6.1); returns the stored event. */
  async updateIn(
    trx: Kysely<Database>,
    ctx: RenderContext,
    user: User,
    id: number,
    fields: EventFields,
    { precondition, authorize, onStandalone, onHookWrites }: UpdateChecks = {},
  ): Promise<EventRow> {
    const now = ctx.now;
    const { event: current, master } = await this.lockedMember(trx, id, now);
    authorize?.(master ?? current);
    checkPrecondition(precondition, eventTag(current));
    const updated = await this.dispatchUpdate(trx, ctx, user, current, master, fields, onStandalone);
    if (this.onPublication !== undefined && publishes(current, updated) && (await this.onPublication(trx, ctx, user, updated))) onHookWrites?.();
    return updated;
  }

  /** The update of `current` by scope (60 §6.1); returns the stored event. */
  private async dispatchUpdate(trx: Kysely<Database>, ctx: RenderContext, user: User, current: EventRow, master: EventRow | undefined, fields: EventFields, onStandalone: UpdateChecks['onStandalone']): Promise<EventRow> {
    const now = ctx.now;
    const id = current.id;
    if (master !== undefined) {
      const scope = fields.scope ?? 'this';
      if (scope === 'this') await this.updateOccurrence(trx, ctx, user, current, master, fields);
      else {
        const target = scope === 'all' ? master : await this.splitAt(trx, master, current, now);
        await this.updateSeries(trx, ctx, user, target, seriesFields(fields, current, target, now));
      }
    } else if (current.is_series_master === 1) {
      if (fields.scope !== undefined && fields.scope !== 'all') throw invalidParam('scope', REASONS.recurrenceScope, { messageKey: 'recurrence-bad-scope' });
      await this.updateSeries(trx, ctx, user, current, fields);
    } else if (fields.recurrence !== undefined && !isRecurrenceRemoval(fields.recurrence)) {
      await this.convertToSeries(trx, ctx, user, current, fields);
    } else {
      const updated = await this.applyUpdate(trx, ctx, user, current, fields);
      onStandalone?.(current, updated);
      return updated;
    }
    return (await new EventsRepository(trx, formatWall(now)).findById(id))!;
  }

  /** The fields of one event row (10-events §7); returns the row as stored. */
  private async applyUpdate(trx: Kysely<Database>, ctx: RenderContext, user: User, current: EventRow, fields: EventFields): Promise<EventRow> {
      const now = ctx.now;
      const nowUtc = formatWall(now);
      const changes: Partial<EventRow> = {};

      const zone = fields.timezone === undefined ? current.timezone || this.siteZone : fields.timezone || this.siteZone;
      const allDay = fields.all_day ?? current.all_day === 1;
      Object.assign(changes, resolveSchedule({
        zone,
        start: fields.start_date === undefined ? undefined : wallClock('start_date', fields.start_date, zone, now),
        end: fields.end_date === undefined ? undefined : wallClock('end_date', fields.end_date, zone, now),
        allDay,
        previous: current,
      }));
      changes.all_day = bit(allDay);

      let status = fields.status === undefined ? (current.status as Status) : scaleRequestedStatus(fields.status, user, false)!;
      // Dates of a trashed event follow the status it had before the trash.
      const outsideTrash = (current.status === 'trash' ? current.pre_trash_status ?? 'draft' : current.status) as Status;
      const settled = status === 'trash' ? outsideTrash : status;
      if ((fields.status !== undefined && status !== 'trash') || fields.date !== undefined || fields.date_utc !== undefined) {
        const publication = resolvePublication({
          status: settled,
          dateLocal: fields.date === undefined ? undefined : wallClock('date', fields.date, zone, now),
          dateUtc: fields.date_utc === undefined ? undefined : instant('date_utc', fields.date_utc, now),
          previous: current,
          siteZone: this.siteZone,
          now,
        });
        changes.date_local = publication.date_local;
        changes.date_utc = publication.date_utc;
        if (status !== 'trash') status = publication.status;
      }

      const title = fields.title === undefined ? current.title : this.html(user, fields.title);
      if (fields.title !== undefined) changes.title = title;
      // The slug the event has outside the trash; leaving the trash gives it back, uniquified.
      if (current.post_parent !== 0) {
        // An occurrence shows its series' slug and takes no part in slug uniqueness (60 §2).
        Object.assign(changes, status === 'trash' ? { status, pre_trash_status: current.status === 'trash' ? current.pre_trash_status : current.status } : { status, pre_trash_status: null });
      } else {
        const liveSlug = current.status === 'trash' ? restoredSlug(current) : current.slug;
        let slug = (fields.slug === undefined ? '' : slugify(fields.slug, SLUG_MAX)) || liveSlug;
        if (slug === '' && needsSlug(status === 'trash' ? outsideTrash : status)) slug = slugify(title, SLUG_MAX);
        const leavingTrash = current.status === 'trash' && status !== 'trash';
        if (slug !== liveSlug || leavingTrash) slug = await findFreeSlug(trx, 'events', slug, current.id, SLUG_MAX);
        Object.assign(changes, status === 'trash'
          ? trashed({ status: settled, slug })
          : { status, slug, pre_trash_status: null, pre_trash_slug: null });
      }

      if (fields.description !== undefined) changes.description = this.html(user, fields.description);
      if (fields.excerpt !== undefined) changes.excerpt = this.html(user, fields.excerpt);
      if (fields.author !== undefined) changes.author = fields.author;
      if (fields.password !== undefined) changes.password = fields.password;
      if (fields.image !== undefined) changes.image_id = await this.image(trx, fields.image, nowUtc);
      if (fields.cost !== undefined) {
        const cost = parseCostInput(fields.cost);
        const currency = inferCurrency(cost);
        Object.assign(changes, { cost: JSON.stringify(cost), currency_symbol: currency.symbol, currency_position: currency.position });
      }
      if (fields.website !== undefined) changes.website = cleanWebsite(fields.website);
      for (const flag of FLAGS) {
        const value = fields[flag];
        if (value !== undefined) changes[flag] = bit(value);
      }
      if (fields.venue !== undefined) changes.venue_id = await resolveEventVenue(trx, fields.venue, user, ctx, this.siteZone);
      changes.modified_local = utcToWall(nowUtc, this.siteZone);
      changes.modified_utc = nowUtc;

      const events = new EventsRepository(trx, nowUtc);
      // Only what differs is written: a column set to its own value still rewrites its indexes.
      const changed = changedColumns(current, changes);
      const differs = (Object.keys(changed) as Array<keyof EventRow>).some((column) => changed[column] !== current[column]);
      if (differs && !sendsLinks(fields)) return events.updateReturning(current, changed);
      await events.update(current.id, changed);
      await this.links(trx, events, current.id, user, ctx, fields);
      return (await events.findById(current.id))!;
  }

  /**
   * The event to write, with its series master when it is an occurrence: the master's row lock
   * is taken first (60 §6), so concurrent edits of one series run one after the other. SQLite has
   * no row locks to order: the transaction holds the write lock already (findForUpdate).
   */
  private async lockedMember(trx: Kysely<Database>, id: number, now: Date): Promise<{ event: EventRow; master?: EventRow }> {
    const events = new EventsRepository(trx, formatWall(now));
    const head = id <= 0 ? undefined : await (isPostgres(trx) ? events.findSeriesHeadForUpdate(id) : events.findForUpdate(id));
    // None: the 404 (or the 400 of an id of another kind).
    if (head === undefined) return { event: await this.existing(trx, id, now) };
    if (head.id !== id) return { event: await this.existing(trx, id, now, true), master: head };
    if (head.post_parent === 0) return { event: head };
    // An occurrence on SQLite, or on PostgreSQL an event made an occurrence while this waited for its lock.
    return { event: head, master: await this.existing(trx, head.post_parent, now, true) };
  }

  /** 60 §6.1 `this`: the fields are stored on the occurrence alone and marked overridden. */
  private async updateOccurrence(trx: Kysely<Database>, ctx: RenderContext, user: User, current: EventRow, master: EventRow, fields: EventFields): Promise<void> {
    for (const name of ['recurrence', 'author', 'slug'] as const) {
      if (fields[name] !== undefined) throw invalidParam(name, { code: 'recurrence-scope-conflict', messageKey: 'recurrence-scope-conflict' }, { messageKey: 'recurrence-scope-conflict' });
    }
    const updated = await this.applyUpdate(trx, ctx, user, current, fields);
    const overrides = new Set(overridesOf(current));
    for (const name of Object.keys(fields)) if (name !== 'scope') overrides.add(overrideName(name));
    if (current.status !== 'trash' && updated.status === 'trash') await this.series.setExcluded(trx, master, current.recurrence_id!, true);
    if (current.status === 'trash' && updated.status !== 'trash') {
      // Restored: its original start is no exclusion any more (60 §6.2); a status like the
      // series' own follows the series again.
      await this.series.setExcluded(trx, master, current.recurrence_id!, false);
      if (updated.status === master.status) overrides.delete('status');
    }
    await new SeriesRepository(trx).update(current.id, { overridden: storedOverrides(overrides) });
  }

  /** 60 §6.1 `all` (or any update of a master): the master, then its occurrences. */
  private async updateSeries(trx: Kysely<Database>, ctx: RenderContext, user: User, master: EventRow, fields: EventFields): Promise<void> {
    const now = ctx.now;
    const updated = await this.applyUpdate(trx, ctx, user, master, { ...fields, recurrence: undefined, scope: undefined });
    if (fields.recurrence !== undefined && isRecurrenceRemoval(fields.recurrence)) {
      await this.series.dissolve(trx, master.id);
      return;
    }
    const retimed = fields.start_date !== undefined || fields.end_date !== undefined || fields.timezone !== undefined || fields.all_day !== undefined;
    const spec = fields.recurrence !== undefined ? this.series.read(fields.recurrence, updated.timezone, now) : retimed ? loadRecurrence(updated) : null;
    let current = updated;
    if (spec !== null) {
      const expansion = this.series.check(spec, updated.timezone, updated.start_local, now);
      await new SeriesRepository(trx).update(master.id, this.series.stored(spec, updated.timezone));
      current = (await new EventsRepository(trx, formatWall(now)).findById(master.id))!;
      await this.series.materialise(trx, current, now, expansion);
    }
    await this.series.propagate(trx, current, {
      organizers: fields.organizer !== undefined,
      categories: fields.categories !== undefined,
      tags: fields.tags !== undefined,
    });
  }

  /**
   * 60 §6.1: recurrence added to a standalone event E — a new master M made from E, and E its
   * first occurrence (it keeps its id), the others created.
   */
  private async convertToSeries(trx: Kysely<Database>, ctx: RenderContext, user: User, current: EventRow, fields: EventFields): Promise<void> {
    const now = ctx.now;
    const event = await this.applyUpdate(trx, ctx, user, current, { ...fields, recurrence: undefined, scope: undefined });
    const spec = this.series.read(fields.recurrence, event.timezone, now);
    const expansion = this.series.check(spec, event.timezone, event.start_local, now);
    const masterId = await new ObjectsRepository(trx).allocate('event');
    const series = new SeriesRepository(trx);
    await series.insert([{ ...event, id: masterId, ...this.series.stored(spec, event.timezone) }]);
    await series.cloneLinks(event.id, masterId);
    const first = expansion.instances[0];
    await series.update(event.id, { post_parent: masterId, recurrence_key: first.key, recurrence_id: first.start });
    const master = (await new EventsRepository(trx, formatWall(now)).findById(masterId))!;
    await this.series.materialise(trx, master, now, expansion);
  }

  /**
   * 60 §6.1/§6.2 `following`: the series is split at the occurrence; a new master takes the
   * remainder and the later occurrences (re-parented, ids kept). Returns the master that now
   * owns the occurrence (the old one when it is the first instance).
   */
  private async splitAt(trx: Kysely<Database>, master: EventRow, occurrence: EventRow, now: Date): Promise<EventRow> {
    const start = occurrence.recurrence_id!;
    if (start <= master.start_local) return master;
    const { before, after } = this.series.split(master, start);
    const series = new SeriesRepository(trx);
    const id = await new ObjectsRepository(trx).allocate('event');
    const slug = await findFreeSlug(trx, 'events', master.slug, undefined, SLUG_MAX);
    const first = resolveSchedule({ zone: master.timezone, start, end: nominalEnd(master.start_local, master.end_local, start), allDay: master.all_day === 1 });
    await series.insert([{ ...master, ...first, id, slug, ...this.series.stored(after, master.timezone) }]);
    await series.cloneLinks(master.id, id);
    await series.reparent(master.id, id, start);
    await series.update(master.id, this.series.stored(before, master.timezone));
    const events = new EventsRepository(trx, formatWall(now));
    await this.series.materialise(trx, (await events.findById(master.id))!, now);
    const created = (await events.findById(id))!;
    await this.series.materialise(trx, created, now);
    return created;
  }

  /**
   * DELETE without force (§8, 60 §6.2): into the trash, 410 when already there; on an occurrence
   * `scope` says whether it goes alone, with the rest of its series, or with the whole series.
   * `describe` and `checks` as for update.
   */
  async trash<T>(ctx: RenderContext, id: number, scope: Scope | undefined, describe: Describe<T>, { precondition, authorize }: WriteChecks = {}): Promise<T> {
    return failingAs('could-not-delete-event', () => inTransaction(this.db, async (trx) => {
      const now = ctx.now;
      const { event: current, master } = await this.lockedMember(trx, id, now);
      authorize?.(master ?? current);
      checkPrecondition(precondition, eventTag(current));
      const nowUtc = formatWall(now);
      const modified = { modified_local: utcToWall(nowUtc, this.siteZone), modified_utc: nowUtc };
      const events = new EventsRepository(trx, nowUtc);
      if (master !== undefined && (scope ?? 'this') !== 'all') {
        if (current.status === 'trash') throw new RestError(410, 'event-is-in-trash');
        if (scope === 'following') await this.endSeriesAt(trx, master, current, now, 'trash');
        else await this.trashOccurrence(trx, master, current, modified);
      } else {
        const target = master ?? this.seriesScope(current, scope);
        if (target.status === 'trash') throw new RestError(410, 'event-is-in-trash');
        await events.update(target.id, { ...trashed({ status: target.status as Status, slug: target.slug }), ...modified });
        if (target.is_series_master === 1) await this.series.propagate(trx, (await events.findById(target.id))!, NO_LINKS);
      }
      return describe(trx, (await events.findById(id))!);
    }));
  }

  /**
   * ⚠ `force=true` extension (§8): the rows and their links go for good (the same rows as the
   * trash would take, 60 §6.2); `describe` renders the event as it was, inside the same
   * transaction, before anything is removed; `checks` as for update.
   */
  async deletePermanently<T>(id: number, now: Date, scope: Scope | undefined, describe: Describe<T>, { precondition, authorize }: WriteChecks = {}): Promise<T> {
    return failingAs('could-not-delete-event', () => inTransaction(this.db, async (trx) => {
      const { event: current, master } = await this.lockedMember(trx, id, now);
      authorize?.(master ?? current);
      checkPrecondition(precondition, eventTag(current));
      const previous = await describe(trx, current);
      const series = new SeriesRepository(trx);
      if (master !== undefined && (scope ?? 'this') !== 'all') {
        if (scope === 'following') await this.endSeriesAt(trx, master, current, now, 'delete');
        else {
          await series.delete([current.id]);
          await this.series.setExcluded(trx, master, current.recurrence_id!, true);
        }
      } else {
        const target = master ?? this.seriesScope(current, scope);
        if (target.is_series_master === 1) await series.delete((await series.occurrences(target.id)).map((row) => row.id));
        // The event row, its organizer and term links cascade from its id.
        await new ObjectsRepository(trx).delete(target.id);
      }
      return previous;
    }));
  }

  /** A master or standalone event: only `all` (or no scope) is meaningful on a master (60 §6). */
  private seriesScope(event: EventRow, scope: Scope | undefined): EventRow {
    if (event.is_series_master === 1 && scope !== undefined && scope !== 'all') throw invalidParam('scope', REASONS.recurrenceScope, { messageKey: 'recurrence-bad-scope' });
    return event;
  }

  /** 60 §6.2 `this`: the occurrence to the trash, its original start into the master's exdate. */
  private async trashOccurrence(trx: Kysely<Database>, master: EventRow, occurrence: EventRow, modified: Partial<EventRow>): Promise<void> {
    await new SeriesRepository(trx).update(occurrence.id, {
      status: 'trash',
      pre_trash_status: occurrence.status,
      overridden: storedOverrides([...overridesOf(occurrence), 'status']),
      ...modified,
    });
    await this.series.setExcluded(trx, master, occurrence.recurrence_id!, true);
  }

  /** 60 §6.2 `following`: the rule ends before the occurrence; it and every later one are trashed or deleted. */
  private async endSeriesAt(trx: Kysely<Database>, master: EventRow, occurrence: EventRow, now: Date, how: 'trash' | 'delete'): Promise<void> {
    const start = occurrence.recurrence_id!;
    const series = new SeriesRepository(trx);
    const later = await series.following(master.id, start);
    if (how === 'delete') await series.delete(later.map((row) => row.id));
    else {
      for (const row of later) {
        if (row.status === 'trash') continue;
        await series.update(row.id, { status: 'trash', pre_trash_status: row.status, overridden: storedOverrides([...overridesOf(row), 'status']) });
      }
    }
    if (start <= master.start_local) return;
    await series.update(master.id, this.series.stored(this.series.split(master, start).before, master.timezone));
    await this.series.materialise(trx, (await new EventsRepository(trx, formatWall(now)).findById(master.id))!, now);
  }

  /**
   * 404 for an unknown id, 400 for an id of another kind (10-events §5, §7.1, §8). `forWrite`
   * locks the row first, so that concurrent writes to one event run one after the other.
   */
  private async existing(db: Kysely<Database>, id: number, now: Date, forWrite = false): Promise<EventRow> {
    const events = new EventsRepository(db, formatWall(now));
    const event = id <= 0 ? undefined : forWrite ? await events.findForUpdate(id) : await events.findById(id);
    if (event !== undefined) return event;
    // Only a miss asks what the id is: an event row is never of another kind.
    const kind = id > 0 ? await new ObjectsRepository(db).kindOf(id) : undefined;
    if (kind !== undefined && kind !== 'event') throw new RestError(400, 'rest-invalid-event-id', { vars: { id } });
    throw new RestError(404, 'rest-event-not-found', { vars: { id } });
  }

  /** Raw HTML only from roles with unfiltered_html (40 §9). */
  private html(user: User, text: string): string {
    return can(user, 'unfiltered_html') ? text : filterRichHtml(text);
  }

  /** The featured image: a media id, a URL registered without fetching it (§6.5), or none. */
  private async image(trx: Kysely<Database>, input: unknown, nowUtc: string): Promise<number | null> {
    if (input === undefined || input === '' || input === 0 || input === '0') return null;
    if (typeof input === 'number' || /^\d+$/.test(String(input))) return Number(input);
    return new MediaRepository(trx).registerUrl(String(input).trim(), nowUtc);
  }

  /** Replaces the organizers and terms of an updated event, for the fields the request sent. */
  private async links(trx: Kysely<Database>, events: EventsRepository, id: number, user: User, ctx: RenderContext, fields: EventFields): Promise<void> {
    if (fields.organizer !== undefined) {
      await events.setOrganizers(id, await resolveEventOrganizers(trx, fields.organizer, user, ctx, this.siteZone));
    }
    const sent = sentTerms(fields);
    if (sent.length === 0) return;
    const resolved = await resolveEventTerms(trx, sent);
    await events.setTerms(id, sent.map(({ taxonomy }, index) => ({ taxonomy, termIds: resolved[index] })));
  }
}
