import { createHash } from 'node:crypto';

/** A file the pages load from our own origin, served under `{base}` at `path`. */
export interface Asset {
  path: string;
  type: string;
  body: string | Buffer;
}

/** Ten characters that change with the content, so the file may be cached for long. */
export function contentHash(body: string | Buffer): string {
  return createHash('sha256').update(body).digest('base64url').slice(0, 10);
}

/** `/assets/{stem}-{hash}.{extension}`: a new name whenever the content changes. */
export function hashedAsset(stem: string, extension: string, type: string, body: string | Buffer): Asset {
  return { path: `/assets/${stem}-${contentHash(body)}.${extension}`, type, body };
}
