import { can } from '../../../domain/auth/capabilities.ts';
import { forbidden, RestError } from '../../../domain/errors.ts';
import { mayEditMedia } from '../../../domain/media/permissions.ts';
import { tooLarge } from '../../../domain/reasons.ts';
import type { MediaService } from '../../../services/media/media-service.ts';
import { MediaRepository } from '../../../storage/repositories/media-repository.ts';
import type { ArgSpec, ArgSpecs } from '../../../args/arg-spec.ts';
import type { RestContext } from '../../rest/context.ts';
import type { RouteDef } from '../../rest/endpoint.ts';
import { rule } from '../../../args/validators.ts';
import { serializeMedia } from '../../../render/json/media-serializer.ts';

const MAX_PER_PAGE = 100;

const idArg: ArgSpec = { type: 'integer', required: true, description: 'Unique identifier for the media item.' };

const textArg = (description: string, max: number): ArgSpec => ({
  type: 'string',
  description,
  validate: rule((value) => typeof value === 'string' && [...value].length <= max, tooLarge(max)),
});

const listArgs: ArgSpecs = {
  page: { type: 'integer', minimum: 1, default: 1, description: 'Current page of the collection.' },
  per_page: { type: 'integer', minimum: 1, default: 10, description: 'Maximum number of items to be returned in result set.' },
  search: { type: 'string', description: 'Limit results to those matching a string.' },
  author: { type: 'integer', description: 'Limit result set to items of this author.' },
  source: { type: 'string', enum: ['upload', 'sideload', 'url'], description: 'Limit result set to items of this source.' },
  mime_type: { type: 'string', description: 'Limit result set to items of this media type.' },
  orderby: { type: 'string', enum: ['date', 'id', 'title'], default: 'date', description: 'Sort collection by attribute.' },
  order: { type: 'string', enum: ['desc', 'asc'], default: 'desc', description: 'Order sort attribute ascending or descending.' },
};

const updateArgs: ArgSpecs = {
  id: idArg,
  title: textArg('The title of the media item.', 200),
  alt_text: textArg('Alternative text to display when the image is not displayed.', 1000),
};

const uploader = (ctx: RestContext) => can(ctx.user, 'upload_files');

/** The `{admin}/media` routes besides the upload (110-media §6.2), for callers who may upload. */
export function mediaRoutes(media: MediaService, siteZone: string): RouteDef[] {
  const body = async (ctx: RestContext, id: number) => {
    const row = await media.find(id);
    const usedBy = await new MediaRepository(media.db).usedBy([id]);
    return serializeMedia(row, usedBy.get(id), ctx, siteZone);
  };
  /** The item, once the caller may edit it: 404 for an unknown id before the 403 of others' items. */
  const editable = async (ctx: RestContext, id: number) => {
    if (!uploader(ctx)) throw forbidden(ctx.user === null);
    const row = await media.find(id);
    if (!mayEditMedia(ctx.user, row.author)) throw forbidden(false);
    return row;
  };
  return [
    {
      pattern: '/media',
      endpoints: [
        {
          methods: ['GET'],
          summary: 'List media items.',
          args: listArgs,
          permission: uploader,
          handler: async (ctx, params) => {
            const page = params.get<number>('page');
            const perPage = Math.min(params.get<number>('per_page'), MAX_PER_PAGE);
            const repository = new MediaRepository(media.db);
            const { rows, total } = await repository.list({
              page,
              perPage,
              search: params.get('search'),
              author: params.get('author'),
              source: params.get('source'),
              mimeType: params.get('mime_type'),
              orderby: params.get('orderby'),
              order: params.get('order'),
            });
            const totalPages = Math.ceil(total / perPage);
            if (page > 1 && page > totalPages) throw new RestError(404, 'media-archive-page-not-found');
            const usedBy = await repository.usedBy(rows.map((row) => row.id));
            const link = (target: number) => ctx.urls.nsUrl('/media', [
              ...Object.keys(listArgs).filter((name) => name !== 'page' && params.has(name)).map((name): [string, string] => [name, String(params.raw[name])]),
              ['page', target > 1 ? String(target) : undefined],
            ]);
            const envelope: Record<string, unknown> = {
              media: rows.map((row) => serializeMedia(row, usedBy.get(row.id), ctx, siteZone)),
              rest_url: ctx.urls.nsUrl('/media'),
            };
            if (page < totalPages) envelope.next_rest_url = link(page + 1);
            if (page > 1) envelope.previous_rest_url = link(page - 1);
            envelope.total = total;
            envelope.total_pages = totalPages;
            return { body: envelope, headers: { 'X-TEC-Total': String(total), 'X-TEC-TotalPages': String(totalPages) } };
          },
        },
      ],
    },
    {
      pattern: '/media/(?P<id>\\d+)',
      endpoints: [
        {
          methods: ['GET'],
          summary: 'Read a media item.',
          args: { id: idArg },
          permission: uploader,
          handler: async (ctx, params) => ({ body: await body(ctx, params.get('id')) }),
        },
        {
          methods: ['POST', 'PUT', 'PATCH'],
          summary: 'Update the title or alternative text of a media item.',
          args: updateArgs,
          handler: async (ctx, params) => {
            const id = params.get<number>('id');
            await editable(ctx, id);
            await media.update(id, { title: params.get('title'), altText: params.get('alt_text') });
            return { body: await body(ctx, id) };
          },
        },
        {
          methods: ['DELETE'],
          summary: 'Delete a media item permanently, and unset it as the image of every record using it.',
          args: { id: idArg, force: { type: 'boolean', description: 'Accepted and ignored: media items skip the trash.' } },
          handler: async (ctx, params) => {
            const id = params.get<number>('id');
            await editable(ctx, id);
            const previous = await body(ctx, id);
            await media.delete(id);
            return { body: { deleted: true, previous } };
          },
        },
      ],
    },
  ];
}
