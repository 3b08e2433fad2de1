import type { Kysely } from 'kysely';
import ICAL from 'ical.js';
import { RestError } from '../domain/errors.ts';
import { parseTimeZone } from '../domain/dates/time-zone.ts';
import { formatWall } from '../domain/dates/datetime-format.ts';
import { IcalInputError, IcalTooLargeError, readIcalStructure, type IcalLimits, type IcalStructure } from '../domain/ical/ical-input.ts';
import { mapVevent, type MappedEvent, type MappedItem, type MappedVenue, type SkipReason } from '../domain/ical/vevent-mapping.ts';
import { InvalidParamsError } from '../domain/errors.ts';
import { utcToWall, wallToUtc } from '../domain/dates/time-zone.ts';
import { SeriesService, type RecurrenceSettings } from './series-service.ts';
import { ORGANIZER, VENUE } from '../domain/linked-posts/linked-post-type.ts';
import type { Status } from '../domain/status.ts';
import type { User } from '../domain/users/user.ts';
import type { RenderContext } from '../render/context.ts';
import { lockUntilCommit } from '../storage/locks.ts';
import { IcalImportsRepository } from '../storage/repositories/ical-imports-repository.ts';
import type { Database, EventRow } from '../storage/schema.ts';
import { EventsService, type EventFields } from './events-service.ts';
import { createLinkedPost, readLinkedPostInput, repository, type WriteEnv } from './linked-posts-service.ts';
import { inTransaction } from '../storage/transactions.ts';

export interface ImportOptions {
  dryRun: boolean;
  /** Status of new events and of the venues and organizers made for them. */
  status: Exclude<Status, 'future' | 'trash'>;
  /** Zone of floating and UTC times; undefined = X-WR-TIMEZONE when an IANA name, else S. */
  timezone?: string;
  categories: string[];
  update: 'overwrite' | 'skip';
}

export type ItemResult = 'created' | 'updated' | 'unchanged' | 'skipped';

export interface ReportItem {
  line: number;
  uid: string;
  result: ItemResult;
  event_id?: number;
  title?: string;
  reason?: SkipReason;
  warnings?: string[];
}

/** The report of 50 C.8. */
export interface ImportReport {
  dry_run: boolean;
  calendar: { name: string; prodid: string };
  totals: { created: number; updated: number; unchanged: number; skipped: number; ignored: number };
  items: ReportItem[];
  venues: { created: number[]; reused: number[] };
  organizers: { created: number[]; reused: number[] };
}

export interface ImportDeps {
  db: Kysely<Database>;
  siteZone: string;
  limits: IcalLimits;
  /** The series rules imported masters are checked and materialised with (60 §4.1). */
  recurrence: RecurrenceSettings;
}

/** Occurrences the series of one file may create together (C.9). */
export const MAX_FILE_OCCURRENCES = 5000;

/** Reported after each component is written (the CLI's progress line). */
export type Progress = (done: number, total: number) => void;

const IGNORED_COMPONENTS = new Set(['vtodo', 'vjournal', 'vfreebusy']);

/** Thrown inside the transaction of a dry run so that it rolls back after the full rehearsal. */
class DryRunRollback extends Error {
  constructor(readonly report: ImportReport) {
    super('dry run');
  }
}

function isRule(value: string): boolean {
  try {
    const rule = ICAL.Recur.fromString(value);
    return /(^|;)FREQ=/i.test(value) && rule.freq !== undefined;
  } catch {
    return false;
  }
}

/** ical.js reports no line numbers: its message quotes the offending text, placed here (C.2 step 4). */
function parse(structure: IcalStructure): ICAL.Component {
  try {
    return new ICAL.Component(ICAL.parse(structure.unfolded));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const quoted = /"([^"]+)"/.exec(message)?.[1];
    const found = quoted === undefined ? undefined : structure.lines.find((line) => line.text.includes(quoted));
    const at = found ?? structure.lines[0];
    throw new IcalInputError(at.line, 'malformed-line', at.text.slice(0, 80));
  }
}

