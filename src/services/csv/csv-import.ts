import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { csvBoolean, type CsvKind } from '../../domain/csv/csv-columns.ts';
import { parseCsvDate, parseCsvTime, type DateOrder } from '../../domain/csv/csv-dates.ts';
import { readCsvFile, type CsvFile, type CsvLimits, type CsvRow } from '../../domain/csv/csv-file.ts';
import { parseTimeZone } from '../../domain/dates/time-zone.ts';
import { InvalidParamsError, RestError } from '../../domain/errors.ts';
import { ORGANIZER, VENUE, type LinkedPostType } from '../../domain/linked-posts/linked-post-type.ts';
import type { Status } from '../../domain/status.ts';
import type { User } from '../../domain/users/user.ts';
import type { RenderContext } from '../../render/context.ts';
import type { RecurrenceSettings } from '../series-service.ts';
import { CsvRepository } from '../../storage/repositories/csv-repository.ts';
import type { Database } from '../../storage/schema.ts';
import { inTransaction } from '../../storage/transactions.ts';
import { EventsService, type EventFields, type PublicationHook } from '../events-service.ts';
import { createLinkedPost, findLinkedPostById, readLinkedPostInput, updateLinkedPost } from '../linked-posts-service.ts';

export interface CsvImportOptions {
  kind: CsvKind;
  dryRun: boolean;
  /** Status of new records when the row has no `status`. */
  status: Exclude<Status, 'future' | 'trash'>;
  /** Zone of rows without one. */
  timezone: string;
  dateOrder: DateOrder;
}

export interface CsvImportDeps {
  db: Kysely<Database>;
  siteZone: string;
  limits: CsvLimits;
  recurrence: RecurrenceSettings;
  /** `{host}{base}` of this service's own UIDs (`{id}@{host}{base}`). */
  uidDomain: string;
  /** What else a row that publishes an existing event writes (120 §8.2: a submission's approval). */
  publication?: PublicationHook;
}

export interface CsvReportItem {
  line: number;
  row: number;
  result: 'created' | 'updated' | 'unchanged' | 'skipped';
  event_id?: number;
  venue_id?: number;
  organizer_id?: number;
  title?: string;
  reason?: string;
  column?: string;
  value?: string;
  warnings?: string[];
}

/** The report of 140 §7.6. */
export interface CsvImportReport {
  dry_run: boolean;
  kind: CsvKind;
  separator: string;
  encoding: CsvFile['encoding'];
  bom: boolean;
  warnings: string[];
  columns: CsvFile['columns'];
  totals: { created: number; updated: number; unchanged: number; skipped: number };
  items: CsvReportItem[];
}

/** A row that cannot be written: skipped with a reason, the others go on. */
class RowSkipped extends Error {
  constructor(
    readonly reason: string,
    readonly column?: string,
    readonly value?: string,
  ) {
    super(reason);
  }
}

/** Rolls back a dry run's row after it was checked. */
class DryRunDone extends Error {}

const ID_FIELD = { events: 'event_id', venues: 'venue_id', organizers: 'organizer_id' } as const;
const LINKED: Record<Exclude<CsvKind, 'events'>, LinkedPostType> = { venues: VENUE, organizers: ORGANIZER };

function list(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : value.split(',').map((part) => part.trim()).filter(Boolean);
}

/** `Event Cost` with its currency symbol placed as R does, unless the cell already holds it. */
function cost(cells: Map<string, string>): string | undefined {
  const value = cells.get('cost');
  const symbol = cells.get('currency_symbol');
  if (value === undefined || symbol === undefined || value.includes(symbol)) return value;
  return /suffix|after/i.test(cells.get('currency_position') ?? '') ? `${value}${symbol}` : `${symbol}${value}`;
}

function wallClock(cells: Map<string, string>, which: 'start' | 'end', order: DateOrder, fallback?: { date: string; time: string }): { date: string; time: string } | undefined {
  const dateCell = cells.get(`${which}_date`);
  if (dateCell === undefined) return fallback;
  const label = which === 'start' ? 'Event Start Date' : 'Event End Date';
  const parsed = parseCsvDate(dateCell, order);
  if (parsed === null) throw new RowSkipped('invalid-date', label, dateCell);
  const timeCell = cells.get(`${which}_time`);
  let time = parsed.time ?? fallback?.time ?? '00:00:00';
  if (timeCell !== undefined) {
    const read = parseCsvTime(timeCell);
    if (read === null) throw new RowSkipped('invalid-time', which === 'start' ? 'Event Start Time' : 'Event End Time', timeCell);
    time = read;
  }
  return { date: parsed.date, time };
}

