import { isIP } from 'node:net';
import { RestError } from '../../domain/errors.ts';
import { guardedLookup, isPrivateAddress, PrivateAddressError, systemResolve, type Resolve } from '../ical-fetch.ts';
import { guardedGet, type FetchFailure } from '../guarded-fetch.ts';

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

function imageFailure(failure: FetchFailure): Error {
  switch (failure.stage) {
    case 'connect':
      if (failure.error instanceof PrivateAddressError) return new ImageUrlNotAllowedError(failure.url.hostname);
      return new ImageFetchFailedError(failure.timedOut ? 'timeout' : 'unreachable');
    case 'status':
      return new ImageFetchFailedError(`HTTP ${failure.status}`);
    case 'transfer':
      return new ImageFetchFailedError(failure.timedOut ? 'timeout' : 'transfer interrupted');
    case 'redirects':
      return new ImageFetchFailedError('too many redirects');
  }
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
  const { body, url } = await guardedGet(new URL(address), {
    accept: 'image/*',
    maxBytes,
    maxRedirects: MAX_REDIRECTS,
    timeoutMs: network.timeoutMs,
    checkTarget: (hop) => checkTarget(hop, network),
    lookupFor: () => guardedLookup(network.resolve, network.refused),
    failed: imageFailure,
    tooLarge: () => new RestError(413, 'rest_upload_file_too_big'),
  });
  return { bytes: body, fileName: fileNameOf(url) };
}