function unescapeText(value: string): string {
  return value.replace(/\\([\\;,nN])/g, (_whole, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

function ignoredCount(calendar: ICAL.Component): number {
  let count = calendar.getAllSubcomponents().filter((component) => IGNORED_COMPONENTS.has(component.name)).length;
  for (const vevent of calendar.getAllSubcomponents('vevent')) {
    count += vevent.getAllSubcomponents('valarm').length;
    count += vevent.getAllProperties().filter((property) => property.name === 'attendee' || property.name.startsWith('x-')).length;
  }
  return count;
}

/** A file's components mapped to event writes, before anything is read from storage (C.2 steps 1–5). */
export function planImport(bytes: Uint8Array, limits: IcalLimits, siteZone: string, options: Pick<ImportOptions, 'timezone' | 'categories'>) {
  const structure = readIcalStructure(bytes, limits, isRule);
  const calendar = parse(structure);
  const declared = String(calendar.getFirstPropertyValue('x-wr-timezone') ?? '').trim();
  const zone = options.timezone ?? (parseTimeZone(declared)?.kind === 'iana' ? declared : siteZone);
  const fileZones = new Map(calendar.getAllSubcomponents('vtimezone').map((vtz) => [String(vtz.getFirstPropertyValue('tzid')), new ICAL.Timezone(vtz)]));
  const context = { zone, siteZone, fileZones, extraCategories: options.categories };
  const items = calendar.getAllSubcomponents('vevent').map((vevent, index) => mapVevent(vevent, structure.veventLines[index], context));
  return {
    // ical.js leaves X- values escaped (their type is unknown to it).
    calendar: { name: unescapeText(String(calendar.getFirstPropertyValue('x-wr-calname') ?? '')), prodid: String(calendar.getFirstPropertyValue('prodid') ?? '') },
    ignored: ignoredCount(calendar),
    items,
  };
}

/**
 * Imports one iCalendar file all-or-nothing (50 C.2 step 6): every planned write runs in one
 * transaction through the same event, venue and organizer functions as the REST writes. A dry run
 * performs the same writes and rolls them back, so its report equals the real one, ids aside.
 */
export async function importIcal(
  deps: ImportDeps,
  ctx: RenderContext,
  user: User,
  bytes: Uint8Array,
  options: ImportOptions,
  progress?: Progress,
): Promise<ImportReport> {
  const plan = planImport(bytes, deps.limits, deps.siteZone, options);
  const items = checkSeries(plan.items, new SeriesService(deps.recurrence), ctx.now);
  try {
    return await inTransaction(deps.db, async (trx) => {
      const writer = new ImportWriter(trx, deps, ctx, user, options, items);
      const results = new Map<MappedItem, ReportItem>();
      // Series first, so that each override finds the occurrence it replaces; the report keeps file order.
      const ordered = [...items.filter((item) => !isOverride(item)), ...items.filter(isOverride)];
      for (const [index, item] of ordered.entries()) {
        results.set(item, await writer.apply(item));
        progress?.(index + 1, items.length);
      }
      const reported = items.map((item) => results.get(item)!);
      const count = (result: ItemResult) => reported.filter((item) => item.result === result).length;
      const report: ImportReport = {
        dry_run: options.dryRun,
        calendar: plan.calendar,
        totals: { created: count('created'), updated: count('updated'), unchanged: count('unchanged'), skipped: count('skipped'), ignored: plan.ignored },
        items: reported,
        venues: writer.venues,
        organizers: writer.organizers,
      };
      if (options.dryRun) throw new DryRunRollback(report);
      return report;
    });
  } catch (error) {
    if (error instanceof DryRunRollback) return error.report;
    if (error instanceof RestError || error instanceof IcalInputError || error instanceof IcalTooLargeError) throw error;
    throw new RestError(500, 'could-not-import', { cause: error });
  }
}

function isOverride(item: MappedItem): boolean {
  return 'event' in item && item.event.overrides !== undefined;
}

/**
 * Series masters checked by the rules of 60 §3.1 before anything is written: a rule the service
 * refuses skips its VEVENT (`recurrence-invalid`); together the series of one file create at most
 * MAX_FILE_OCCURRENCES occurrences, else the file is refused (413), so a file of huge rules
 * never reaches storage.
 */
function checkSeries(items: readonly MappedItem[], series: SeriesService, now: Date): MappedItem[] {
  let occurrences = 0;
  const checked = items.map((item): MappedItem => {
    if (!('event' in item) || item.event.recurrence === undefined) return item;
    const { event } = item;
    try {
      const spec = series.read(event.recurrence, event.timezone, now);
      occurrences += series.check(spec, event.timezone, event.start, now).instances.length;
      return item;
    } catch (error) {
      if (!(error instanceof InvalidParamsError)) throw error;
      return { line: item.line, uid: item.uid, skip: 'recurrence-invalid', title: event.title };
    }
  });
  if (occurrences > MAX_FILE_OCCURRENCES) throw new IcalTooLargeError('occurrences');
  return checked;
}

/** The writes of one import, inside its transaction. */
class ImportWriter {
  readonly venues = { created: [] as number[], reused: [] as number[] };
  readonly organizers = { created: [] as number[], reused: [] as number[] };
  private readonly seen = new Set<string>();
  private readonly imports: IcalImportsRepository;
  private readonly env: WriteEnv;
  private readonly ownUid: RegExp;
  /** Reads and writes inside the import's transaction (SQLite has one connection: no reads beside it). */
  private readonly events: EventsService;

  constructor(
    private readonly trx: Kysely<Database>,
    private readonly deps: ImportDeps,
    private readonly ctx: RenderContext,
    private readonly user: User,
    private readonly options: ImportOptions,
    private readonly items: readonly MappedItem[],
  ) {
    this.imports = new IcalImportsRepository(trx);
    this.events = new EventsService(trx, deps.siteZone, deps.recurrence);
    this.env = { principal: user, now: ctx.now, siteZone: deps.siteZone };
    const prefix = ctx.urls.globalIdPrefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    this.ownUid = new RegExp(`^(\\d+)@${prefix}$`);
  }

  async apply(item: MappedItem): Promise<ReportItem> {
    const base = { line: item.line, uid: item.uid };
    const skipped = (reason: SkipReason, title?: string): ReportItem => ({ ...base, result: 'skipped', reason, ...(title ? { title } : {}) });
    if (!('event' in item)) return skipped(item.skip, item.title);
    const mapped = item.event;
    const title = mapped.title;
    const key = `${mapped.uid}\u0000${mapped.instanceKey}`;
    if (this.seen.has(key)) return skipped('duplicate-in-file', title);
    this.seen.add(key);
    const own = this.ownUid.exec(mapped.uid);
    if (own && (await this.events.find(Number(own[1]), this.ctx.now))) return skipped('own-event', title);

    // Concurrent imports of one file: the second waits, then finds the key the first stored.
    await lockUntilCommit(this.trx, `ical:${key}`);
    const known = await this.imports.find(mapped.uid, mapped.instanceKey);
    const existing = known ? await this.events.find(known.event_id, this.ctx.now) : undefined;
    const warnings = [...mapped.warnings];
    const done = (result: ItemResult, eventId: number): ReportItem => ({
      ...base,
      result,
      event_id: eventId,
      title,
      ...(warnings.length ? { warnings } : {}),
    });
    if (mapped.overrides !== undefined) return this.override(mapped, known && existing ? { event: existing, hash: known.content_hash } : undefined, done, skipped);
    if (known && existing) {
      if (existing.status === 'trash') return skipped('trashed-locally', title);
      if (known.content_hash === mapped.hash) return done('unchanged', existing.id);
      if (this.options.update === 'skip') return skipped('exists', title);
      const fields = await this.fields(mapped, warnings);
      // A series that lost its rule in the file becomes a plain event again (60 §6.4).
      if (mapped.recurrence === undefined && existing.is_series_master === 1) fields.recurrence = null;
      const updated = await this.events.updateIn(this.trx, this.ctx, this.user, existing.id, fields);
      // A plain event that gained a rule became the first occurrence of a new master (60 §6.1).
      const eventId = mapped.recurrence !== undefined && updated.post_parent !== 0 ? updated.post_parent : existing.id;
      await this.remember(mapped, eventId);
      return done('updated', eventId);
    }
    const fields = await this.fields(mapped, warnings);
    fields.status = mapped.private ? 'private' : this.options.status;
    const created = await this.events.createIn(this.trx, this.ctx, this.user, fields);
    await this.remember(mapped, created.id);
    return done('created', created.id);
  }

  /**
   * A RECURRENCE-ID VEVENT (C.7): stored on the occurrence it replaces with scope `this` (60
   * §6.1), carrying the times and the values in which it differs from its series' VEVENT. No
   * imported series, or no occurrence at that original start: skip `recurrence-override`.
   */
  private async override(
    mapped: MappedEvent,
    /** The occurrence an earlier import of this key wrote to, with that import's record. */
    previous: { event: EventRow; hash: string } | undefined,
    done: (result: ItemResult, eventId: number) => ReportItem,
    skipped: (reason: SkipReason, title?: string) => ReportItem,
  ): Promise<ReportItem> {
    const title = mapped.title;
    const masterKey = await this.imports.find(mapped.uid, '');
    const master = masterKey ? await this.events.find(masterKey.event_id, this.ctx.now) : undefined;
    if (master === undefined || master.is_series_master !== 1) return skipped('recurrence-override', title);
    const occurrence = previous?.event ?? (await this.events.occurrenceAt(master, mapped.overrides!, this.ctx.now));
    if (occurrence === undefined) return skipped('recurrence-override', title);
    if (occurrence.status === 'trash') return skipped('trashed-locally', title);
    if (previous?.hash === mapped.hash) return done('unchanged', occurrence.id);
    if (previous !== undefined && this.options.update === 'skip') return skipped('exists', title);
    const fields = await this.overrideFields(mapped, master, occurrence);
    if (Object.keys(fields).length > 0) await this.events.updateIn(this.trx, this.ctx, this.user, occurrence.id, { ...fields, scope: 'this' });
    await this.remember(mapped, occurrence.id);
    return done(previous === undefined ? 'created' : 'updated', occurrence.id);
  }

  /** What an override changes on its occurrence: times unlike its own, values unlike its series' VEVENT. */
  private async overrideFields(mapped: MappedEvent, master: EventRow, occurrence: EventRow): Promise<EventFields> {
    const series = this.items.find((item): item is Extract<MappedItem, { event: MappedEvent }> => 'event' in item && item.event.uid === mapped.uid && item.event.instanceKey === '')?.event;
    const all = await this.fields(mapped, []);
    const fields: EventFields = {};
    // Times in the series' zone, so that the occurrence keeps it (a UTC DTSTART reads in the option zone).
    const inZone = (wall: string) => (mapped.allDay || mapped.timezone === master.timezone ? wall : utcToWall(wallToUtc(wall, mapped.timezone), master.timezone));
    const start = inZone(mapped.start);
    const end = inZone(mapped.end);
    if (start !== occurrence.start_local || end !== occurrence.end_local || mapped.allDay !== (occurrence.all_day === 1)) {
      Object.assign(fields, { start_date: start, end_date: end, all_day: mapped.allDay });
    }
    const same = (name: keyof MappedEvent) => series !== undefined && JSON.stringify(series[name]) === JSON.stringify(mapped[name]);
    const pairs: Array<[keyof MappedEvent, keyof EventFields]> = [
      ['title', 'title'], ['description', 'description'], ['website', 'website'], ['image', 'image'],
      ['categories', 'categories'], ['venue', 'venue'], ['organizer', 'organizer'],
    ];
    for (const [source, target] of pairs) if (!same(source)) (fields as Record<string, unknown>)[target] = all[target];
    return fields;
  }

  private remember(mapped: MappedEvent, eventId: number): Promise<void> {
    return this.imports.save({
      uid: mapped.uid,
      instance_key: mapped.instanceKey,
      event_id: eventId,
      content_hash: mapped.hash,
      sequence: mapped.sequence,
      last_modified: mapped.lastModified,
      imported_at: formatWall(this.ctx.now),
    });
  }

  /** Every field the file decides (C.6 overwrite: absent in the file = cleared); a series carries its rule. */
  private async fields(mapped: MappedEvent, warnings: string[]): Promise<EventFields> {
    return {
      ...(mapped.recurrence ? { recurrence: mapped.recurrence } : {}),
      title: mapped.title,
      description: mapped.description,
      start_date: mapped.start,
      end_date: mapped.end,
      timezone: mapped.timezone,
      all_day: mapped.allDay,
      website: mapped.website,
      image: mapped.image,
      categories: mapped.categories,
      venue: mapped.venue ? await this.venue(mapped.venue, warnings) : 0,
      organizer: mapped.organizer ? [await this.organizer(mapped.organizer)] : [],
    };
  }

  /**
   * A non-trashed venue of the same name whose address is equal or empty, else a new one (C.6);
   * GEO is stored on a venue this import creates, never on one it reuses (`geo-ignored`).
   */
  private async venue(venue: MappedVenue, warnings: string[]): Promise<number> {
    const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
    const candidates = await repository(this.trx, VENUE, this.ctx.now).findDuplicateCandidates(venue.name, undefined);
    const match = candidates.find((record) => record.address === undefined || record.address === '' || same(record.address, venue.address));
    if (match) {
      const coordinates = venue.geo !== undefined && (match.geo_lat !== venue.geo.lat || match.geo_lng !== venue.geo.lng);
      if (coordinates && !warnings.includes('geo-ignored')) warnings.push('geo-ignored');
      return this.note(this.venues, match.id, false);
    }
    const geo = venue.geo === undefined ? {} : { geo_lat: venue.geo.lat, geo_lng: venue.geo.lng };
    const input = readLinkedPostInput(VENUE, { venue: venue.name, address: venue.address, status: this.options.status, ...geo }, this.env);
    return this.note(this.venues, (await createLinkedPost(this.trx, VENUE, input, this.env, { distinct: true })).id, true);
  }

  /** The organizer with this e-mail, else one of this name without e-mail, else a new one (C.6). */
  private async organizer(organizer: { name: string; email: string }): Promise<number> {
    if (organizer.email !== '') {
      const [byEmail] = await this.imports.organizersByEmail(organizer.email);
      if (byEmail !== undefined) return this.note(this.organizers, byEmail, false);
    }
    const candidates = await repository(this.trx, ORGANIZER, this.ctx.now).findDuplicateCandidates(organizer.name, undefined);
    const match = candidates.find((record) => !record.email);
    if (match) return this.note(this.organizers, match.id, false);
    const input = readLinkedPostInput(ORGANIZER, { organizer: organizer.name, email: organizer.email, status: this.options.status }, this.env);
    return this.note(this.organizers, (await createLinkedPost(this.trx, ORGANIZER, input, this.env, { distinct: true })).id, true);
  }

  private note(list: { created: number[]; reused: number[] }, id: number, created: boolean): number {
    if (created) list.created.push(id);
    else if (!list.created.includes(id) && !list.reused.includes(id)) list.reused.push(id);
    return id;
  }
}
