import { capabilitiesOf } from '../../../domain/auth/capabilities.ts';
import { RestError } from '../../../domain/errors.ts';
import { mayEditMedia } from '../../../domain/media/permissions.ts';
import { slugify } from '../../../domain/text/slug.ts';
import type { MediaService } from '../../../services/media/media-service.ts';
import type { ArgSpec } from '../../../args/arg-spec.ts';
import type { NamespaceDef } from '../../rest/endpoint.ts';
import { serializeAttachment } from '../../../render/json/media-serializer.ts';

export const WORDPRESS_NAMESPACE = 'wp/v2';

const contextArg: ArgSpec = { type: 'string', enum: ['view', 'edit'], default: 'view', description: 'Scope under which the request is made; determines fields present in response.' };

/**
 * WordPress core's routes a publishing client needs before it sets an event's image (110-media
 * §8): reading an attachment (the upload is registered with the other upload route) and
 * `users/me`. Drop-in mode only.
 */
export function wordpressNamespace(media: MediaService, siteZone: string): NamespaceDef {
  return {
    namespace: WORDPRESS_NAMESPACE,
    routes: [
      {
        pattern: '/media/(?P<id>\\d+)',
        endpoints: [
          {
            methods: ['GET'],
            summary: 'Read an attachment.',
            args: { id: { type: 'integer', required: true, description: 'Unique identifier for the post.' }, context: contextArg },
            handler: async (ctx, params) => {
              const row = await media.find(params.get('id'));
              const edit = params.get('context') === 'edit';
              if (edit && !mayEditMedia(ctx.user, row.author)) throw new RestError(ctx.user === null ? 401 : 403, 'rest_forbidden_context', { messageKey: 'media_forbidden_context' });
              return { body: serializeAttachment(row, ctx, siteZone, edit) };
            },
          },
        ],
      },
      {
        pattern: '/users/me',
        endpoints: [
          {
            methods: ['GET'],
            summary: 'Read the current user.',
            args: { context: contextArg },
            handler: (ctx, params) => {
              const user = ctx.user;
              if (!user) throw new RestError(401, 'rest_not_logged_in');
              const body: Record<string, unknown> = { id: user.id, name: user.login, url: '', description: '', slug: slugify(user.login) };
              if (params.get('context') === 'edit') {
                body.username = user.login;
                body.email = user.email ?? '';
                body.roles = [user.role];
                body.capabilities = Object.fromEntries([...capabilitiesOf(user.role), user.role].map((name) => [name, true]));
              }
              return { body };
            },
          },
        ],
      },
    ],
  };
}

