import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, isPrivateAddress, PrivateAddressError, systemResolve } from '../ical-fetch.ts';

const EXCERPT_BYTES = 2048;

/** What one send came to: an HTTP status, or an error before or instead of one. */
export interface SendResult {
  status: number | null;
  error: string | null;
  /** At most 2 KiB of the response body, as text. */
  excerpt: string | null;
  retryAfter: string | undefined;
  durationMs: number;
}

/**
 * One POST of a webhook message: no redirects followed (a 3xx is a failure), the whole exchange
 * within `timeoutMs`, the response body read up to 2 KiB and dropped.
 */
export async function postMessage(target: string, headers: Record<string, string>, body: string, options: { allowPrivate: boolean; timeoutMs: number }): Promise<SendResult> {
  const started = Date.now();
  const finish = (result: Omit<SendResult, 'durationMs'>): SendResult => ({ ...result, durationMs: Date.now() - started });
  const url = new URL(target);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // Literal addresses never go through the lookup.
  if (!options.allowPrivate && isIP(host) && isPrivateAddress(host)) {
    return finish({ status: null, error: `refused: ${host} is a private address`, excerpt: null, retryAfter: undefined });
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<SendResult>((resolve) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'calendar-webhooks/1' },
        signal: AbortSignal.timeout(options.timeoutMs),
        agent: false,
        // Checked when connecting, so a name that resolves privately by then (DNS rebinding) is refused (80 §4.4 C).
        ...(options.allowPrivate ? {} : { lookup: guardedLookup(systemResolve) }),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () =>
          resolve(
            finish({
              status: response.statusCode ?? null,
              error: null,
              excerpt: Buffer.concat(chunks).toString('utf8'),
              retryAfter: response.headers['retry-after'],
            }),
          );
        response.on('data', (chunk: Buffer) => {
          if (size < EXCERPT_BYTES) chunks.push(chunk.subarray(0, EXCERPT_BYTES - size));
          size += chunk.length;
          if (size >= EXCERPT_BYTES) {
            response.destroy();
            done();
          }
        });
        response.on('end', done);
        response.on('error', done);
      },
    );
    request.on('error', (error: Error) => {
      const reason = error.name === 'AbortError' || error.name === 'TimeoutError' ? `timeout after ${options.timeoutMs} ms` : error instanceof PrivateAddressError ? `refused: ${error.message} resolves to a private address` : error.message;
      resolve(finish({ status: null, error: reason, excerpt: null, retryAfter: undefined }));
    });
    request.end(body);
  });
}
