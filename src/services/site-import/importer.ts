import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { InvalidParamsError, RestError, type ParamFailure } from '../../domain/errors.ts';
import { ORGANIZER, VENUE, type LinkedPostType } from '../../domain/linked-posts/linked-post-type.ts';
import type { User } from '../../domain/users/user.ts';
// The import writes through the API's own argument rules, so that a copied record is judged
// exactly as the same record sent to the API would be (no second copy of the rules).
import { eventFields, writeArgs } from '../event-args.ts';
import { renderContext, type RenderContext } from '../../render/context.ts';
import { UrlBuilder } from '../../render/urls.ts';
import { validateArgs } from '../../args/validate-args.ts';
import { translate } from '../../i18n/catalog.ts';
import { ImportRecordsRepository } from '../../storage/repositories/import-records-repository.ts';
import type { Database, EventRow, ImportKind, ImportRecordRow, Taxonomy } from '../../storage/schema.ts';
import { EventsService } from '../events-service.ts';
import {
  createLinkedPost,
  findLinkedPostById,
  linkedFieldRules,
  readLinkedPostInput,
  trashLinkedPost,
  updateLinkedPost,
  type WriteEnv,
} from '../linked-posts-service.ts';
import { createTerm, deleteTerm, getTerm, updateTerm } from '../terms-service.ts';
import { displayName, eventBody, isBlanked, KINDS, linkedBody, modificationStamp, parentsFirst, sourceId, type SourceRecord } from './records.ts';
import { errorMessage, SourceRequestError, SourceUnusableError, type SourceClient, type SourceKind } from './source.ts';
import { feedEvents, isSeriesMaster, occurrenceOverrides, planEvents, seriesOf } from './calendar-source.ts';
import { EventsRepository } from '../../storage/repositories/events-repository.ts';
import { formatWall } from '../../domain/dates/datetime-format.ts';
import { inTransaction } from '../../storage/transactions.ts';
import { ImageCopyError, type ImageCopier } from './image-copy.ts';

export interface KindSummary {
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  trashed: number;
  warnings: number;
}

export interface ImportReport {
  source: string;
  /** `calendar-service` (this service: hidden events and series copied whole) or `wordpress` (90 §2.1). */
  source_kind: SourceKind['kind'];
  /** What showed the source's kind. */
  source_kind_evidence: string;
  dryRun: boolean;
  kinds: Record<ImportKind, KindSummary>;
  skipped: Array<{ kind: ImportKind; source_id: number; name: string; reason: string }>;
  warnings: Array<{ kind: ImportKind; source_id?: number; message: string }>;
  slug_changes: Array<{ kind: ImportKind; source_id: number; from: string; to: string }>;
  /** Pages that could not be read after the retries. */
  failed_pages: Array<{ kind: ImportKind; url: string; message: string }>;
  /** True when the run was asked to stop (Ctrl-C) before the end. */
  interrupted: boolean;
}

/** Where the importer reports what it is doing (a progress bar, or one line per page). */
export interface ImportProgress {
  page(kind: ImportKind, page: number, totalPages: number | undefined, total: number | undefined): void;
  record(kind: ImportKind, done: number, total: number): void;
  finished(kind: ImportKind): void;
}

export interface ImportOptions {
  db: Kysely<Database>;
  client: SourceClient;
  /** The namespace root of the source (its normalised URL names the source in the id map). */
  root: string;
  sourceKind: SourceKind;
  user: User;
  siteZone: string;
  prune: boolean;
  dryRun: boolean;
  progress: ImportProgress;
  /** `--copy-images`: copies the records' images; without it images are registered by URL. */
  images?: ImageCopier;
  /** Asked after each record: true stops the run there (Ctrl-C). */
  stopRequested: () => boolean;
  clock?: () => Date;
}

type Action = 'created' | 'updated' | 'unchanged';

const TAXONOMY: Record<'category' | 'tag', Taxonomy> = { category: 'tribe_events_cat', tag: 'post_tag' };
const LINKED: Record<'venue' | 'organizer', LinkedPostType> = { venue: VENUE, organizer: ORGANIZER };

