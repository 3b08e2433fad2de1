import type { Kysely } from 'kysely';
import { can } from '../domain/auth/capabilities.ts';
import type { OwnedRecord } from '../domain/auth/record-permissions.ts';
import { parseInstant, parseWallClock } from '../domain/dates/date-input.ts';
import { formatWall } from '../domain/dates/datetime-format.ts';
import { utcToWall } from '../domain/dates/time-zone.ts';
import { invalidParam, RestError } from '../domain/errors.ts';
import { REASONS } from '../domain/reasons.ts';
import { cleanWebsite } from '../domain/events/event-web.ts';
import { resolveSchedule } from '../domain/events/schedule.ts';
import { resolvePublication } from '../domain/posts/publication.ts';
import { restoredSlug, trashed } from '../domain/posts/trash.ts';
import { scaleRequestedStatus, type Status } from '../domain/status.ts';
import { inferCurrency, parseCostInput } from '../domain/text/cost.ts';
import { filterRichHtml } from '../domain/text/html-filter.ts';
import { slugify } from '../domain/text/slug.ts';
import type { User } from '../domain/users/user.ts';
import type { RestContext } from '../http/rest/context.ts';
import { EventsRepository, type EventListFilter } from '../storage/repositories/events-repository.ts';
import { MediaRepository } from '../storage/repositories/media-repository.ts';
import { ObjectsRepository } from '../storage/repositories/objects-repository.ts';
import { findFreeSlug } from '../storage/repositories/slugs.ts';
import type { Database, EventRow } from '../storage/schema.ts';
import { resolveEventOrganizers, resolveEventVenue } from './linked-posts-service.ts';
import { resolveEventTerms } from './terms-service.ts';

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
}

/** What the permission and password rules (40 §5, §8) need to know about a stored event. */
export function eventOwnership(event: EventRow): OwnedRecord & { password: string } {
  return {
    author: event.author,
    status: event.status as Status,
    preTrashStatus: event.pre_trash_status as Status | null,
    password: event.password,
  };
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

/** A storage failure after validation answers with the operation's own code (10-events §6.6, §8). */
async function failingAs<T>(code: 'could-not-create-event' | 'could-not-delete-event', work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RestError) throw error;
    throw new RestError(500, code, { cause: error });
  }
}