/** An event row as the fields of POST/PATCH (140 §7.3). */
function eventFields(row: CsvRow, options: CsvImportOptions): { fields: EventFields; warnings: string[] } {
  const { cells } = row;
  const warnings: string[] = [];
  const fields: EventFields = {};
  const title = cells.get('title');
  if (title === undefined) throw new RowSkipped('missing-required', 'Event Name');
  fields.title = title;
  for (const name of ['description', 'excerpt', 'slug', 'password'] as const) if (cells.has(name)) fields[name] = cells.get(name);
  const status = cells.get('status');
  if (status !== undefined) fields.status = status as Status;
  const zone = cells.get('timezone');
  if (zone !== undefined && parseTimeZone(zone) === null) throw new RowSkipped('invalid-timezone', 'Event Time Zone', zone);
  fields.timezone = zone ?? options.timezone;
  if (!cells.has('start_date')) throw new RowSkipped('missing-required', 'Event Start Date');
  const start = wallClock(cells, 'start', options.dateOrder)!;
  let end = wallClock(cells, 'end', options.dateOrder, start)!;
  if (!cells.has('end_date') && cells.has('end_time')) end = { date: start.date, time: parseCsvTime(cells.get('end_time')!) ?? start.time };
  if (`${end.date} ${end.time}` < `${start.date} ${start.time}`) end = start;
  fields.start_date = `${start.date} ${start.time}`;
  fields.end_date = `${end.date} ${end.time}`;
  for (const flag of ['all_day', 'hide_from_listings', 'sticky', 'featured', 'show_map', 'show_map_link'] as const) {
    if (cells.has(flag)) fields[flag] = csvBoolean(cells.get(flag)!);
  }
  const venue = cells.get('venue');
  if (venue !== undefined) fields.venue = /^\d+$/.test(venue) ? Number(venue) : { venue };
  const organizers = cells.get('organizer');
  if (organizers !== undefined) {
    const parts = /^[\d\s]+$/.test(organizers) ? organizers.split(/\s+/) : list(organizers)!;
    fields.organizer = parts.map((part) => (/^\d+$/.test(part) ? Number(part) : { organizer: part }));
  }
  const price = cost(cells);
  if (price !== undefined) fields.cost = price;
  if (cells.has('categories')) fields.categories = list(cells.get('categories'));
  if (cells.has('tags')) fields.tags = list(cells.get('tags'));
  const website = cells.get('website');
  if (website !== undefined) {
    if (/^https?:\/\/\S+$/i.test(website)) fields.website = website;
    else warnings.push('bad-url');
  }
  if (cells.has('image')) fields.image = /^\d+$/.test(cells.get('image')!) ? Number(cells.get('image')) : cells.get('image');
  return { fields, warnings };
}

/** A venue or organizer row as the fields of its POST/PATCH. */
function linkedFields(kind: Exclude<CsvKind, 'events'>, row: CsvRow): Record<string, unknown> {
  const type = LINKED[kind];
  const source: Record<string, unknown> = Object.fromEntries(row.cells);
  source[type.nameKey] = row.cells.get('title');
  delete source.title;
  if (kind === 'venues') {
    const address2 = row.cells.get('address2');
    if (address2 !== undefined) source.address = [row.cells.get('address'), address2].filter(Boolean).join(', ');
    delete source.address2;
    const region = row.cells.get('stateprovince');
    if (region !== undefined) Object.assign(source, { state: region, province: region });
  }
  return source;
}

/** What the row writes, for `unchanged`: the same cells give the same hash. */
function contentHash(row: CsvRow): string {
  return createHash('sha256').update(JSON.stringify([...row.cells].filter(([field]) => field !== 'uid' && field !== 'id').sort())).digest('hex');
}

/** The key of 140 §7.5 and the record it names now, if any. */
async function target(trx: Kysely<Database>, kind: CsvKind, row: CsvRow, deps: CsvImportDeps): Promise<{ key: string; recordId?: number; hash?: string }> {
  const uid = row.cells.get('uid');
  const id = row.cells.get('id');
  const title = row.cells.get('title') ?? '';
  const repository = new CsvRepository(trx);
  let key: string;
  if (uid !== undefined) {
    key = uid;
    const own = new RegExp(`^(\\d+)@${deps.uidDomain.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`).exec(uid);
    if (own) {
      const stored = await repository.importedAs(kind, key);
      return { key, recordId: Number(own[1]), hash: stored?.content_hash };
    }
  } else if (id !== undefined) key = `id:${id}`;
  else key = `match:${title.toLowerCase()}|${row.cells.get('start_date') ?? ''}|${row.cells.get('start_time') ?? ''}`;
  const mapped = await repository.importedAs(kind, key);
  if (mapped) return { key, recordId: mapped.record_id, hash: mapped.content_hash };
  if (uid !== undefined || id !== undefined) return { key };
  // Neither key: R's match_existing_post (events: title and start; others: name).
  const found = kind === 'events'
    ? undefined
    : await repository.linkedPostNamed(kind, title);
  return { key, recordId: found?.id };
}

/**
 * How one row reaches its record: the record it names or matches (if any), and how to update it
 * or create one. Events and linked posts differ here only.
 */
interface RowWrite {
  existing?: { id: number; status: string };
  update(): Promise<number>;
  create(): Promise<number>;
}