/** A record the local rules refused; the run reports it and goes on (90 §2.3). */
class Refusal extends Error {}

/** The English text of a refusal, with each refused parameter and its reason. */
function describeFailure(error: unknown): string {
  if (error instanceof InvalidParamsError) {
    const reasons = Object.entries(error.failures).map(([name, failure]: [string, ParamFailure]) =>
      failure.messageKey ? `${name} (${translate('en', failure.messageKey, failure.vars)})` : name,
    );
    return `${error.code}: invalid ${reasons.join(', ')}`;
  }
  if (error instanceof RestError) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return `${error.code}: ${translate('en', error.messageKey, error.vars)}${cause}`;
  }
  return error instanceof Error ? error.message : String(error);
}

function withoutNulls(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null && value !== undefined));
}

/** `calendar import site` (90 §2): copies every kind in dependency order through the local use cases. */
export async function importSite(options: ImportOptions): Promise<ImportReport> {
  const { db, client, root, user } = options;
  const clock = options.clock ?? (() => new Date());
  const source = root;
  const map = new ImportRecordsRepository(db, source);
  const report: ImportReport = {
    source,
    source_kind: options.sourceKind.kind,
    source_kind_evidence: options.sourceKind.evidence,
    dryRun: options.dryRun,
    kinds: Object.fromEntries(KINDS.map(({ kind }) => [kind, { created: 0, updated: 0, unchanged: 0, skipped: 0, trashed: 0, warnings: 0 }])) as Record<ImportKind, KindSummary>,
    skipped: [],
    warnings: [],
    slug_changes: [],
    failed_pages: [],
    interrupted: false,
  };
  const warn = (kind: ImportKind, message: string, id?: number) => {
    report.kinds[kind].warnings++;
    report.warnings.push({ kind, ...(id === undefined ? {} : { source_id: id }), message });
  };
  /** Local ids of the source records this run saw live, for the links of later kinds. */
  const live: Record<ImportKind, Map<number, number>> = { category: new Map(), tag: new Map(), venue: new Map(), organizer: new Map(), event: new Map() };
  const ids = (kind: ImportKind, id: number) => live[kind].get(id);

  const context = (): RenderContext => renderContext({ lang: 'en', user, urls: new UrlBuilder('http://localhost', '', 'en'), now: clock() });

  for (const { kind, collection, query, statusAny } of KINDS) {
    if (report.interrupted) break;
    const listing = await listAll(kind, collection, `${root}/${collection}?${query}${statusAny && client.authenticated ? '&status=any' : ''}`);
    let records = listing.records;
    // Trashed venues and organizers are not copied as live records (90 §2.2).
    records = records.filter((record) => record.status !== 'trash');
    if (kind === 'category') {
      records = parentsFirst(records, (record) => warn(kind, `the parent ${String(record.parent)} of "${displayName(kind, record)}" is not in the source: imported at the top level`, sourceId(record)));
    }
    const mapped = await map.all(kind);
    // From this service, series are copied as series: each master with its rule, then its occurrences.
    const seriesMembers = kind === 'event' && options.sourceKind.kind === 'calendar-service' ? await ownServiceEvents(records) : undefined;
    if (seriesMembers !== undefined) records = seriesMembers.records;
    const seen = new Set([...records, ...[...(seriesMembers?.occurrences.values() ?? [])].flat()].map(sourceId));
    const series = new Set<number>();
    let done = 0;
    for (const listed of records) {
      const id = sourceId(listed);
      try {
        const record = await complete(kind, collection, listed);
        if (kind === 'event' && Number(record.post_parent ?? 0) > 0 && !series.has(Number(record.post_parent))) {
          series.add(Number(record.post_parent));
          warn(kind, `"${displayName(kind, record)}" belongs to a recurring series (${String(record.post_parent)}): its occurrences are imported as separate events`, id);
        }
        const action = await copy(kind, record, mapped.get(id));
        report.kinds[kind][action]++;
        if (seriesMembers !== undefined && isSeriesMaster(record)) await copyOccurrences(record, seriesMembers.occurrences.get(id) ?? [], mapped);
      } catch (error) {
        if (error instanceof SourceUnusableError) throw error;
        report.kinds[kind].skipped++;
        report.skipped.push({ kind, source_id: id, name: displayName(kind, listed), reason: describeFailure(error) });
      }
      options.progress.record(kind, ++done, records.length);
      if (options.stopRequested()) {
        report.interrupted = true;
        break;
      }
    }
    const whole = listing.complete && seriesMembers?.complete !== false;
    if (options.prune && whole && !report.interrupted) {
      for (const row of mapped.values()) {
        if (seen.has(row.source_id)) continue;
        try {
          if (await prune(kind, row)) report.kinds[kind].trashed++;
        } catch (error) {
          warn(kind, `could not trash the copy ${row.local_id} of source record ${row.source_id}: ${describeFailure(error)}`, row.source_id);
        }
      }
    } else if (options.prune && !whole) {
      warn(kind, `not pruned: the list of ${collection} could not be read whole`);
    }
    options.progress.finished(kind);
  }
  return report;

  async function listAll(kind: ImportKind, collection: string, firstUrl: string): Promise<{ records: SourceRecord[]; complete: boolean }> {
    const records: SourceRecord[] = [];
    let complete = true;
    let url: string | undefined = firstUrl;
    let page = 1;
    let totalPages: number | undefined;
    while (url !== undefined) {
      let body: Record<string, unknown> | undefined;
      try {
        const response = await client.getJson(url);
        if (response.status === 401) throw new SourceUnusableError(`the source refused the credentials: ${errorMessage(response)}`);
        if (response.status !== 200 || typeof response.body !== 'object' || response.body === null) {
          throw new SourceRequestError(url, `the source answered ${response.status}: ${errorMessage(response)}`, 'answer');
        }
        body = response.body as Record<string, unknown>;
      } catch (error) {
        if (!(error instanceof SourceRequestError)) throw error;
        complete = false;
        report.failed_pages.push({ kind, url, message: error.message });
      }
      const items = body && Array.isArray(body[collection]) ? (body[collection] as SourceRecord[]) : [];
      if (body) {
        totalPages = Number(body.total_pages ?? 0) || totalPages;
        records.push(...items.filter((item) => item && typeof item === 'object' && Number.isInteger(Number(item.id))));
        options.progress.page(kind, page, totalPages, typeof body.total === 'number' ? body.total : undefined);
      }
      const next = body && typeof body.next_rest_url === 'string' && body.next_rest_url.startsWith(root) ? body.next_rest_url : undefined;
      page++;
      if (next) url = next;
      else if (totalPages !== undefined && page <= totalPages) url = withPage(firstUrl, page);
      else url = undefined;
      if (body && items.length === 0) url = undefined;
    }
    return { records, complete };
  }

  /**
   * The events of this service as a source, where nothing needs to be lost (90 §2.2 ⚠ lifted): the
   * listed events and, read through its change feed as the signed-in user (`include=object,hidden`),
   * the hidden events and series masters no list shows; a master seen only through its occurrences
   * is read by id. Occurrences are copied with their series (`copyOccurrences`); those of a series
   * that cannot be read go as separate events, as from the reference.
   */
  async function ownServiceEvents(listed: SourceRecord[]): Promise<{ records: SourceRecord[]; occurrences: Map<number, SourceRecord[]>; complete: boolean }> {
    let complete = true;
    let fromFeed: SourceRecord[] = [];
    // Without credentials only public records are copied (90 §2.1), and hidden events are not listed publicly.
    if (client.authenticated) {
      const feed = await feedEvents(client, root);
      fromFeed = [...feed.records.values()].filter((record) => record.status !== 'trash');
      if (feed.failure !== undefined) {
        complete = false;
        report.failed_pages.push({ kind: 'event', url: `${root}/changes`, message: feed.failure });
      }
    }
    const plan = planEvents([...listed, ...fromFeed]);
    const records = [...plan.records];
    for (const masterId of plan.missingMasters) {
      const response = await client.getJson(`${root}/events/${masterId}${client.authenticated ? '?context=edit' : ''}`).catch((error: unknown) => {
        if (error instanceof SourceRequestError) return undefined;
        throw error;
      });
      const master = response?.status === 200 ? (response.body as SourceRecord) : undefined;
      if (master !== undefined && isSeriesMaster(master)) {
        records.push(master);
        continue;
      }
      records.push(...plan.occurrences.get(masterId)!);
      plan.occurrences.delete(masterId);
    }
    return { records, occurrences: plan.occurrences, complete };
  }

  /**
   * The occurrences of a copied series: each is the local occurrence at the same `recurrence_id`
   * (the copy expanded the same rule), and an edited or moved one (`recurrence_exception`) gets
   * what it holds of its own as overrides; each with its id-map row in one transaction.
   */
  async function copyOccurrences(master: SourceRecord, occurrences: readonly SourceRecord[], mapped: Map<number, ImportRecordRow>): Promise<void> {
    const localMaster = live.event.get(sourceId(master));
    const rows = localMaster === undefined ? [] : await new EventsRepository(db, formatWall(clock())).occurrencesOf([localMaster]);
    const locals = new Map(rows.map((row) => [row.recurrence_id, row.id]));
    for (const listed of occurrences) {
      const id = sourceId(listed);
      try {
        const occurrence = await complete('event', 'events', listed);
        const row = mapped.get(id);
        const action: Action = row === undefined ? 'created' : 'updated';
        const localId = locals.get(String(occurrence.recurrence_id));
        if (localId === undefined) {
          // A dry run has not created the series it reports.
          if (!options.dryRun) throw new Refusal(`the copied series ${String(seriesOf(occurrence))} has no occurrence at ${String(occurrence.recurrence_id)}`);
          report.kinds.event[action]++;
          continue;
        }
        const stamp = modificationStamp('event', occurrence);
        if (row !== undefined && row.local_id === localId && row.source_modified_utc === stamp) {
          report.kinds.event.unchanged++;
          continue;
        }
        if (!options.dryRun) {
          await inTransaction(db, async (trx) => {
            const overrides = occurrence.recurrence_exception === true ? occurrenceOverrides(occurrence, master, ids) : {};
            if (Object.keys(overrides).length > 0) await writeEvent(trx, context(), overrides, localId);
            await new ImportRecordsRepository(trx, source).save('event', id, localId, stamp);
          });
        }
        report.kinds.event[action]++;
      } catch (error) {
        if (error instanceof SourceUnusableError) throw error;
        report.kinds.event.skipped++;
        report.skipped.push({ kind: 'event', source_id: id, name: displayName('event', listed), reason: describeFailure(error) });
      }
    }
  }

  /** A protected record comes blanked in lists: re-read whole by id when signed in (90 §2.2). */
  async function complete(kind: ImportKind, collection: string, listed: SourceRecord): Promise<SourceRecord> {
    if (!isBlanked(kind, listed)) return listed;
    const id = sourceId(listed);
    if (!client.authenticated) {
      // A blanked venue or organizer hides even its name: there is nothing to copy.
      if (kind !== 'event') throw new Refusal('password-protected: the source hides it, name included, without --user');
      warn(kind, `"${displayName(kind, listed)}" is password-protected: copied as listed, without its hidden content (give --user to copy it whole)`, id);
      return listed;
    }
    const response = await client.getJson(`${root}/${collection}/${id}?context=edit`);
    if (response.status !== 200 || typeof response.body !== 'object' || response.body === null) {
      throw new Refusal(`password-protected and the source did not reveal it: ${errorMessage(response)}`);
    }
    const whole = response.body as SourceRecord;
    if (typeof whole.password !== 'string') {
      // The content is copied; the source keeps its password to itself, so the copy gets a new
      // one rather than going public.
      warn(kind, `"${displayName(kind, whole)}" is password-protected and the source does not reveal the password: protected here with a new random password`, id);
      return { ...whole, password: randomBytes(12).toString('base64url') };
    }
    return whole;
  }

  async function copy(kind: ImportKind, record: SourceRecord, row: ImportRecordRow | undefined): Promise<Action> {
    const id = sourceId(record);
    const stamp = modificationStamp(kind, record);
    const exists = row !== undefined && (await localExists(kind, row.local_id));
    if (exists && row.source_modified_utc === stamp) {
      live[kind].set(id, row.local_id);
      return 'unchanged';
    }
    const action: Action = exists ? 'updated' : 'created';
    if (options.dryRun) {
      if (row) live[kind].set(id, row.local_id);
      return action;
    }
    // Fetched before the record's transaction: no network wait holds it open.
    const image = await copiedImage(kind, record);
    const localId = await inTransaction(db, async (trx) => {
      const written = await write(trx, kind, record, exists ? row.local_id : undefined, image);
      await new ImportRecordsRepository(trx, source).save(kind, id, written, stamp);
      return written;
    });
    live[kind].set(id, localId);
    return action;
  }

  /** The local id of the record's copied image; undefined keeps the image by URL (a failure is a warning). */
  async function copiedImage(kind: ImportKind, record: SourceRecord): Promise<number | undefined> {
    const image = record.image as { id?: unknown; url?: unknown } | undefined;
    if (options.images === undefined || kind === 'category' || kind === 'tag' || !image || typeof image.url !== 'string') return undefined;
    try {
      return await options.images.copy({ id: image.id, url: image.url });
    } catch (error) {
      if (!(error instanceof ImageCopyError)) throw error;
      warn(kind, `"${displayName(kind, record)}": image not copied (${error.message}), registered by its URL`, sourceId(record));
      return undefined;
    }
  }

  async function localExists(kind: ImportKind, localId: number): Promise<boolean> {
    const now = clock();
    if (kind === 'category' || kind === 'tag') return (await getTerm(db, TAXONOMY[kind], localId, now)) !== undefined;
    if (kind === 'event') return (await new EventsService(db, options.siteZone).find(localId, now)) !== undefined;
    return (await findLinkedPostById(db, LINKED[kind], localId, now)) !== undefined;
  }

  /** Creates (`localId` undefined) or updates the copy of one record; returns its local id. */
  async function write(trx: Kysely<Database>, kind: ImportKind, record: SourceRecord, localId: number | undefined, image: number | undefined): Promise<number> {
    const withImage = (body: Record<string, unknown>) => (image === undefined ? body : { ...body, image });
    const ctx = context();
    const slug = typeof record.slug === 'string' ? record.slug : '';
    const noteSlug = (stored: string) => {
      if (localId === undefined && slug !== '' && stored !== slug) report.slug_changes.push({ kind, source_id: sourceId(record), from: slug, to: stored });
    };
    if (kind === 'category' || kind === 'tag') {
      const taxonomy = TAXONOMY[kind];
      const parentSource = kind === 'category' ? Number(record.parent ?? 0) : 0;
      const parent = parentSource === 0 ? 0 : (live.category.get(parentSource) ?? 0);
      const fields = { name: String(record.name ?? ''), description: typeof record.description === 'string' ? record.description : '', parent };
      if (localId !== undefined) {
        const current = await getTerm(trx, taxonomy, localId, ctx.now);
        const view = await updateTerm(trx, taxonomy, localId, { ...fields, ...(current && current.term.slug !== slug && slug !== '' ? { slug } : {}) }, user, ctx.now);
        return view.term.id;
      }
      let view;
      try {
        view = await createTerm(trx, taxonomy, { ...fields, ...(slug === '' ? {} : { slug }) }, user, ctx.now);
      } catch (error) {
        // A local term of the same name holds this slug: the copy takes the next free one.
        if (!(error instanceof RestError) || error.code !== 'term_exists' || slug === '') throw error;
        view = await createTerm(trx, taxonomy, { ...fields, slug: `${slug}-2` }, user, ctx.now);
      }
      noteSlug(view.term.slug);
      return view.term.id;
    }
    if (kind === 'venue' || kind === 'organizer') {
      const type = LINKED[kind];
      const body = withImage(linkedBody(kind, record));
      const failures: Record<string, ParamFailure> = {};
      const rules = linkedFieldRules(type);
      for (const [name, value] of Object.entries(body)) {
        if (value === null || !rules[name]) continue;
        const verdict = await rules[name].check(value, trx, user, ctx.now);
        if (verdict !== true) failures[name] = verdict === false ? { reason: rules[name].reason } : verdict;
      }
      if (Object.keys(failures).length > 0) throw new InvalidParamsError(failures);
      const env: WriteEnv = { principal: user, now: ctx.now, siteZone: options.siteZone };
      const input = readLinkedPostInput(type, body, env);
      if (localId !== undefined) {
        const current = await findLinkedPostById(trx, type, localId, ctx.now);
        return (await updateLinkedPost(trx, type, current!, input, env)).id;
      }
      const created = await createLinkedPost(trx, type, { ...input, slug }, env, { distinct: true });
      noteSlug(created.slug);
      return created.id;
    }
    const event = await writeEvent(trx, ctx, withImage(eventBody(record, ids)), localId);
    noteSlug(event.slug);
    for (const [edge, stored] of [['utc_start_date', event.start_utc], ['utc_end_date', event.end_utc]] as const) {
      if (typeof record[edge] === 'string' && record[edge] !== stored) {
        warn('event', `"${displayName('event', record)}": the source says ${edge} ${String(record[edge])}, its wall clock and time zone give ${stored}`, sourceId(record));
      }
    }
    return event.id;
  }

  /** Creates (`localId` undefined) or updates an event from a request body, judged by the API's own argument rules. */
  async function writeEvent(trx: Kysely<Database>, ctx: RenderContext, body: Record<string, unknown>, localId: number | undefined): Promise<EventRow> {
    const events = new EventsService(trx, options.siteZone);
    const specs = writeArgs({ db: trx, events }, localId === undefined);
    const params = await validateArgs(specs, localId === undefined ? withoutNulls(body) : body, ctx);
    const fields = eventFields(params, specs, { update: localId !== undefined });
    return localId === undefined
      ? events.create(ctx, user, fields, async (_trx, created) => created)
      : events.update(ctx, user, localId, fields, async (_trx, updated) => updated);
  }

  /** `--prune`: the copy of a record the source no longer lists goes to the trash (terms have none: deleted). */
  async function prune(kind: ImportKind, row: ImportRecordRow): Promise<boolean> {
    const now = clock();
    if (kind === 'category' || kind === 'tag') {
      if ((await getTerm(db, TAXONOMY[kind], row.local_id, now)) === undefined) return false;
      if (options.dryRun) return true;
      await inTransaction(db, async (trx) => {
        await deleteTerm(trx, TAXONOMY[kind], row.local_id, now);
        await new ImportRecordsRepository(trx, source).remove(kind, row.source_id);
      });
      return true;
    }
    if (kind === 'event') {
      const events = new EventsService(db, options.siteZone);
      const event = await events.find(row.local_id, now);
      if (!event || event.status === 'trash') return false;
      if (!options.dryRun) await events.trash(context(), row.local_id, undefined, async () => undefined);
      return true;
    }
    const type = LINKED[kind];
    const current = await findLinkedPostById(db, type, row.local_id, now);
    if (!current || current.status === 'trash') return false;
    if (!options.dryRun) await trashLinkedPost(db, type, current, { principal: user, now, siteZone: options.siteZone });
    return true;
  }
}

function withPage(url: string, page: number): string {
  const parsed = new URL(url);
  parsed.searchParams.set('page', String(page));
  return parsed.href;
}
