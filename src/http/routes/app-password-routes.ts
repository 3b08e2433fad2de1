import { RestError } from '../../domain/errors.ts';
import type { User } from '../../domain/users/user.ts';
import type { ArgSpec, ArgSpecs } from '../../args/arg-spec.ts';
import type { Params } from '../../args/validate-args.ts';
import type { UsersService } from '../../services/users-service.ts';
import type { RestContext } from '../rest/context.ts';
import type { Endpoint, RouteDef } from '../rest/endpoint.ts';

export const userIdArg: ArgSpec = { type: 'integer', required: true, description: 'Unique identifier for the user.' };
const passwordIdArg: ArgSpec = { type: 'integer', required: true, description: 'Unique identifier for the application password.' };
const passwordNameArg: ArgSpec = { type: 'string', default: '', extension: true, description: 'A name telling this application password apart from the others.' };

/** A user as the admin API answers it. */
export function userBody(user: User): Record<string, unknown> {
  return { id: user.id, login: user.login, role: user.role, email: user.email };
}

/**
 * The caller of a `/me` credential route: a back office session with its nonce only (⚠ 100 §16 #4),
 * so an application password cannot mint others or end sessions.
 */
export function sessionCaller(ctx: RestContext): { user: User; session: number } {
  if (!ctx.user) throw new RestError(401, 'rest_not_logged_in');
  const session = ctx.sessionId;
  if (session === undefined) throw new RestError(403, 'rest_cookie_auth_required');
  return { user: ctx.user, session };
}

/** Whose application passwords a set of routes manages: a user's by id, or the caller's own. */
export interface PasswordOwner {
  /** The route prefix, `/users/(?P<id>\d+)` or `/me`. */
  prefix: string;
  /** The prefix's own arguments. */
  args: ArgSpecs;
  permission?: Endpoint['permission'];
  ownerId: (ctx: RestContext, params: Params) => number;
  summaries: { list: string; create?: string; revoke: string };
}

/** List, create (the secret shown once in the 201) and revoke application passwords (100 §10). */
export function appPasswordRoutes(users: UsersService, owner: PasswordOwner): RouteDef[] {
  const gate = (summary: string | undefined) => ({ ...(summary === undefined ? {} : { summary }), ...(owner.permission ? { permission: owner.permission } : {}) });
  return [
    {
      pattern: `${owner.prefix}/application-passwords`,
      endpoints: [
        {
          methods: ['GET'],
          ...gate(owner.summaries.list),
          args: owner.args,
          handler: async (ctx, params) => ({ body: await users.listPasswords(owner.ownerId(ctx, params)) }),
        },
        {
          methods: ['POST'],
          ...gate(owner.summaries.create),
          args: { ...owner.args, name: passwordNameArg },
          handler: async (ctx, params) => {
            const { user, password } = await users.newPassword(owner.ownerId(ctx, params), params.get('name'));
            return { status: 201, body: { ...userBody(user), application_password: password } };
          },
        },
      ],
    },
    {
      pattern: `${owner.prefix}/application-passwords/(?P<pid>\\d+)`,
      endpoints: [
        {
          methods: ['DELETE'],
          ...gate(owner.summaries.revoke),
          args: { ...owner.args, pid: passwordIdArg },
          handler: async (ctx, params) => {
            await users.deletePassword(owner.ownerId(ctx, params), params.get('pid'));
            return { body: { deleted: true } };
          },
        },
      ],
    },
  ];
}
