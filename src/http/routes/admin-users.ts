import { can, ROLES, type Role } from '../../domain/auth/capabilities.ts';
import { RestError } from '../../domain/errors.ts';
import type { User } from '../../domain/users/user.ts';
import type { NamespaceDef, RouteDef } from '../rest/endpoint.ts';
import { ADMIN_NAMESPACE } from '../../render/urls.ts';
import { ADMIN_FILE_ROUTES } from '../openapi/admin-file-routes.ts';
import { docRoute } from './doc.ts';
import { issueSignInLink, peopleRoutes, type PeopleDeps } from './admin-people.ts';
import { appPasswordRoutes, userBody, userIdArg } from './app-password-routes.ts';

const ADMIN_INFO = {
  title: 'Calendar Administration REST API',
  description: 'Users, application passwords, sessions, webhooks, media, imports and exports of the calendar, for administrators.',
};

/**
 * User management for administrators (00-conventions), under `{base}/calendar/admin/v1`, followed
 * by the namespace's other routes (webhooks, 80 §4.1).
 */
export function adminNamespace(people: PeopleDeps, otherRoutes: RouteDef[] = []): NamespaceDef {
  const { users } = people;
  const isAdmin = (ctx: { user: User | null }) => can(ctx.user, 'create_users');
  const def: NamespaceDef = { namespace: ADMIN_NAMESPACE, routes: [] };
  def.routes.push(
    docRoute(def, ADMIN_INFO, ADMIN_FILE_ROUTES),
      {
        pattern: '/users',
        endpoints: [
          {
            methods: ['GET'],
            args: {},
            permission: isAdmin,
            handler: async () => ({ body: (await users.list()).map(userBody) }),
          },
          {
            methods: ['POST'],
            args: {
              login: { type: 'string', required: true, description: 'Login name for the user.' },
              role: { type: 'string', enum: ROLES, required: true, description: 'Role of the user.' },
              email: { type: 'string', description: 'The email address for the user.' },
              application_password: { type: 'boolean', default: true, extension: true, description: 'Whether to create a first application password (shown once in the answer).' },
              invite: { type: 'boolean', default: false, extension: true, description: 'Whether to create a one-time sign-in link for the back office (7 days), answered as invitation_url.' },
            },
            permission: isAdmin,
            handler: async (ctx, params) => {
              const withPassword = params.get<boolean>('application_password');
              const { user, password } = await users.createUser(
                { login: params.get('login'), role: params.get('role'), email: params.get<string | undefined>('email') },
                withPassword,
              );
              const invitation = params.get<boolean>('invite') ? await issueSignInLink(people, ctx, user.id, false) : undefined;
              return {
                status: 201,
                body: {
                  ...userBody(user),
                  ...(password === undefined ? {} : { application_password: password }),
                  ...(invitation === undefined ? {} : { invitation_url: invitation.url, invitation_expires: invitation.expires }),
                },
              };
            },
          },
        ],
      },
      {
        pattern: '/users/(?P<id>\\d+)',
        endpoints: [
          {
            methods: ['GET'],
            args: { id: userIdArg },
            permission: isAdmin,
            handler: async (_ctx, params) => ({ body: userBody(await users.get(params.get('id'))) }),
          },
          {
            methods: ['PATCH'],
            summary: 'Changes the role or e-mail address of a user; the last administrator keeps the role.',
            args: {
              id: userIdArg,
              role: { type: 'string', enum: ROLES, extension: true, description: 'Role of the user.' },
              email: { type: 'string', extension: true, description: 'The email address for the user.' },
            },
            permission: isAdmin,
            handler: async (_ctx, params) => ({
              body: userBody(await users.update(params.get('id'), { role: params.get<Role | undefined>('role'), email: params.get<string | undefined>('email') })),
            }),
          },
          {
            methods: ['DELETE'],
            args: { id: userIdArg },
            permission: isAdmin,
            handler: async (_ctx, params) => ({ body: { deleted: true, previous: userBody(await users.delete(params.get('id'))) } }),
          },
        ],
      },
    ...appPasswordRoutes(users, {
      prefix: '/users/(?P<id>\\d+)',
      args: { id: userIdArg },
      permission: isAdmin,
      ownerId: (_ctx, params) => params.get('id'),
      summaries: { list: 'The application passwords of a user: names and dates, never a secret.', revoke: 'Revokes an application password.' },
    }),
      {
        pattern: '/me',
        endpoints: [
          {
            methods: ['GET'],
            args: {},
            handler: (ctx) => {
              if (!ctx.user) throw new RestError(401, 'rest_not_logged_in');
              return { body: userBody(ctx.user) };
            },
          },
        ],
      },
    ...peopleRoutes(people),
    ...otherRoutes,
  );
  return def;
}