async function eventWrite(trx: Kysely<Database>, ctx: RenderContext, user: User, row: CsvRow, options: CsvImportOptions, deps: CsvImportDeps, recordId: number | undefined, item: CsvReportItem): Promise<RowWrite> {
  const { fields, warnings } = eventFields(row, options);
  if (warnings.length > 0) item.warnings = warnings;
  const events = new EventsService(trx, deps.siteZone, deps.recurrence, undefined, deps.publication);
  const existing = recordId === undefined ? await matchEvent(trx, fields) : await events.find(recordId, ctx.now);
  return {
    existing,
    update: async () => (await events.updateIn(trx, ctx, user, existing!.id, fields)).id,
    create: async () => (await events.createIn(trx, ctx, user, { status: options.status, ...fields })).id,
  };
}

async function linkedWrite(trx: Kysely<Database>, ctx: RenderContext, user: User, row: CsvRow, kind: Exclude<CsvKind, 'events'>, options: CsvImportOptions, deps: CsvImportDeps, recordId: number | undefined): Promise<RowWrite> {
  const type = LINKED[kind];
  if (!row.cells.has('title')) throw new RowSkipped('missing-required', type === VENUE ? 'Venue Name' : 'Organizer Name');
  const env = { principal: user, now: ctx.now, siteZone: deps.siteZone };
  const input = readLinkedPostInput(type, { status: options.status, ...linkedFields(kind, row) }, env);
  const existing = recordId === undefined ? undefined : await findLinkedPostById(trx, type, recordId, ctx.now);
  // A row without a status column keeps the record's own.
  const { status: _status, ...changes } = input;
  return {
    existing,
    update: async () => (await updateLinkedPost(trx, type, existing!, row.cells.has('status') ? input : changes, env)).id,
    create: async () => (await createLinkedPost(trx, type, input, env, { distinct: true })).id,
  };
}

async function importRow(trx: Kysely<Database>, ctx: RenderContext, user: User, row: CsvRow, options: CsvImportOptions, deps: CsvImportDeps): Promise<CsvReportItem> {
  const item: CsvReportItem = { line: row.line, row: row.row, result: 'created', title: row.cells.get('title') };
  const { key, recordId, hash: storedHash } = await target(trx, options.kind, row, deps);
  const hash = contentHash(row);
  const write = options.kind === 'events'
    ? await eventWrite(trx, ctx, user, row, options, deps, recordId, item)
    : await linkedWrite(trx, ctx, user, row, options.kind, options, deps, recordId);
  const { existing } = write;
  if (existing?.status === 'trash') throw new RowSkipped('trashed-locally');
  let id: number;
  if (existing && storedHash === hash) {
    item.result = 'unchanged';
    id = existing.id;
  } else if (existing) {
    item.result = 'updated';
    id = await write.update();
  } else {
    id = await write.create();
  }
  item[ID_FIELD[options.kind]] = id;
  if (item.result !== 'unchanged') {
    await new CsvRepository(trx).rememberImport(options.kind, key, id, hash);
  }
  return item;
}

/** R's match_existing_post: a non-trashed event with the same title and start wall clock (and end, when given). */
async function matchEvent(trx: Kysely<Database>, fields: EventFields) {
  return new CsvRepository(trx).eventAt(fields.title!, String(fields.start_date), String(fields.end_date));
}

function skipped(row: CsvRow, error: unknown): CsvReportItem {
  const item: CsvReportItem = { line: row.line, row: row.row, result: 'skipped', title: row.cells.get('title') };
  if (error instanceof RowSkipped) return { ...item, reason: error.reason, ...(error.column ? { column: error.column } : {}), ...(error.value !== undefined ? { value: error.value } : {}) };
  if (error instanceof InvalidParamsError) {
    const [[column, failure]] = Object.entries(error.failures);
    return { ...item, reason: failure.reason.code, column };
  }
  if (error instanceof RestError) return { ...item, reason: error.code };
  throw error;
}

/** 140 §7: each row one transaction through the domain functions of POST/PATCH; a failing row writes nothing. */
export async function importCsv(deps: CsvImportDeps, ctx: RenderContext, user: User, bytes: Buffer, options: CsvImportOptions): Promise<CsvImportReport> {
  const file = readCsvFile(bytes, options.kind, deps.limits);
  const report: CsvImportReport = {
    dry_run: options.dryRun, kind: options.kind, separator: file.separator, encoding: file.encoding, bom: file.bom, warnings: file.warnings,
    columns: file.columns, totals: { created: 0, updated: 0, unchanged: 0, skipped: 0 }, items: [],
  };
  const keys = new Set<string>();
  for (const row of file.rows) {
    let item: CsvReportItem;
    try {
      const key = row.cells.get('uid') ?? (row.cells.has('id') ? `id:${row.cells.get('id')}` : undefined);
      if (key !== undefined && keys.has(key)) throw new RowSkipped('duplicate-in-file');
      if (key !== undefined) keys.add(key);
      let written: CsvReportItem | undefined;
      await inTransaction(deps.db, async (trx) => {
        written = await importRow(trx, ctx, user, row, options, deps);
        if (options.dryRun) throw new DryRunDone();
      }).catch((error: unknown) => {
        if (!(error instanceof DryRunDone)) throw error;
      });
      item = written!;
    } catch (error) {
      item = skipped(row, error);
    }
    report.items.push(item);
    report.totals[item.result] += 1;
  }
  return report;
}

