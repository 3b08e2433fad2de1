import type { FastifyInstance } from 'fastify';
import { RestError } from '../../../domain/errors.ts';
import { UPLOAD_PATH } from '../../../domain/media/formats.ts';
import type { MediaService } from '../../../services/media/media-service.ts';


/**
 * `GET|HEAD {base}/uploads/{path}` (110-media §5.2): the stored bytes, the same from both
 * backends, cacheable forever (a path never names other bytes) and inert in a browser. Each
 * request asks the database whether the path is live, so a deleted item is gone on every
 * instance from the next request on.
 */
export function registerUploadsServing(app: FastifyInstance, media: MediaService, basePath: string): void {
  app.route({
    method: ['GET', 'HEAD'],
    url: `${basePath}/uploads/*`,
    config: { publicFile: true },
    handler: async (request, reply) => {
      const path = (request.params as { '*': string })['*'];
      const stored = UPLOAD_PATH.test(path) ? await media.file(path) : undefined;
      if (stored === undefined) throw new RestError(404, 'rest_no_route');
      const etag = `"${stored.issued.sha256.slice(0, 32)}"`;
      reply.headers({
        'Content-Type': stored.issued.mimeType,
        'Cache-Control': 'public, max-age=31536000, immutable',
        ETag: etag,
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
        'Cross-Origin-Resource-Policy': 'cross-origin',
        'Content-Disposition': `inline; filename="${path.slice(path.lastIndexOf('/') + 1)}"`,
        'Accept-Ranges': 'none',
      });
      if (request.headers['if-none-match']?.split(',').some((tag) => tag.trim() === etag)) return reply.code(304).send();
      return reply.code(200).send(stored.bytes);
    },
  });
  app.route({
    method: ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: `${basePath}/uploads/*`,
    handler: async (_request, reply) => reply.code(405).header('Allow', 'GET, HEAD').send(),
  });
}
