import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { can } from '../../../domain/auth/capabilities.ts';
import type { Clock } from '../../../domain/dates/clock.ts';
import { RestError } from '../../../domain/errors.ts';
import { EDITION_PREFIXES, LANGUAGES } from '../../../i18n/catalog.ts';
import type { MediaService } from '../../../services/media/media-service.ts';
import { createContext, type RestContext } from '../../rest/context.ts';
import { sendJson } from '../../rest/send.ts';
import { ADMIN_NAMESPACE } from '../../../render/urls.ts';
import { serializeAttachment, serializeMedia } from '../../../render/json/media-serializer.ts';
import { fileTooBig, readUploadRequest } from './upload-request.ts';

export interface UploadRouteDeps {
  media: MediaService;
  basePath: string;
  publicUrl: string | null;
  siteZone: string;
  clock: Clock;
  /** CALENDAR_NAMESPACE_ALIASES: `wp/v2/media` exists in drop-in mode only (110-media §1). */
  dropIn: boolean;
}

/** Room for the multipart envelope around a file of the largest size (§2.1). */
const ENVELOPE_BYTES = 64 * 1024;

interface UploadRoute {
  namespace: string;
  path: string;
  /** The gate's code for users who may not upload (R: `rest_cannot_create` on wp/v2). */
  refusal: string;
  answer: (ctx: RestContext, id: number) => Promise<{ body: unknown; headers: Record<string, string> }>;
}

/**
 * `POST {admin}/media` and, in drop-in mode, `POST {api}/wp/v2/media` (110-media §1, §2): the
 * gate and the size announced by Content-Length are judged before any byte of the body is read;
 * the body limit is CALENDAR_UPLOAD_MAX_BYTES plus the envelope, not CALENDAR_BODY_LIMIT.
 */
export async function registerUploadRoutes(app: FastifyInstance, deps: UploadRouteDeps): Promise<void> {
  const { media } = deps;
  const maxBytes = media.settings.maxBytes;
  const bodyLimit = maxBytes + ENVELOPE_BYTES;
  const routes: UploadRoute[] = [
    {
      namespace: ADMIN_NAMESPACE,
      path: 'media',
      refusal: 'rest_forbidden',
      answer: async (ctx, id) => {
        const row = await media.find(id);
        const url = ctx.urls.nsUrl(`/media/${id}`);
        return { body: serializeMedia(row, undefined, ctx, deps.siteZone), headers: { Location: url } };
      },
    },
    ...(deps.dropIn ? [{
      namespace: 'wp/v2',
      path: 'media',
      refusal: 'rest_cannot_create',
      answer: async (ctx: RestContext, id: number) => ({
        body: serializeAttachment(await media.find(id), ctx, deps.siteZone, true),
        headers: { Location: ctx.urls.nsUrl(`/media/${id}`), 'X-WP-Upload-Attachment-ID': String(id) },
      }),
    }] : []),
  ];
  await app.register(async (scope) => {
    // Uploads read their body themselves: every type is bytes here (multipart keeps its own parser).
    scope.removeContentTypeParser(['application/json', 'application/x-www-form-urlencoded', '*']);
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.setErrorHandler((error: FastifyError, _request, _reply) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.code === 'FST_REQ_FILE_TOO_LARGE' || error.statusCode === 413 && !(error instanceof RestError)) throw fileTooBig();
      throw error;
    });
    for (const route of routes) {
      for (const lang of LANGUAGES) {
        const context = (request: FastifyRequest) =>
          createContext(request, { publicUrl: deps.publicUrl, basePath: deps.basePath, now: deps.clock(), namespace: route.namespace });
        scope.post(`${deps.basePath}${EDITION_PREFIXES[lang]}/${route.namespace}/${route.path}`, {
          bodyLimit,
          config: { readsFiles: true },
          // The gate before the body (§1.1): a visitor's or contributor's bytes are never read.
          preParsing: async (request) => {
            if (!can(request.user, 'upload_files')) throw new RestError(request.user === null ? 401 : 403, route.refusal);
            const announced = Number(request.headers['content-length'] ?? 0);
            if (announced > bodyLimit) throw fileTooBig();
          },
        }, async (request, reply) => {
          const ctx = context(request);
          const upload = await readUploadRequest(request, maxBytes);
          const abandoned = new AbortController();
          const leave = () => abandoned.abort();
          request.raw.socket.once('close', leave);
          try {
            const row = await media.upload({ ...upload, author: ctx.user!.id, abandoned: abandoned.signal });
            const { body, headers } = await route.answer(ctx, row.id);
            return sendJson(request, reply, 201, body, headers);
          } finally {
            request.raw.socket.off('close', leave);
          }
        });
      }
    }
  });
}
