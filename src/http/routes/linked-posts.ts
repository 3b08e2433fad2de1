import type { Kysely } from 'kysely';
import { can } from '../../domain/auth/capabilities.ts';
import { canDeleteRecord, canEditRecord, canReadRecord } from '../../domain/auth/record-permissions.ts';
import { RestError, forbidden, invalidParam } from '../../domain/errors.ts';
import { pageSize, REASONS } from '../../domain/reasons.ts';
import { ORGANIZER, VENUE, ownership, type LinkedPostType } from '../../domain/linked-posts/linked-post-type.ts';
import { isUnlocked, revealedPassword } from '../../domain/posts/password.ts';
import { defaultListStatuses, parseStatusFilter } from '../../domain/status.ts';
import { venueSearchPieces } from '../../domain/text/search.ts';
import { normalizeSlugLookup } from '../../domain/text/slug.ts';
import { isTruthy } from '../../domain/text/truthy.ts';
import {
  createLinkedPost, deleteLinkedPost, eventExists, findLinkedPostById, findLinkedPostBySlug, idOf,
  linkedFieldRules, listLinkedPosts, readLinkedPostInput, trashLinkedPost, updateLinkedPost, type LinkedPostInput, type WriteEnv,
} from '../../services/linked-posts-service.ts';
import { imagesOf } from '../../read/linked-post-models.ts';
import type { LinkedListFilter, LinkedRecord } from '../../storage/repositories/linked-posts-repository.ts';
import type { Database, MediaRow } from '../../storage/schema.ts';
import type { ArgSpecs } from '../../args/arg-spec.ts';
import type { RestContext } from '../rest/context.ts';
import type { Endpoint, RestResponse, RouteDef } from '../rest/endpoint.ts';
import { requestKey, ResponseCache } from '../rest/cached-response.ts';
import { formatWall } from '../../domain/dates/datetime-format.ts';
import type { Params } from '../../args/validate-args.ts';
import { serializeOrganizer } from '../../render/json/organizer-serializer.ts';
import type { LinkedSerializeOptions } from '../../render/json/linked-post-serializer.ts';
import { serializeVenue } from '../../render/json/venue-serializer.ts';
import type { AppDeps } from './index.ts';
import { isPositiveInteger, nonEmptyStringRule, positiveIntegerRule, rule, statusFilterRule } from '../../args/validators.ts';
import { geoLinkPairs, geoSearchArgs, geoSearchOf, withDistances } from './geo-args.ts';
import { modifiedArgs, modifiedBoundsOf, organizerSortArgs, rawLinkPairs, SYNC_LINK_PARAMS } from './list-args.ts';
import { hasModifiedBound, readModifiedBounds } from '../../domain/sync/modified-bounds.ts';
import { readListOrder } from '../../domain/lists/list-order.ts';
import { inTransaction } from '../../storage/transactions.ts';
import { checkPrecondition, type RecordTag } from '../../domain/sync/preconditions.ts';
import { lockedRevision, readRevision } from '../../storage/repositories/revisions.ts';

type Serializer = (record: LinkedRecord, image: MediaRow | undefined, ctx: RestContext, options: LinkedSerializeOptions) => Record<string, unknown>;

/** The site page size and the largest page a list serves (20 §5.1). */
const DEFAULT_PER_PAGE = 10;
const MAX_PER_PAGE = 50;

export function venueRoutes(deps: AppDeps): RouteDef[] {
  return linkedPostRoutes(deps, VENUE, serializeVenue);
}

export function organizerRoutes(deps: AppDeps): RouteDef[] {
  return linkedPostRoutes(deps, ORGANIZER, serializeOrganizer);
}

/** How a single-record route finds its record: by id or by slug (20 §1, §4.2). */
interface Locator {
  args: ArgSpecs;
  find(db: Kysely<Database>, params: Readonly<Record<string, unknown>>, now: Date): Promise<LinkedRecord | undefined>;
}


