import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { RestError } from '../domain/errors.ts';
import { IcalTooLargeError } from '../domain/ical/ical-input.ts';
import { guardedGet, type FetchFailure } from './guarded-fetch.ts';

const TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 5;

/** How host names become addresses: `dns.lookup` with `all: true` (a parameter so tests can name their own). */
export type Resolve = (hostname: string, callback: (error: Error | null, addresses: LookupAddress[]) => void) => void;

export const systemResolve: Resolve = (hostname, callback) => dnsLookup(hostname, { all: true }, callback);

/** Loopback, private, link-local, unique-local, unspecified and mapped forms of those (C.1). */
export function isPrivateAddress(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(v4) === 4) {
    const [a, b] = v4.split('.').map(Number);
    return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || a >= 224;
  }
  const v6 = address.toLowerCase();
  return v6 === '::' || v6 === '::1' || v6.startsWith('fc') || v6.startsWith('fd') || v6.startsWith('fe8') || v6.startsWith('fe9') || v6.startsWith('fea') || v6.startsWith('feb');
}

function failed(reason: string): RestError {
  return new RestError(502, 'ical-fetch-failed', { vars: { reason } });
}

function icalFailure(failure: FetchFailure): RestError {
  switch (failure.stage) {
    case 'connect':
      return failure.error instanceof PrivateAddressError ? new RestError(400, 'ical-url-not-allowed') : failed('unreachable');
    case 'status':
      return failed(`HTTP ${failure.status}`);
    case 'transfer':
      return failed('transfer interrupted');
    case 'redirects':
      return failed('too many redirects');
  }
}

/** Refused at connect time: the name resolved to an address the service must not reach. */
export class PrivateAddressError extends Error {}

/**
 * The connection's own name resolution (C.1, DNS rebinding): the addresses checked are the
 * addresses connected to, so a name that answers a public address to a first query and a private
 * one to the next cannot slip through between a check and the connect.
 */
export function guardedLookup(resolve: Resolve, refused: (address: string) => boolean = isPrivateAddress): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const family = options.family === 4 || options.family === 6 ? options.family : 0;
      const usable = addresses.filter((entry) => family === 0 || entry.family === family);
      if (usable.length === 0) return callback(new Error(`no address for ${hostname}`), '', 0);
      if (usable.some((entry) => refused(entry.address))) return callback(new PrivateAddressError(hostname), '', 0);
      if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, usable);
      return callback(null, usable[0].address, usable[0].family);
    });
  };
}

/**
 * An origin the allow-list names; `https` unless the operator listed the `http://` origin itself.
 * A literal address the operator listed is reached as written (private ones included); a name is
 * resolved at connect time and must not lead to a private address.
 */
function checkTarget(url: URL, allowlist: readonly string[]): void {
  if (!allowlist.includes(url.origin) || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw new RestError(400, 'ical-url-not-allowed');
}

/**
 * GET of an allowed URL (C.1): 10 s for the whole transfer, redirects followed only to listed
 * origins, the body cut off at the byte cap.
 */
export async function fetchIcal(address: string, allowlist: readonly string[], maxBytes: number, resolve: Resolve = systemResolve): Promise<Uint8Array> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new RestError(400, 'ical-url-not-allowed');
  }
  const { body } = await guardedGet(url, {
    accept: 'text/calendar, */*;q=0.5',
    maxBytes,
    maxRedirects: MAX_REDIRECTS,
    timeoutMs: TIMEOUT_MS,
    checkTarget: (hop) => checkTarget(hop, allowlist),
    lookupFor: (hop) => (isIP(hop.hostname.replace(/^\[|\]$/g, '')) !== 0 ? undefined : guardedLookup(resolve)),
    failed: icalFailure,
    tooLarge: () => new IcalTooLargeError('bytes'),
  });
  return body;
}
