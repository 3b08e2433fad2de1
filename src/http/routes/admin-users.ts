import { can, ROLES } from '../../domain/auth/capabilities.ts';
import { RestError } from '../../domain/errors.ts';
import type { User } from '../../domain/users/user.ts';
import type { UsersService } from '../../services/users-service.ts';
import type { ArgSpec } from '../../args/arg-spec.ts';
import type { NamespaceDef, RouteDef } from '../rest/endpoint.ts';
import { ADMIN_NAMESPACE } from '../../render/urls.ts';

function userBody(user: User): Record<string, unknown> {
  return { id: user.id, login: user.login, role: user.role, email: user.email };
}

const idArg: ArgSpec = { type: 'integer', required: true, description: 'Unique identifier for the user.' };

/**
 * User management for administrators (00-conventions), under `{base}/calendar/admin/v1`, followed
 * by the namespace's other routes (webhooks, 80 §4.1).
 */
export function adminNamespace(users: UsersService, otherRoutes: RouteDef[] = []): NamespaceDef {
  const isAdmin = (ctx: { user: User | null }) => can(ctx.user, 'create_users');
  return {
    namespace: ADMIN_NAMESPACE,
    routes: [
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
            },
            permission: isAdmin,
            handler: async (_ctx, params) => {
              const { user, password } = await users.create({
                login: params.get('login'),
                role: params.get('role'),
                email: params.get<string | undefined>('email'),
              });
              return { status: 201, body: { ...userBody(user), application_password: password } };
            },
          },
        ],
      },
      {
        pattern: '/users/(?P<id>\\d+)',
        endpoints: [
          {
            methods: ['GET'],
            args: { id: idArg },
            permission: isAdmin,
            handler: async (_ctx, params) => ({ body: userBody(await users.get(params.get('id'))) }),
          },
          {
            methods: ['DELETE'],
            args: { id: idArg },
            permission: isAdmin,
            handler: async (_ctx, params) => ({ body: { deleted: true, previous: userBody(await users.delete(params.get('id'))) } }),
          },
        ],
      },
      {
        pattern: '/users/(?P<id>\\d+)/application-passwords',
        endpoints: [
          {
            methods: ['POST'],
            args: { id: idArg },
            permission: isAdmin,
            handler: async (_ctx, params) => {
              const { user, password } = await users.newPassword(params.get('id'));
              return { status: 201, body: { ...userBody(user), application_password: password } };
            },
          },
        ],
      },
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
      ...otherRoutes,
    ],
  };
}
