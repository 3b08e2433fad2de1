import type { Kysely } from 'kysely';
import { canManageCategories, canManageTags, type Principal } from '../../domain/auth/capabilities.ts';
import { canReadTermsOf } from '../../domain/auth/record-permissions.ts';
import { formatWall } from '../../domain/dates/datetime-format.ts';
import { RestError, forbidden, invalidParam } from '../../domain/errors.ts';
import { pageSize, REASONS } from '../../domain/reasons.ts';
import { createTerm, deleteTerm, getTerm, listTerms, termsExist, updateTerm, type TermInput, type TermView } from '../../services/terms-service.ts';
import { eventOwnership } from '../../services/events-service.ts';
import { EventsRepository } from '../../storage/repositories/events-repository.ts';
import { ObjectsRepository } from '../../storage/repositories/objects-repository.ts';
import { TermsRepository } from '../../storage/repositories/terms-repository.ts';
import type { Database, Taxonomy } from '../../storage/schema.ts';
import type { ArgSpec, ArgSpecs } from '../../args/arg-spec.ts';
import { parseList } from '../../args/coerce.ts';
import type { RestContext } from '../rest/context.ts';
import type { RouteDef } from '../rest/endpoint.ts';
import type { Params } from '../../args/validate-args.ts';
import { TERM_COLLECTIONS, isHierarchical, serializeTerm } from '../../render/json/term-serializer.ts';
import type { AppDeps } from './index.ts';
import { requestKey, ResponseCache } from '../rest/cached-response.ts';
import type { Storage } from '../../storage/database.ts';
import { isPositiveInteger, nonEmptyStringRule, positiveInteger, positiveIntegerRule, rule } from '../../args/validators.ts';
import { inTransaction } from '../../storage/transactions.ts';
import { checkPrecondition } from '../../domain/sync/preconditions.ts';
import { lockedRevision, readRevision } from '../../storage/repositories/revisions.ts';

/** Values above this are silently lowered (30 §1.4 `per_page`). */
const MAX_PER_PAGE = 50;

/** What sets the two taxonomies apart; everything else is shared (30 §1). */
interface TaxonomyDef {
  taxonomy: Taxonomy;
  /** English singular used in argument descriptions. */
  noun: string;
  canManage: (principal: Principal | null) => boolean;
}

const CATEGORIES: TaxonomyDef = { taxonomy: 'tribe_events_cat', noun: 'event category', canManage: canManageCategories };
const TAGS: TaxonomyDef = { taxonomy: 'post_tag', noun: 'tag', canManage: canManageTags };

export function categoryRoutes(deps: AppDeps): RouteDef[] {
  return termRoutes(deps.storage, CATEGORIES);
}

export function tagRoutes(deps: AppDeps): RouteDef[] {
  return termRoutes(deps.storage, TAGS);
}



