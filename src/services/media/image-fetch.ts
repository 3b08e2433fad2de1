import type { IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { RestError } from '../../domain/errors.ts';
import { guardedLookup, isPrivateAddress, PrivateAddressError, systemResolve, type Resolve } from '../ical-fetch.ts';

const MAX_REDIRECTS = 5;

/**
 * Where a sideload may connect (110-media §7.2): names resolved by the connection itself and no
 * address the service must not reach. There is no allow-list; tests name their own resolver and
 * rule to reach a local server, the service always runs with `PUBLIC_NETWORK`.
 */
export interface SideloadNetwork {
  resolve: Resolve;
  refused: (address: string) => boolean;
  /** The whole transfer, redirects included. */
  timeoutMs: number;
}

export const PUBLIC_NETWORK: SideloadNetwork = { resolve: systemResolve, refused: isPrivateAddress, timeoutMs: 10_000 };

/** A refusal of the URL itself: `image-url-not-allowed`. */
export class ImageUrlNotAllowedError extends Error {}

/** No image came back: `image-fetch-failed` with the reason. */
export class ImageFetchFailedError extends Error {}

function checkTarget(url: URL, network: SideloadNetwork): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ImageUrlNotAllowedError(url.protocol);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && network.refused(host)) throw new ImageUrlNotAllowedError(host);
}

function get(url: URL, network: SideloadNetwork, signal: AbortSignal): Promise<IncomingMessage> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    // No cookies or credentials: the request carries nothing of the caller's.
    const request = send(url, { method: 'GET', signal, lookup: guardedLookup(network.resolve, network.refused), headers: { accept: 'image/*' } }, resolve);
    request.on('error', reject);
    request.end();
  });
}

/** The file name a fetched URL gives the upload: its last path segment. */
function fileNameOf(url: URL): string {
  const segment = url.pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(segment) || 'image';
  } catch {
    return segment || 'image';
  }
}

/**
 * GET of a posted image URL: http(s) only, every hop checked again (at most 5 redirects), the
 * response's type ignored (the content decides), the body cut at `maxBytes`.
 */
export async function fetchImage(address: string, maxBytes: number, network: SideloadNetwork): Promise<{ bytes: Buffer; fileName: string }> {
  let url = new URL(address);
  const signal = AbortSignal.timeout(network.timeoutMs);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    checkTarget(url, network);
    const response = await get(url, network, signal).catch((error: unknown) => {
      if (error instanceof PrivateAddressError) throw new ImageUrlNotAllowedError(url.hostname);
      throw new ImageFetchFailedError(signal.aborted ? 'timeout' : 'unreachable');
    });
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location) {
      response.resume();
      url = new URL(location, url);
      continue;
    }
    if (status !== 200) {
      response.resume();
      throw new ImageFetchFailedError(`HTTP ${status}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of response as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > maxBytes) {
          response.destroy();
          throw new RestError(413, 'rest_upload_file_too_big');
        }
        chunks.push(chunk);
      }
    } catch (error) {
      if (error instanceof RestError) throw error;
      throw new ImageFetchFailedError(signal.aborted ? 'timeout' : 'transfer interrupted');
    }
    return { bytes: Buffer.concat(chunks), fileName: fileNameOf(url) };
  }
  throw new ImageFetchFailedError('too many redirects');
}
