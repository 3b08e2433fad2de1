import type { Kysely } from 'kysely';
import ICAL from 'ical.js';
import { RestError } from '../domain/errors.ts';
import { parseTimeZone } from '../domain/dates/time-zone.ts';
import { formatWall } from '../domain/dates/datetime-format.ts';
import { IcalInputError, IcalTooLargeError, readIcalStructure, type IcalLimits, type IcalStructure } from '../domain/ical/ical-input.ts';
import { mapVevent, type MappedEvent, type MappedItem, type SkipReason } from '../domain/ical/vevent-mapping.ts';
import { ORGANIZER, VENUE } from '../domain/linked-posts/linked-post-type.ts';
import type { Status } from '../domain/status.ts';
import type { User } from '../domain/users/user.ts';
import type { RestContext } from '../http/rest/context.ts';
import { lockUntilCommit } from '../storage/locks.ts';
import { IcalImportsRepository } from '../storage/repositories/ical-imports-repository.ts';
import type { Database } from '../storage/schema.ts';
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
}

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
  ctx: RestContext,
  user: User,
  bytes: Uint8Array,
  options: ImportOptions,
  progress?: Progress,
): Promise<ImportReport> {
  const plan = planImport(bytes, deps.limits, deps.siteZone, options);
  try {
    return await inTransaction(deps.db, async (trx) => {
      const writer = new ImportWriter(trx, deps, ctx, user, options);
      const items: ReportItem[] = [];
      for (const [index, item] of plan.items.entries()) {
        items.push(await writer.apply(item));
        progress?.(index + 1, plan.items.length);
      }
      const count = (result: ItemResult) => items.filter((item) => item.result === result).length;
      const report: ImportReport = {
        dry_run: options.dryRun,
        calendar: plan.calendar,
        totals: { created: count('created'), updated: count('updated'), unchanged: count('unchanged'), skipped: count('skipped'), ignored: plan.ignored },
        items,
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
    private readonly ctx: RestContext,
    private readonly user: User,
    private readonly options: ImportOptions,
  ) {
    this.imports = new IcalImportsRepository(trx);
    this.events = new EventsService(trx, deps.siteZone);
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
    const done = (result: ItemResult, eventId: number): ReportItem => ({
      ...base,
      result,
      event_id: eventId,
      title,
      ...(mapped.warnings.length ? { warnings: mapped.warnings } : {}),
    });
    if (known && existing) {
      if (existing.status === 'trash') return skipped('trashed-locally', title);
      if (known.content_hash === mapped.hash) return done('unchanged', existing.id);
      if (this.options.update === 'skip') return skipped('exists', title);
      await this.events.updateIn(this.trx, this.ctx, this.user, existing.id, await this.fields(mapped));
      await this.remember(mapped, existing.id);
      return done('updated', existing.id);
    }
    const fields = await this.fields(mapped);
    fields.status = mapped.private ? 'private' : this.options.status;
    const created = await this.events.createIn(this.trx, this.ctx, this.user, fields);
    await this.remember(mapped, created.id);
    return done('created', created.id);
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

  /** Every field the file decides (C.6 overwrite: absent in the file = cleared). */
  private async fields(mapped: MappedEvent): Promise<EventFields> {
    return {
      title: mapped.title,
      description: mapped.description,
      start_date: mapped.start,
      end_date: mapped.end,
      timezone: mapped.timezone,
      all_day: mapped.allDay,
      website: mapped.website,
      image: mapped.image,
      categories: mapped.categories,
      venue: mapped.venue ? await this.venue(mapped.venue) : 0,
      organizer: mapped.organizer ? [await this.organizer(mapped.organizer)] : [],
    };
  }

  /** A non-trashed venue of the same name whose address is equal or empty, else a new one (C.6). */
  private async venue(venue: { name: string; address: string }): Promise<number> {
    const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
    const candidates = await repository(this.trx, VENUE, this.ctx.now).findDuplicateCandidates(venue.name, undefined);
    const match = candidates.find((record) => record.address === undefined || record.address === '' || same(record.address, venue.address));
    if (match) return this.note(this.venues, match.id, false);
    const input = readLinkedPostInput(VENUE, { venue: venue.name, address: venue.address, status: this.options.status }, this.env);
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