/** A query value as the links write it back. */
function linkValue(value: unknown): string {
  if (Array.isArray(value)) return value.map((item) => String(item).trim()).join(',');
  if (typeof value === 'string') return value.split(',').map((item) => item.trim()).join(',');
  return String(value);
}

function geoLinks(params: Params): Array<[string, string | undefined]> {
  const given = (name: string) => (params.has(name) ? linkValue(params.raw[name]) : undefined);
  return [
    ['geoloc', params.has('geoloc') ? (params.get<boolean>('geoloc') ? '1' : '0') : undefined],
    ['geoloc_lat', given('geoloc_lat')],
    ['geoloc_lng', given('geoloc_lng')],
    ...geoLinkPairs(params),
  ];
}

function linkedPostRoutes(deps: AppDeps, type: LinkedPostType, serialize: Serializer): RouteDef[] {
  const db = deps.storage.db;
  const writeEnv = (ctx: RestContext): WriteEnv => ({ principal: ctx.user!, now: ctx.now, siteZone: deps.config.timezone });
  const errorCode = (suffix: string) => `${type.kind}-${suffix}`;
  const unknownRecord = type.kind === 'venue' ? REASONS.unknownVenue : REASONS.unknownOrganizer;
  const geoDefaults = { radius: deps.config.geofenceRadius, unit: deps.config.distanceUnit };
  const lists = new ResponseCache(deps.storage);

  /** Unlocked by the exact password or by context=edit from a caller who may edit it (40 §8). */
  const unlocked = (record: LinkedRecord, ctx: RestContext, raw: Readonly<Record<string, unknown>>): boolean =>
    isUnlocked({ ...ownership(record), password: record.password }, ctx.user, { password: raw.password, contextEdit: raw.context === 'edit' });

  async function render(executor: Kysely<Database>, record: LinkedRecord, ctx: RestContext, options: LinkedSerializeOptions): Promise<Record<string, unknown>> {
    const images = await imagesOf(executor, [record]);
    return serialize(record, record.image_id === null ? undefined : images.get(record.image_id), ctx, options);
  }

  const fieldArgs = (isCreate: boolean): ArgSpecs => {
    const args: ArgSpecs = {};
    for (const [name, field] of Object.entries(linkedFieldRules(type))) {
      args[name] = {
        type: field.docType,
        description: field.description,
        required: isCreate && name === type.nameKey,
        // The handlers read the validated raw values (null clears some fields), so no coercion.
        sanitize: (value) => value,
        validate: async (value, ctx) => {
          const verdict = await field.check(value, db, ctx.user, ctx.now);
          return verdict === true || (verdict === false ? { reason: field.reason } : verdict);
        },
        ...(field.extension ? { extension: true } : {}),
      };
    }
    return args;
  };

  const readArgs: ArgSpecs = {
    password: { type: 'string', description: `Unlocks a ${type.kind} protected with this password.`, extension: true },
    context: {
      type: 'string',
      description: `Scope of the request; with "edit", callers who may edit a password-protected ${type.kind} see it whole.`,
      extension: true,
    },
  };

  const byId: Locator = {
    args: {
      id: {
        type: 'integer',
        description: `Unique identifier for the ${type.kind}.`,
        required: true,
        in: 'path',
        validate: rule(async (value, ctx) => {
          const id = idOf(value);
          return id !== undefined && (await findLinkedPostById(db, type, id, ctx.now)) !== undefined;
        }, unknownRecord),
      },
    },
    find: (executor, raw, now) => findLinkedPostById(executor, type, idOf(raw.id)!, now),
  };

  const bySlug: Locator = {
    args: {
      slug: {
        type: 'string',
        description: `The ${type.kind} slug.`,
        required: true,
        in: 'path',
        validate: rule(async (value, ctx) => typeof value === 'string' && (await findLinkedPostBySlug(db, type, normalizeSlugLookup(value), ctx.now)) !== undefined, unknownRecord),
      },
    },
    find: (executor, raw, now) => findLinkedPostBySlug(executor, type, normalizeSlugLookup(String(raw.slug)), now),
  };

  /** The record of a validated single-record request; gone meanwhile = unknown. */
  async function locate(executor: Kysely<Database>, locator: Locator, params: Params, now: Date): Promise<LinkedRecord> {
    const record = await locator.find(executor, params.raw, now);
    if (!record) throw invalidParam(Object.keys(locator.args)[0], unknownRecord);
    return record;
  }

  const list: Endpoint = {
    methods: ['GET'],
    summary: `The ${type.collection}, newest first, one page at a time.`,
    args: {
      page: { type: 'integer', default: 1, minimum: 1, description: 'The archive page to return.', validate: positiveIntegerRule },
      per_page: {
        type: 'integer',
        default: DEFAULT_PER_PAGE,
        minimum: 1,
        description: `The number of ${type.collection} to return on each page (at most ${MAX_PER_PAGE}).`,
        validate: rule(isPositiveInteger, pageSize(MAX_PER_PAGE)),
      },
      search: {
        type: 'string',
        description: `Only the ${type.collection} with every word of this text in one of their fields.`,
        validate: nonEmptyStringRule,
      },
      event: {
        type: 'integer',
        description: `Only the ${type.collection} linked to this event.`,
        validate: rule(async (value, ctx) => {
          const id = idOf(value);
          return id !== undefined && eventExists(db, id, ctx.now);
        }, REASONS.unknownEvent),
      },
      has_events: {
        description: `With a true value, only the ${type.collection} linked to published, scheduled or private events; otherwise only those linked to none.`,
      },
      only_with_upcoming: { default: false, description: `With a true value, only the ${type.collection} linked to events that have not started yet.` },
      status: {
        description: `The statuses of the ${type.collection} to return; only "publish" unless the caller may edit them ("any": every status but trash).`,
        validate: statusFilterRule,
      },
      ...readArgs,
      ...(type.coordinates ? geoSearchArgs(geoDefaults, 'venues') : organizerSortArgs),
      ...modifiedArgs('records'),
    },
    // "Upcoming" moves with the clock (to the second): such answers are kept for their second; so
    // do relative modification bounds ("-1 day"), hence their resolved instants in the key.
    handler: (ctx, params) =>
      lists.answer(
        ctx,
        [...requestKey(ctx, params), isTruthy(params.get('only_with_upcoming')) ? formatWall(ctx.now) : null, readModifiedBounds(params.raw, ctx.now)],
        () => listPage(ctx, params),
      ),
  };

  async function listPage(ctx: RestContext, params: Params): Promise<RestResponse> {
    const geo = type.coordinates ? geoSearchOf(params, geoDefaults) : undefined;
    const page = params.get<number>('page');
    const perPage = Math.min(params.get<number>('per_page'), MAX_PER_PAGE);
    const statusGiven = params.has('status') && linkValue(params.get('status')) !== '';
    const filter: LinkedListFilter = {
      statuses: params.has('status') ? parseStatusFilter(params.get('status'), ctx.user)! : defaultListStatuses(ctx.user),
    };
    if (params.has('search')) filter.searchPieces = venueSearchPieces(params.get<string>('search'));
    if (params.has('event')) filter.eventId = params.get<number>('event');
    if (params.has('has_events')) filter.hasEvents = isTruthy(params.get('has_events'));
    if (isTruthy(params.get('only_with_upcoming'))) filter.onlyWithUpcoming = true;
    if (geo?.filter !== undefined) filter.geo = geo.filter;
    const modified = modifiedBoundsOf(params, ctx.now);
    if (hasModifiedBound(modified)) filter.modified = modified;
    // `start` is the events' key only: unknown here, so ignored like any other (80 §2).
    const { orderby, desc } = readListOrder(params.raw.orderby, params.raw.order);
    if (orderby !== undefined && orderby !== 'start') filter.orderBy = orderby;
    filter.orderDesc = desc;

    const { records, total, images, distances } = await listLinkedPosts(db, type, filter, page, perPage, ctx.now);
    if (page > 1 && records.length === 0) throw new RestError(404, errorCode('archive-page-not-found'));
    const locked = records.map((record) => !unlocked(record, ctx, params.raw));
    const serialized = records.map((record, index) =>
      serialize(record, record.image_id === null ? undefined : images.get(record.image_id), ctx, { jsonLd: false, locked: locked[index] }),
    );
    const items = geo === undefined ? serialized : withDistances(serialized, records.map((record) => record.id), distances, geo, (index) => !locked[index]);

    // The reference drops `search` and `only_with_upcoming` from its links; they are kept here (20 §5.3).
    const query: Array<[string, string | number | undefined]> = [
      ['per_page', perPage],
      ['search', params.has('search') ? params.get<string>('search') : undefined],
      ['event', params.has('event') ? params.get<number>('event') : undefined],
      ['has_events', params.has('has_events') ? linkValue(params.get('has_events')) : undefined],
      ['only_with_upcoming', params.has('only_with_upcoming') ? linkValue(params.get('only_with_upcoming')) : undefined],
      ['status', statusGiven ? linkValue(params.get('status')) : can(ctx.user, 'edit_posts') ? 'any' : 'publish'],
      // The location search, in the order of the event list links (70-geo §3.3).
      ...(type.coordinates ? geoLinks(params) : []),
      ...rawLinkPairs(params, SYNC_LINK_PARAMS),
    ];
    const link = (targetPage: number | undefined) =>
      ctx.urls.nsUrl(`/${type.collection}/`, targetPage === undefined ? query : [...query, ['page', targetPage]]);
    const totalPages = Math.ceil(total / perPage);
    const body: Record<string, unknown> = {
      [type.collection]: items,
      rest_url: ctx.urls.nsUrl(`/${type.collection}/`, [['page', page], ...query]),
    };
    if (page * perPage < total) body.next_rest_url = link(page + 1);
    if (page > 1) body.previous_rest_url = link(page - 1 > 1 ? page - 1 : undefined);
    body.total = total;
    body.total_pages = totalPages;
    return {
      body,
      headers: {
        'X-TEC-Total': String(total),
        'X-TEC-TotalPages': String(totalPages),
        'Access-Control-Expose-Headers': 'X-TEC-Total, X-TEC-TotalPages',
      },
    };
  }

  const create: Endpoint = {
    methods: ['POST'],
    summary: `Creates a ${type.kind}, or returns its existing duplicate.`,
    args: fieldArgs(true),
    permission: (ctx) => can(ctx.user, 'edit_posts'),
    handler: async (ctx, params) => {
      const env = writeEnv(ctx);
      const input = await sideloaded(readLinkedPostInput(type, params.raw, env), ctx);
      // Rendered inside the transaction: the answer shows what this request stored, not a later write.
      const body = await writeOrFail('create', () =>
        inTransaction(db, async (trx) => {
          const record = await createLinkedPost(trx, type, input, env);
          // Create, update and delete responses are never unlocked by a password (20 §7).
          return render(trx, record, ctx, { jsonLd: false, locked: record.password !== '' });
        }),
      );
      return { status: 201, body };
    },
  };

  /** The input with a sideloaded image's id in place of its URL (110-media §7.2), fetched before the write. */
  async function sideloaded(input: LinkedPostInput, ctx: RestContext): Promise<LinkedPostInput> {
    return input.image === undefined ? input : { ...input, image: await deps.media.imageInput(input.image, ctx.user!.id) };
  }

  /** The parts of the record's entity tag (80 §1.1). */
  async function tagOf(executor: Kysely<Database>, id: number): Promise<RecordTag> {
    return { kind: type.kind === 'venue' ? 'v' : 'o', id, revision: (await readRevision(executor, type.collection, id)) ?? 0 };
  }

  /** 80 §1.3: under the record's row lock, the request's If-Match against its current revision. */
  async function checkLinkedPrecondition(trx: Kysely<Database>, id: number, ctx: RestContext): Promise<void> {
    const revision = await lockedRevision(trx, type.collection, id);
    checkPrecondition(ctx.precondition, { kind: type.kind === 'venue' ? 'v' : 'o', id, revision: revision ?? 0 });
  }

  /** Storage failures of a write get the reference's code (20 §9); refusals pass through. */
  async function writeOrFail<T>(operation: 'create' | 'update' | 'delete', write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (error instanceof RestError) throw error;
      throw new RestError(operation === 'delete' ? 500 : 400, `could-not-${operation}-${type.kind}`);
    }
  }

  const singleEndpoints = (locator: Locator): Endpoint[] => [
    {
      methods: ['GET'],
      summary: `Returns one ${type.kind}.`,
      args: { ...locator.args, ...readArgs },
      handler: async (ctx, params) => {
        const record = await locate(db, locator, params, ctx.now);
        if (!canReadRecord(ctx.user, ownership(record))) throw new RestError(403, errorCode('not-accessible'));
        const body = await render(db, record, ctx, { jsonLd: true, locked: !unlocked(record, ctx, params.raw) });
        const password = revealedPassword({ ...ownership(record), password: record.password }, ctx.user, params.raw.context === 'edit');
        return { body: password === undefined ? body : { ...body, password }, etag: await tagOf(db, record.id) };
      },
    },
    {
      methods: ['POST', 'PUT', 'PATCH'],
      summary: `Updates the fields sent of one ${type.kind}.`,
      args: { ...locator.args, ...fieldArgs(false) },
      permission: async (ctx, params) => canEditRecord(ctx.user, ownership(await locate(db, locator, params, ctx.now))),
      handler: async (ctx, params) => {
        const env = writeEnv(ctx);
        const input = await sideloaded(readLinkedPostInput(type, params.raw, env), ctx);
        let etag: RecordTag | undefined;
        const body = await writeOrFail('update', () =>
          inTransaction(db, async (trx) => {
            const current = await locate(trx, locator, params, ctx.now);
            if (!canEditRecord(ctx.user, ownership(current))) throw forbidden(ctx.user === null);
            await checkLinkedPrecondition(trx, current.id, ctx);
            const record = await updateLinkedPost(trx, type, current, input, env);
            etag = await tagOf(trx, record.id);
            return render(trx, record, ctx, { jsonLd: false, locked: record.password !== '' });
          }),
        );
        return { body, etag };
      },
    },
    {
      methods: ['DELETE'],
      summary: `Moves one ${type.kind} to the trash, or deletes it for good with force=true.`,
      args: {
        ...locator.args,
        force: { type: 'boolean', default: false, description: 'Whether to delete permanently instead of moving to the trash.', extension: true },
        ...readArgs,
      },
      permission: async (ctx, params) => canDeleteRecord(ctx.user, ownership(await locate(db, locator, params, ctx.now))),
      handler: async (ctx, params) => {
        const result = await writeOrFail('delete', () =>
          inTransaction(db, async (trx) => {
            const current = await locate(trx, locator, params, ctx.now);
            if (!canDeleteRecord(ctx.user, ownership(current))) throw forbidden(ctx.user === null);
            if (!params.get<boolean>('force') && current.status === 'trash') throw new RestError(410, errorCode('is-in-trash'));
            await checkLinkedPrecondition(trx, current.id, ctx);
            // The password of a delete unlocks its response (00-conventions: "on reads and deletes").
            const options = { jsonLd: false, locked: !unlocked(current, ctx, params.raw) };
            if (params.get<boolean>('force')) {
              const previous = await render(trx, current, ctx, options);
              await deleteLinkedPost(trx, type, current, ctx.now);
              return { deleted: true, previous };
            }
            return render(trx, await trashLinkedPost(trx, type, current, writeEnv(ctx)), ctx, options);
          }),
        );
        return { body: result };
      },
    },
  ];

  return [
    { pattern: `/${type.collection}`, endpoints: [list, create] },
    { pattern: `/${type.collection}/(?P<id>\\d+)`, endpoints: singleEndpoints(byId) },
    { pattern: `/${type.collection}/by-slug/(?P<slug>[^/]+)`, endpoints: singleEndpoints(bySlug) },
  ];
}
