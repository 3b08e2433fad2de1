import { can } from '../../domain/auth/capabilities.ts';
import { canDeleteRecord, canEditRecord, canReadRecord } from '../../domain/auth/record-permissions.ts';
import { forbidden, invalidParam, RestError } from '../../domain/errors.ts';
import { REASONS } from '../../domain/reasons.ts';
import { isUnlocked, revealedPassword } from '../../domain/posts/password.ts';
import { eventOwnership, EventsService, eventTag, type Scope } from '../../services/events-service.ts';
import type { RecordTag } from '../../domain/sync/preconditions.ts';
import type { Kysely } from 'kysely';
import type { Database, EventRow } from '../../storage/schema.ts';
import type { ArgSpecs } from '../../args/arg-spec.ts';
import type { RestContext } from '../rest/context.ts';
import type { Endpoint, RestResponse, RouteDef } from '../rest/endpoint.ts';
import type { Params } from '../../args/validate-args.ts';
import type { EventParts } from '../../render/json/event-serializer.ts';
import { serializeEvent } from '../../read/event-models.ts';
import { nonEmptyStringRule } from '../../args/validators.ts';
import {
  contextArg,
  eventFields,
  existingSlugArg,
  idArg,
  occurrenceDateArg,
  slugLookup,
  scopeArg,
  slugPathArg,
  writeArgs,
} from '../../services/event-args.ts';
import { listEndpoint, listPages } from './events/event-list.ts';
import { eventCreates } from './events/event-creates.ts';
import { feedRoutes } from './events/event-feeds.ts';
import type { AppDeps } from './index.ts';
import { ReadCache, type CacheView } from '../../read/read-cache.ts';
import { approvalOnPublication } from '../../services/submissions/approval.ts';
import { showsSubmission } from '../../domain/submissions/submitter-visibility.ts';
import { loadSubmissions } from '../../read/submission-models.ts';
import { serializeSubmission } from '../../render/json/submission-serializer.ts';
import { EventLookups } from '../../services/event-lookups.ts';
import { JsonText } from '../rest/send.ts';
import type { DescribedWrite } from '../../storage/write-journal.ts';
import { TERM_COUNT_COLUMNS } from '../../storage/repositories/terms-repository.ts';

/** A single event's rendered answer, with the id it is of. */
interface SingleAnswer {
  id: number;
  body: JsonText;
}

/**
 * Whether what other records make of an event's answer (its venue, organizers and the counts of
 * its terms) stays true through a described write: any event write that moves no term's count
 * leaves them alone (a described write never relinks).
 */
function partsSurvive(write: DescribedWrite): boolean {
  return write.kind === 'event' && !write.columns.some((column) => TERM_COUNT_COLUMNS.has(column));
}

/**
 * Whether a single event's answer stays true through a described write: it shows its own row
 * and its parts, so any such write of another event leaves it alone (another event's retitle,
 * cost or description).
 */
function singleSurvives(id: number, write: DescribedWrite): boolean {
  return write.id !== id && partsSurvive(write);
}

/**
 * The event routes of 10-events: the list and create, then read, delete and update by id and by
 * slug (in the reference's order, which the namespace index shows).
 */