/** Event use cases (10-events §6–§8): each write runs in one transaction, so a failure writes nothing. */
export class EventsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly siteZone: string,
  ) {}

  /** The event with this id as read now; 404/400 when the id names no event. */
  read(id: number, now: Date): Promise<EventRow> {
    return this.existing(this.db, id, now);
  }

  /** The event for a permission gate, or undefined when the id names no event. */
  find(id: number, now: Date): Promise<EventRow | undefined> {
    return new EventsRepository(this.db, formatWall(now)).findById(id);
  }

  findIdBySlug(slug: string, now: Date): Promise<number | undefined> {
    return new EventsRepository(this.db, formatWall(now)).findIdBySlug(slug);
  }

  list(filter: EventListFilter, page: number, perPage: number, now: Date): Promise<{ rows: EventRow[]; total: number }> {
    return new EventsRepository(this.db, formatWall(now)).list(filter, page, perPage);
  }

  allOfKind(ids: readonly number[], kind: 'venue' | 'organizer' | 'event', now: Date): Promise<boolean> {
    return new EventsRepository(this.db, formatWall(now)).allOfKind(ids, kind);
  }

  /** Creates an event; `describe` renders it inside the transaction, as update does. */
  async create<T>(ctx: RestContext, user: User, fields: EventFields, describe: (trx: Kysely<Database>, event: EventRow) => Promise<T>): Promise<T> {
    return failingAs('could-not-create-event', () => this.db.transaction().execute(async (trx) => {
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
      slug = await findFreeSlug(trx, 'events', slug, undefined, SLUG_MAX);
      const lifecycle = requested === 'trash'
        ? trashed({ status: publication.status, slug })
        : { status: publication.status, slug, pre_trash_status: null, pre_trash_slug: null };
      const cost = parseCostInput(fields.cost);
      const currency = inferCurrency(cost);
      const website = fields.website === undefined ? '' : cleanWebsite(fields.website);
      const id = await new ObjectsRepository(trx).allocate('event');
      const row: EventRow = {
        id,
        author: fields.author ?? user.id,
        ...lifecycle,
        password: fields.password ?? '',
        description: this.html(user, fields.description ?? ''),
        excerpt: this.html(user, fields.excerpt ?? ''),
        date_local: publication.date_local,
        date_utc: publication.date_utc,
        modified_local: utcToWall(nowUtc, this.siteZone),
        modified_utc: nowUtc,
        image_id: await this.image(trx, fields.image, nowUtc),
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
        venue_id: fields.venue === undefined ? null : await resolveEventVenue(trx, fields.venue, user, ctx, this.siteZone),
        post_parent: 0,
      };
      const events = new EventsRepository(trx, nowUtc);
      await events.insert(row);
      await this.links(trx, events, id, user, ctx, fields);
      return describe(trx, (await events.findById(id))!);
    }));
  }

  /**
   * Partial update (§7): only sent fields change; the caller passed the permission gate.
   * `describe` renders the updated event inside the transaction, so that the answer shows what
   * this request stored, not what a concurrent write made of it a moment later.
   */
  async update<T>(ctx: RestContext, user: User, id: number, fields: EventFields, describe: (trx: Kysely<Database>, event: EventRow) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      const now = ctx.now;
      const nowUtc = formatWall(now);
      const current = await this.existing(trx, id, now, true);
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
      const liveSlug = current.status === 'trash' ? restoredSlug(current) : current.slug;
      let slug = (fields.slug === undefined ? '' : slugify(fields.slug, SLUG_MAX)) || liveSlug;
      if (slug === '' && needsSlug(status === 'trash' ? outsideTrash : status)) slug = slugify(title, SLUG_MAX);
      const leavingTrash = current.status === 'trash' && status !== 'trash';
      if (slug !== liveSlug || leavingTrash) slug = await findFreeSlug(trx, 'events', slug, id, SLUG_MAX);
      Object.assign(changes, status === 'trash'
        ? trashed({ status: settled, slug })
        : { status, slug, pre_trash_status: null, pre_trash_slug: null });

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
      await events.update(id, changes);
      await this.links(trx, events, id, user, ctx, fields);
      return describe(trx, (await events.findById(id))!);
    });
  }

  /** DELETE without force (§8): into the trash, 410 when already there; `describe` as for update. */
  async trash<T>(ctx: RestContext, id: number, describe: (trx: Kysely<Database>, event: EventRow) => Promise<T>): Promise<T> {
    return failingAs('could-not-delete-event', () => this.db.transaction().execute(async (trx) => {
      const current = await this.existing(trx, id, ctx.now, true);
      if (current.status === 'trash') throw new RestError(410, 'event-is-in-trash');
      const nowUtc = formatWall(ctx.now);
      const events = new EventsRepository(trx, nowUtc);
      await events.update(id, {
        ...trashed({ status: current.status as Status, slug: current.slug }),
        modified_local: utcToWall(nowUtc, this.siteZone),
        modified_utc: nowUtc,
      });
      return describe(trx, (await events.findById(id))!);
    }));
  }

  /**
   * ⚠ `force=true` extension (§8): the event and its links go for good; `describe` renders the
   * event as it was, inside the same transaction, before anything is removed.
   */
  async deletePermanently<T>(id: number, now: Date, describe: (trx: Kysely<Database>, event: EventRow) => Promise<T>): Promise<T> {
    return failingAs('could-not-delete-event', () => this.db.transaction().execute(async (trx) => {
      const previous = await describe(trx, await this.existing(trx, id, now, true));
      // The event row, its organizer and term links cascade from its id.
      await new ObjectsRepository(trx).delete(id);
      return previous;
    }));
  }

  /**
   * 404 for an unknown id, 400 for an id of another kind (10-events §5, §7.1, §8). `forWrite`
   * locks the row first, so that concurrent writes to one event run one after the other.
   */
  private async existing(db: Kysely<Database>, id: number, now: Date, forWrite = false): Promise<EventRow> {
    if (forWrite) await new EventsRepository(db, formatWall(now)).lockRow(id);
    const kind = id > 0 ? await new ObjectsRepository(db).kindOf(id) : undefined;
    if (kind === undefined) throw new RestError(404, 'rest-event-not-found', { vars: { id } });
    if (kind !== 'event') throw new RestError(400, 'rest-invalid-event-id', { vars: { id } });
    return (await new EventsRepository(db, formatWall(now)).findById(id))!;
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

  /** Organizers and terms, for the fields the request sent. */
  private async links(trx: Kysely<Database>, events: EventsRepository, id: number, user: User, ctx: RestContext, fields: EventFields): Promise<void> {
    if (fields.organizer !== undefined) {
      await events.setOrganizers(id, await resolveEventOrganizers(trx, fields.organizer, user, ctx, this.siteZone));
    }
    if (fields.categories !== undefined) await events.setTerms(id, 'tribe_events_cat', await resolveEventTerms(trx, 'tribe_events_cat', fields.categories));
    if (fields.tags !== undefined) await events.setTerms(id, 'post_tag', await resolveEventTerms(trx, 'post_tag', fields.tags));
  }
}
