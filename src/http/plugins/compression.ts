import type { FastifyInstance } from 'fastify';
import { chosenEncoding, compress, compressibleType, varyingByEncoding } from '../compression.ts';

/**
 * Text answers compressed for clients that accept it (`compression.ts`): registered after the
 * replay's recording, which keeps the body as it is and compresses its replays itself. A body
 * that cannot be compressed leaves as it is.
 */
export function registerCompression(app: FastifyInstance): void {
  // A callback hook: an answer left as it is costs no promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    // A 304 names what its 200 would vary with (RFC 9110 §15.4.5); it has no type to judge by.
    if (reply.statusCode === 304) reply.header('Vary', varyingByEncoding(reply.getHeader('vary')));
    if ((typeof payload !== 'string' && !Buffer.isBuffer(payload)) || !compressibleType(reply.getHeader('content-type'), reply.getHeader('cache-control'), reply.getHeader('content-encoding'))) {
      return done(null, payload);
    }
    reply.header('Vary', varyingByEncoding(reply.getHeader('vary')));
    // HEAD: its body is dropped, so nothing is compressed for it.
    const encoding = request.method === 'HEAD' ? undefined : chosenEncoding(request.headers, typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length);
    if (encoding === undefined) return done(null, payload);
    compress(typeof payload === 'string' ? Buffer.from(payload) : payload, encoding).then(
      (compressed) => {
        reply.header('Content-Encoding', encoding);
        reply.removeHeader('Content-Length');
        done(null, compressed);
      },
      (error: unknown) => {
        request.log.warn({ err: error }, 'an answer could not be compressed; sent as it is');
        done(null, payload);
      },
    );
  });
}