export function eventRoutes(deps: AppDeps): RouteDef[] {
  const db = deps.storage.db;
  const siteZone = deps.config.timezone;
  const events = new EventsService(db, siteZone, deps.config.recurrence, deps.storage.epochs.journal, approvalOnPublication(deps.config));
  const lookups = new EventLookups(deps.storage, events);
  const argDeps = { db, events, lookups };
  const createArgs = writeArgs(argDeps, true);
  const updateArgs = writeArgs(argDeps, false);
  const bySlugUpdateArgs: ArgSpecs = { slug: slugPathArg, ...Object.fromEntries(Object.entries(updateArgs).filter(([name]) => name !== 'slug')) };
  const deleteArgs: ArgSpecs = {
    force: { type: 'boolean', extension: true, description: 'Delete the event permanently instead of moving it to the trash.' },
    scope: scopeArg,
    password: { description: 'Accepted and ignored.' },
  };

  const creates = eventCreates(events);
  const singles = new ReadCache<SingleAnswer>(deps.storage, 2000, (single, write) => singleSurvives(single.id, write));
  const parts = new ReadCache<EventParts>(deps.storage, 1000, (_parts, write) => partsSurvive(write));
  const geoDefaults = { radius: deps.config.geofenceRadius, unit: deps.config.distanceUnit };

  const idOfSlug = async (ctx: RestContext, params: Params) => (await lookups.idBySlug(ctx, slugLookup(params))) ?? 0;

  /** With `?date=`, the slug's occurrence on that local date (60 §2); none that day → 400 as for an unknown slug. */
  const idOfSlugOnDate = async (ctx: RestContext, params: Params) => {
    const id = await idOfSlug(ctx, params);
    if (!params.has('date')) return id;
    const date = params.get<string>('date');
    const found = await events.findIdOnLocalDate(id, date, ctx.now);
    if (found === undefined) throw invalidParam('date', { messageKey: 'by-slug-no-occurrence', vars: { date }, code: 'by-slug-no-occurrence' });
    return found;
  };

  /**
   * What a write checks on the row it locks (the series master for an occurrence, 60 §6): the
   * per-event rule `may`, refused with 403 before the request's precondition is judged.
   */
  const lockedRowChecks = (ctx: RestContext, may: typeof canEditRecord) => ({
    precondition: ctx.precondition,
    authorize: (series: EventRow) => {
      if (!may(ctx.user, eventOwnership(series))) throw forbidden(false);
    },
  });

  /** The checks of §5, in order, then the event with its json_ld when the caller may see it. */
  const show = async (ctx: RestContext, id: number, params: Params): Promise<RestResponse> => {
    const event = await lookups.event(ctx, id);
    if (event.status === 'trash') throw new RestError(403, 'event-no-longer-available');
    const record = eventOwnership(event);
    if (!canReadRecord(ctx.user, record)) throw new RestError(403, 'event-not-accessible');
    if (!isUnlocked(record, ctx.user, { password: params.get('password'), contextEdit: params.get('context') === 'edit' })) {
      throw new RestError(403, 'event-password-protected');
    }
    const jsonLd = record.password === '' && (event.status !== 'private' || can(ctx.user, 'read_private_posts'));
    // Who may see the event was decided above; what it looks like depends on these (the caller
    // too: embedded venues and organizers carry their json_ld only for those who may read them).
    const password = revealedPassword(record, ctx.user, params.get('context') === 'edit');
    const key = JSON.stringify([id, ctx.lang, ctx.urls.ns, jsonLd, ctx.user?.id ?? 0, ctx.user?.role ?? '', password !== undefined]);
    const { body } = await singles.get(ctx, key, async () => {
      const value = { ...(await serializeEvent(db, event, ctx, { jsonLd })), ...(password === undefined ? {} : { password }) };
      return { id, body: new JsonText(JSON.stringify(value), value) };
    });
    if (!showsSubmission(ctx.user, params.get('context'))) return { body, etag: eventTag(event), survives: (write) => singleSurvives(id, write) };
    // Read fresh, outside the shared cache: a submission changes without its event (the
    // retention job erases the submitter), and no other caller's entry can then hold it.
    const value = { ...(body.value as object), submission: serializeSubmission((await loadSubmissions(db, [id])).get(id)) };
    return { body: new JsonText(JSON.stringify(value), value), etag: eventTag(event) };
  };

  /**
   * Renders the stored event inside the write's transaction and keeps its tag for the answer.
   * With `kept` (the parts cache as of the request), an update described as leaving the event's
   * parts alone takes them from it: its answer then reads nothing but the row it wrote.
   */
  const described = (ctx: RestContext, kept?: Promise<CacheView<EventParts>>) => {
    let etag: RecordTag | undefined;
    const describe = async (trx: Kysely<Database>, event: EventRow, write?: DescribedWrite) => {
      etag = eventTag(event);
      const view = kept !== undefined && write !== undefined && partsSurvive(write) ? await kept : undefined;
      return serializeEvent(trx, event, ctx, { parts: view });
    };
    return { describe, etag: () => etag };
  };

  const update = async (ctx: RestContext, id: number, params: Params, specs: ArgSpecs, slugInPath = false): Promise<RestResponse> => {
    const fields = eventFields(params, specs, { update: true, slugInPath });
    fields.image = await deps.media.imageInput(fields.image, ctx.user!.id);
    // Opened before the transaction: the parts it keeps are as of the request, which a write
    // leaving them alone does not change (on PostgreSQL it waits for the listener's round trip).
    const kept = parts.open(ctx);
    // Awaited only by an update described as leaving the parts alone; a failure is then the update's.
    kept.catch(() => {});
    const written = described(ctx, kept);
    // The per-event rule of 40 §5.1 (WordPress edit_post), judged on the row the update locks:
    // no read of its own, and no window for the event to change hands between check and write.
    const body = await events.update(ctx, ctx.user!, id, fields, written.describe, lockedRowChecks(ctx, canEditRecord));
    return { body, etag: written.etag() };
  };

  /**
   * Trash (§8), or ⚠ with `force=true` a permanent deletion answered as WordPress core does. The
   * route's gate asks for the general right; the per-event rule (§1, 40 §5: WordPress
   * delete_post) is judged on the row the delete locks, as an update's is — an occurrence on its
   * series (60 §6) — so an id that names no event answers 404/400 to those who hold the right.
   */
  const remove = async (ctx: RestContext, id: number, params: Params): Promise<RestResponse> => {
    const scope = params.has('scope') ? params.get<Scope>('scope') : undefined;
    const checks = lockedRowChecks(ctx, canDeleteRecord);
    if (params.get('force') === true) {
      const previous = await events.deletePermanently(id, ctx.now, scope, (trx, event) => serializeEvent(trx, event, ctx), checks);
      return { body: { deleted: true, previous } };
    }
    const written = described(ctx);
    const body = await events.trash(ctx, id, scope, written.describe, checks);
    return { body, etag: written.etag() };
  };

  const read = (args: ArgSpecs, id: (ctx: RestContext, params: Params) => number | Promise<number>): Endpoint => ({
    methods: ['GET'],
    summary: 'Returns one event.',
    args: { ...args, context: contextArg },
    handler: async (ctx, params) => show(ctx, await id(ctx, params), params),
  });

  const create: Endpoint = {
    methods: ['POST'],
    summary: 'Creates an event.',
    args: createArgs,
    permission: (ctx) => can(ctx.user, 'edit_posts'),
    handler: async (ctx, params) => {
      const fields = eventFields(params, createArgs, { update: false });
      fields.image = await deps.media.imageInput(fields.image, ctx.user!.id);
      const { event, body } = await creates({ ctx, user: ctx.user!, fields });
      return { status: 201, body, etag: eventTag(event) };
    },
  };

  return [
    { pattern: '/events', endpoints: [listEndpoint({ db, events, lookups, siteZone, pages: listPages(deps.storage), parts, geoDefaults }), create] },
    {
      pattern: '/events/(?P<id>\\d+)',
      endpoints: [
        read(
          { id: idArg, password: { type: 'string', description: 'The password of a protected event.', validate: nonEmptyStringRule } },
          (_ctx, params) => params.get('id'),
        ),
        {
          methods: ['DELETE'],
          summary: 'Moves an event to the trash.',
          args: { id: idArg, ...deleteArgs },
          // The rest of the per-event rule is the delete's own (remove).
          permission: (ctx) => can(ctx.user, 'delete_posts'),
          handler: (ctx, params) => remove(ctx, params.get('id'), params),
        },
        {
          methods: ['POST', 'PUT', 'PATCH'],
          summary: 'Updates the fields of an event that the request sends.',
          args: { id: idArg, ...updateArgs },
          // The rest of the per-event rule is the update's own (authorize).
          permission: (ctx) => can(ctx.user, 'edit_posts'),
          handler: (ctx, params) => update(ctx, params.get('id'), params, updateArgs),
        },
      ],
    },
    {
      pattern: '/events/by-slug/(?P<slug>[^/]+)',
      endpoints: [
        read({ slug: existingSlugArg(argDeps), date: occurrenceDateArg, password: { description: 'The password of a protected event.' } }, idOfSlugOnDate),
        {
          methods: ['DELETE'],
          summary: 'Moves an event to the trash.',
          args: { slug: existingSlugArg(argDeps), ...deleteArgs },
          // ⚠ Service rule (§1): the slug is resolved and the per-event rule applied, as by id.
          permission: (ctx) => can(ctx.user, 'delete_posts'),
          handler: async (ctx, params) => remove(ctx, await idOfSlug(ctx, params), params),
        },
        {
          methods: ['POST', 'PUT', 'PATCH'],
          summary: 'Updates the fields of an event that the request sends; a body slug renames it.',
          args: bySlugUpdateArgs,
          permission: async (ctx, params) => {
            // The new slug is a parameter like the others: judged before the permission.
            const renamed = params.shadowed.slug;
            if (renamed !== undefined && (typeof renamed !== 'string' || renamed === '')) throw invalidParam('slug', typeof renamed === 'string' ? REASONS.notEmpty : REASONS.string);
            return can(ctx.user, 'edit_posts');
          },
          handler: async (ctx, params) => update(ctx, await idOfSlug(ctx, params), params, bySlugUpdateArgs, true),
        },
      ],
    },
    ...feedRoutes({ db, events, lookups, siteZone, siteName: deps.config.siteName, files: new ReadCache(deps.storage, 500), geoDefaults }),
  ];
}