/** JSON null counts as not sent (30 §4.7). */
function isSent(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** The value of a list filter as it goes back into a pagination link. */
function linkValue(value: unknown): string {
  if (Array.isArray(value) || (value !== null && typeof value === 'object')) return parseList(value).map(String).join(',');
  return String(value);
}

function termRoutes(storage: Storage, def: TaxonomyDef): RouteDef[] {
  const db = storage.db;
  const lists = new ResponseCache(storage);
  const { taxonomy, noun } = def;
  const hierarchical = isHierarchical(taxonomy);
  const collection = TERM_COLLECTIONS[taxonomy];
  const letter = taxonomy === 'post_tag' ? 't' : 'c';

  /** 80 §1.3 under the term's row lock; an unknown id is left to the handler's 404. */
  const checkTermPrecondition = async (trx: Kysely<Database>, id: number, ctx: RestContext) => {
    const revision = await lockedRevision(trx, 'terms', id);
    if (revision !== undefined) checkPrecondition(ctx.precondition, { kind: letter, id, revision });
  };

  const existingIn = (of: Taxonomy) =>
    rule(async (value) => {
      const id = positiveInteger(value);
      return id !== undefined && new TermsRepository(db).exists(of, id);
    }, REASONS.unknownTerm);
  const existingTerm = existingIn(taxonomy);
  const existingCategory = existingIn('tribe_events_cat');
  const existingEvent = rule(async (value) => {
    const id = positiveInteger(value);
    return id !== undefined && (await new ObjectsRepository(db).kindOf(id)) === 'event';
  }, REASONS.unknownEvent);
  // Items may name terms by id, slug or name to pass; only ids then select anything (30 §1.4).
  const termList = (description: string): ArgSpec => ({
    description,
    items: { type: 'integer' },
    validate: rule((value) => termsExist(db, taxonomy, parseList(value)), REASONS.unknownTerms),
    sanitize: (value) => parseList(value).map((item) => positiveInteger(typeof item === 'string' ? item.trim() : item) ?? 0),
  });
  const text = (description: string): ArgSpec => ({ description, type: 'string', validate: nonEmptyStringRule });
  const idArg: ArgSpec = { description: `The ${noun} term ID.`, type: 'integer', required: true, validate: existingTerm };
  const parentArg: ArgSpec = { description: 'The parent term ID.', type: 'integer', validate: existingCategory };
  const writeArgs: ArgSpecs = {
    description: text(`The ${noun} description.`),
    slug: text(`The ${noun} slug.`),
    ...(hierarchical ? { parent: parentArg } : {}),
  };

  const listArgs: ArgSpecs = {
    page: { default: 1, description: 'The archive page to return.', type: 'integer', validate: positiveIntegerRule },
    per_page: { default: '10', description: 'The number of terms to return on each page.', type: 'integer', validate: rule(isPositiveInteger, pageSize(MAX_PER_PAGE)) },
    search: text('Limit results to those matching a string.'),
    exclude: termList('Ensure result set excludes specific IDs.'),
    include: termList('Limit result set to specific IDs.'),
    order: text('Order sort attribute ascending or descending.'),
    orderby: text('Sort collection by term attribute.'),
    hide_empty: { default: '1', description: 'Whether to hide terms not assigned to any posts.', type: 'boolean' },
    ...(hierarchical ? { parent: { description: 'Limit result set to terms assigned to a specific parent.', type: 'integer', validate: existingCategory } satisfies ArgSpec } : {}),
    post: { description: 'Limit result set to terms assigned to a specific post.', type: 'integer', validate: existingEvent },
    event: { description: 'Limit result set to terms assigned to a specific event (an alias of the "post" parameter).', type: 'integer', validate: existingEvent },
    slug: text('Limit result set to terms with a specific slug.'),
  };

  const body = (view: TermView, ctx: RestContext, links: boolean) => serializeTerm(view.term, view.ancestors, ctx.urls, { links });
  const permission = (ctx: RestContext) => def.canManage(ctx.user);
  const manager = (ctx: RestContext): Principal => {
    if (!ctx.user) throw forbidden(true);
    return ctx.user;
  };
  const refuseParentOnFlat = (params: Params) => {
    if (!hierarchical && isSent(params.raw.parent)) throw new RestError(400, 'rest_taxonomy_not_hierarchical');
  };
  const input = (params: Params): TermInput => {
    const fields: TermInput = {};
    for (const name of ['name', 'description', 'slug'] as const) if (params.has(name)) fields[name] = params.get<string>(name);
    if (hierarchical && params.has('parent')) fields.parent = params.get<number>('parent');
    return fields;
  };

  return [
    {
      pattern: `/${collection}`,
      endpoints: [
        {
          methods: ['GET'],
          summary: `List ${collection}.`,
          args: listArgs,
          // The terms of an event the caller may not read stay hidden, as in current WordPress.
          permission: async (ctx, params) => {
            const eventId = params.get<number | undefined>('event') ?? params.get<number | undefined>('post');
            if (eventId === undefined) return true;
            const event = await new EventsRepository(db, formatWall(ctx.now)).findById(eventId);
            if (event === undefined || canReadTermsOf(ctx.user, eventOwnership(event))) return true;
            throw new RestError(ctx.user === null ? 401 : 403, 'rest_forbidden_context');
          },
          handler: (ctx, params) => lists.answer(ctx, requestKey(ctx, params), async () => {
            const page = params.get<number>('page');
            const perPage = Math.min(params.get<number>('per_page'), MAX_PER_PAGE);
            const { total, views } = await listTerms(
              db,
              taxonomy,
              {
                page,
                perPage,
                search: params.get('search'),
                include: params.get('include'),
                exclude: params.get('exclude'),
                order: params.get('order'),
                orderby: params.get('orderby'),
                hideEmpty: params.get<boolean>('hide_empty'),
                parent: params.get('parent'),
                eventId: params.get<number | undefined>('event') ?? params.get('post'),
                slug: params.get('slug'),
              },
              ctx.now,
            );
            const totalPages = Math.ceil(total / perPage);
            // Links keep every filter the client sent, so they continue the same list (30 §1.4, S).
            const link = (target: number) =>
              ctx.urls.nsUrl(
                `/${collection}/`,
                Object.keys(listArgs).map((name): [string, string | undefined] => {
                  if (name === 'page') return ['page', target > 1 ? String(target) : undefined];
                  return [name, params.has(name) ? linkValue(params.raw[name]) : undefined];
                }),
              );
            const envelope: Record<string, unknown> = {
              rest_url: ctx.urls.nsUrl(`/${collection}/`),
              total,
              total_pages: totalPages,
              [collection]: views.map((view) => body(view, ctx, false)),
            };
            if (page < totalPages) envelope.next_rest_url = link(page + 1);
            if (page > 1) envelope.previous_rest_url = link(page - 1);
            return { body: envelope, headers: { 'X-TEC-Total': String(total), 'X-TEC-TotalPages': String(totalPages) } };
          }),
        },
        {
          methods: ['POST'],
          summary: `Create a ${noun}.`,
          args: { name: { ...text(`The ${noun} name.`), required: true }, ...writeArgs },
          permission,
          handler: async (ctx, params) => {
            refuseParentOnFlat(params);
            const principal = manager(ctx);
            const fields = { ...input(params), name: params.get<string>('name') };
            const view = await inTransaction(db, (trx) => createTerm(trx, taxonomy, fields, principal, ctx.now));
            return { status: 201, body: body(view, ctx, true), headers: { Location: ctx.urls.nsUrl(`/${collection}/${view.term.id}`) } };
          },
        },
      ],
    },
    {
      pattern: `/${collection}/(?P<id>\\d+)`,
      endpoints: [
        {
          methods: ['GET'],
          summary: `Read one ${noun}.`,
          args: { id: idArg },
          handler: async (ctx, params) => {
            const view = await getTerm(db, taxonomy, params.get<number>('id'), ctx.now);
            if (!view) throw invalidParam('id', REASONS.unknownTerm);
            return { body: body(view, ctx, true) };
          },
        },
        {
          methods: ['POST', 'PUT', 'PATCH'],
          summary: `Update a ${noun}.`,
          // 00-conventions (which wins over 30 §1.7's "SHOULD keep"): an empty description clears it on update.
          args: { id: idArg, name: text(`The ${noun} name.`), ...writeArgs, description: { ...writeArgs.description, validate: rule((value) => typeof value === 'string', REASONS.string) } },
          permission,
          handler: async (ctx, params) => {
            refuseParentOnFlat(params);
            const principal = manager(ctx);
            const id = params.get<number>('id');
            const view = await inTransaction(db, async (trx) => {
              await checkTermPrecondition(trx, id, ctx);
              return updateTerm(trx, taxonomy, id, input(params), principal, ctx.now);
            });
            return { body: body(view, ctx, true), etag: { kind: letter, id, revision: (await readRevision(db, 'terms', id)) ?? 0 } };
          },
        },
        {
          methods: ['DELETE'],
          summary: `Delete a ${noun} for good.`,
          args: { id: idArg },
          permission,
          handler: async (ctx, params) => {
            const id = params.get<number>('id');
            const view = await inTransaction(db, async (trx) => {
              await checkTermPrecondition(trx, id, ctx);
              return deleteTerm(trx, taxonomy, id, ctx.now);
            });
            return { body: body(view, ctx, false) };
          },
        },
      ],
    },
  ];
}
