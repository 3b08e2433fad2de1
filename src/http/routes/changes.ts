import { can } from '../../domain/auth/capabilities.ts';
import { invalidParam, RestError } from '../../domain/errors.ts';
import { REASONS, oneOf, someOf } from '../../domain/reasons.ts';
import { formatWall } from '../../domain/dates/datetime-format.ts';
import { decodeCursor, encodeCursor } from '../../domain/sync/cursor.ts';
import type { User } from '../../domain/users/user.ts';
import {
  comparePositions,
  FEED_START,
  headPosition,
  listChangesAfter,
  readFeedMeta,
  type ChangeEntry,
  type FeedPosition,
} from '../../storage/repositories/changes-repository.ts';
import { readAccessEpoch } from '../../storage/repositories/users-repository.ts';
import type { ChangeKind } from '../../storage/schema.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.ts';
import type { RouteDef } from '../rest/endpoint.ts';
import type { RestContext } from '../rest/context.ts';
import { isPositiveInteger, rule } from '../../args/validators.ts';
import type { AppDeps } from './index.ts';

const KINDS: readonly ChangeKind[] = ['event', 'venue', 'organizer', 'category', 'tag'];
const LIMIT_DEFAULT = 100;
const LIMIT_MAX = 500;
const PATHS: Record<ChangeKind, string> = { event: 'events', venue: 'venues', organizer: 'organizers', category: 'categories', tag: 'tags' };

/** `types` as a comma list or an array of kinds, or null when one is unknown or none is given. */
function parseTypes(value: unknown): ChangeKind[] | null {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : null;
  if (items === null) return null;
  const kinds = items.map((item) => (typeof item === 'string' ? item.trim() : item));
  if (kinds.length === 0 || !kinds.every((kind) => (KINDS as readonly unknown[]).includes(kind))) return null;
  return [...new Set(kinds as ChangeKind[])];
}

/** Whose cursor this is: the principal and the access epoch it was issued for (80 §3.5). */
async function principalOf(db: Kysely<Database>, user: User | null): Promise<{ principal: number; accessEpoch: number }> {
  if (user === null) return { principal: 0, accessEpoch: 0 };
  return { principal: user.id, accessEpoch: await readAccessEpoch(db, user.id) };
}

function expired(reason: 'expired' | 'reset' | 'access-changed'): RestError {
  return new RestError(410, 'changes-cursor-expired', { vars: { reason }, data: { reason } });
}

/**
 * `GET|HEAD {ns}/changes` (80 §3): the change log as this caller may see it — entries whose record
 * was visible to the caller before or after the write, each with what the caller must do with its
 * copy. Everything it needs is in the database; any instance answers any cursor.
 */
export function changesRoute(deps: AppDeps): RouteDef {
  const db = deps.storage.db;
  return {
    pattern: '/changes',
    endpoints: [
      {
        methods: ['GET'],
        summary: 'The change feed: what changed since a cursor, as the caller may see it.',
        args: {
          cursor: { type: 'string', extension: true, description: 'Opaque position returned as next_cursor or an entry cursor.', validate: rule((value) => typeof value === 'string' && decodeCursor(value) !== null, REASONS.cursor) },
          start: {
            type: 'string', enum: ['now', 'earliest'], extension: true, description: 'Without cursor: now (an empty page and the current position) or earliest (all retained history).',
            validate: (value, _ctx, raw) => (raw.cursor !== undefined ? { reason: REASONS.cursorWithStart } : value === 'now' || value === 'earliest' ? true : { reason: oneOf(['now', 'earliest']) }),
          },
          limit: { type: 'integer', default: LIMIT_DEFAULT, extension: true, description: `The most entries in one page (values above ${LIMIT_MAX} are lowered to it).`, validate: rule(isPositiveInteger, REASONS.positiveInteger) },
          types: { type: 'array', items: { type: 'string', enum: KINDS }, extension: true, description: 'Only entries of these record types.', sanitize: (value) => parseTypes(value), validate: rule((value) => parseTypes(value) !== null, someOf(KINDS)) },
        },
        handler: async (ctx, params) => {
          const meta = await readFeedMeta(db);
          const caller = await principalOf(db, ctx.user);
          let from: FeedPosition;
          const text = params.get<string | undefined>('cursor');
          if (text !== undefined) {
            const cursor = decodeCursor(text)!;
            if (cursor.epoch !== meta.epoch) throw expired('reset');
            if (cursor.principal !== caller.principal || cursor.accessEpoch !== caller.accessEpoch) throw expired('access-changed');
            from = { txid: cursor.txid, seq: cursor.seq };
            if (comparePositions(from, meta.oldest) < 0) throw expired('expired');
            if (comparePositions(from, await headPosition(db)) > 0) throw expired('reset');
          } else if (params.get<string | undefined>('start') === 'earliest') {
            from = comparePositions(meta.oldest, FEED_START) > 0 ? meta.oldest : FEED_START;
          } else {
            from = await headPosition(db);
          }
          const limit = Math.min(Number(params.get('limit')), LIMIT_MAX);
          const types = params.get<ChangeKind[] | undefined>('types');
          const startNow = text === undefined && params.get<string | undefined>('start') !== 'earliest';
          const page = startNow
            ? { entries: [], next: from, hasMore: false }
            : await listChangesAfter(db, from, limit, { seesUnpublished: can(ctx.user, 'edit_posts'), nowUtc: formatWall(ctx.now), types });
          const cursorAt = (position: FeedPosition) => encodeCursor({ epoch: meta.epoch, ...position, ...caller });
          const next = cursorAt(page.next);
          const query = (cursor: string | undefined): [string, string | number | undefined][] => [
            ['cursor', cursor],
            ['limit', params.has('limit') ? limit : undefined],
            ['types', types?.join(',')],
          ];
          return {
            body: {
              changes: page.entries.map((entry) => entryJson(ctx, entry, cursorAt(entry.position))),
              next_cursor: next,
              has_more: page.hasMore,
              rest_url: ctx.urls.nsUrl('/changes', text === undefined ? [['start', params.get<string | undefined>('start')], ...query(undefined).slice(1)] : query(text)),
              ...(page.hasMore ? { next_rest_url: ctx.urls.nsUrl('/changes', query(next)) } : {}),
            },
          };
        },
      },
    ],
  };
}

function entryJson(ctx: RestContext, entry: ChangeEntry, cursor: string): Record<string, unknown> {
  return {
    type: entry.kind,
    id: entry.record_id,
    op: entry.op,
    effect: entry.effect,
    at: entry.at,
    rest_url: ctx.urls.nsUrl(`/${PATHS[entry.kind]}/${entry.record_id}`),
    cursor,
    ...(entry.post_parent !== 0 ? { post_parent: entry.post_parent } : {}),
  };
}
