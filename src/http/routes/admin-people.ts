import { can } from '../../domain/auth/capabilities.ts';
import { RestError } from '../../domain/errors.ts';
import type { User } from '../../domain/users/user.ts';
import type { ArgSpec } from '../../args/arg-spec.ts';
import type { SessionsService } from '../../services/signin/sessions-service.ts';
import type { SigninService } from '../../services/signin/signin-service.ts';
import type { UsersService } from '../../services/users-service.ts';
import type { SessionRow } from '../../storage/repositories/sessions-repository.ts';
import type { RestContext } from '../rest/context.ts';
import type { RouteDef } from '../rest/endpoint.ts';
import { signinServices } from '../../services/signin/signin-services.ts';
import type { AppDeps } from './index.ts';
import { appPasswordRoutes, sessionCaller, userIdArg } from './app-password-routes.ts';

export interface PeopleDeps {
  users: UsersService;
  sessions: SessionsService;
  signin: SigninService;
}

/** The services of these routes, built like the back office's own. */
export function peopleDeps(deps: Pick<AppDeps, 'users' | 'storage' | 'clock' | 'config'>): PeopleDeps {
  return { users: deps.users, ...signinServices(deps) };
}

const sessionIdArg: ArgSpec = { type: 'integer', required: true, description: 'Unique identifier for the session.' };

function isoUtc(stored: string): string {
  return `${stored.replace(' ', 'T')}Z`;
}

/** A session as listed (100 §10): never its token. */
function sessionBody(row: SessionRow, currentId: number | null): Record<string, unknown> {
  return {
    id: row.id,
    created: isoUtc(row.created_utc),
    last_seen: isoUtc(row.last_seen_utc),
    expires: isoUtc(row.expires_utc),
    remember: row.remember === 1,
    user_agent: row.user_agent,
    ip: row.ip,
    ...(currentId === null ? {} : { current: row.id === currentId }),
  };
}

/** `{origin}{base}{edition}/admin/invite/{token}`: the one-time link's page (100 §3.4). */
export function signInLinkUrl(ctx: RestContext, token: string): string {
  return `${ctx.urls.edition}/admin/invite/${token}`;
}

/**
 * A one-time sign-in link for a user (100 §3.4, §10): `reset` first clears the sign-in password
 * and ends every session. The URL is in this answer only; only its hash is stored.
 */
export async function issueSignInLink(deps: PeopleDeps, ctx: RestContext, userId: number, reset: boolean): Promise<{ url: string; expires: string }> {
  if (reset) {
    await deps.signin.clearPassword(userId);
    await deps.sessions.revokeAllOf(userId);
  }
  const { token, expires } = await deps.signin.createLink(userId, reset ? 'reset' : 'invite');
  return { url: signInLinkUrl(ctx, token), expires: expires.toISOString().slice(0, 19) + 'Z' };
}

async function revokeSession(deps: PeopleDeps, userId: number, sessionId: number): Promise<number> {
  const own = (await deps.sessions.listOf(userId)).some((row) => row.id === sessionId);
  if (!own) throw new RestError(404, 'rest_session_not_found');
  await deps.sessions.revoke(sessionId);
  return 1;
}

/**
 * 100 §10's admin API additions on sessions and links, and the `/me` credential routes. The `/me`
 * ones answer only a back office session with its nonce (⚠ 100 §16 #4): an application password
 * cannot mint others or end sessions.
 */
export function peopleRoutes(deps: PeopleDeps): RouteDef[] {
  const isAdmin = (ctx: { user: User | null }) => can(ctx.user, 'create_users');
  return [
    {
      pattern: '/users/(?P<id>\\d+)/sessions',
      endpoints: [
        {
          methods: ['GET'],
          summary: 'The back office sessions of a user.',
          args: { id: userIdArg },
          permission: isAdmin,
          handler: async (_ctx, params) => {
            const user = await deps.users.get(params.get('id'));
            return { body: (await deps.sessions.listOf(user.id)).map((row) => sessionBody(row, null)) };
          },
        },
        {
          methods: ['DELETE'],
          summary: 'Ends every back office session of a user.',
          args: { id: userIdArg },
          permission: isAdmin,
          handler: async (_ctx, params) => {
            const user = await deps.users.get(params.get('id'));
            return { body: { revoked: await deps.sessions.revokeAllOf(user.id) } };
          },
        },
      ],
    },
    {
      pattern: '/users/(?P<id>\\d+)/sessions/(?P<sid>\\d+)',
      endpoints: [
        {
          methods: ['DELETE'],
          summary: 'Ends one back office session of a user.',
          args: { id: userIdArg, sid: sessionIdArg },
          permission: isAdmin,
          handler: async (_ctx, params) => {
            const user = await deps.users.get(params.get('id'));
            return { body: { revoked: await revokeSession(deps, user.id, params.get('sid')) } };
          },
        },
      ],
    },
    {
      pattern: '/users/(?P<id>\\d+)/sign-in-link',
      endpoints: [
        {
          methods: ['POST'],
          summary: 'A one-time sign-in link (7 days); reset clears the sign-in password and ends the sessions first.',
          args: { id: userIdArg, reset: { type: 'boolean', default: false, extension: true, description: 'Clear the sign-in password and end every session first.' } },
          permission: isAdmin,
          handler: async (ctx, params) => {
            const user = await deps.users.get(params.get('id'));
            return { status: 201, body: await issueSignInLink(deps, ctx, user.id, params.get('reset')) };
          },
        },
      ],
    },
    ...appPasswordRoutes(deps.users, {
      prefix: '/me',
      args: {},
      ownerId: (ctx) => sessionCaller(ctx).user.id,
      summaries: {
        list: 'Your application passwords (back office session and nonce only).',
        create: 'A new application password for yourself, shown once (back office session and nonce only).',
        revoke: 'Revokes one of your application passwords (back office session and nonce only).',
      },
    }),
    {
      pattern: '/me/sessions',
      endpoints: [
        {
          methods: ['GET'],
          summary: 'Your back office sessions; current marks the one of this request.',
          args: {},
          handler: async (ctx) => {
            const { user, session } = sessionCaller(ctx);
            return { body: (await deps.sessions.listOf(user.id)).map((row) => sessionBody(row, session)) };
          },
        },
        {
          methods: ['DELETE'],
          summary: 'Ends your other back office sessions (this one stays).',
          args: {},
          handler: async (ctx) => {
            const { user, session } = sessionCaller(ctx);
            return { body: { revoked: await deps.sessions.revokeAllOf(user.id, session) } };
          },
        },
      ],
    },
    {
      pattern: '/me/sessions/(?P<sid>\\d+)',
      endpoints: [
        {
          methods: ['DELETE'],
          summary: 'Ends one of your back office sessions.',
          args: { sid: sessionIdArg },
          handler: async (ctx, params) => ({ body: { revoked: await revokeSession(deps, sessionCaller(ctx).user.id, params.get('sid')) } }),
        },
      ],
    },
  ];
}
