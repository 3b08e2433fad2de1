import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { RestError } from '../domain/errors.ts';
import { IcalTooLargeError } from '../domain/ical/ical-input.ts';

const TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 5;

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

/** Refuses an address the allow-list does not name, or that resolves where it must not (C.1). */
async function checkTarget(url: URL, allowlist: readonly string[]): Promise<void> {
  if (!allowlist.includes(url.origin) || url.protocol !== 'https:') throw new RestError(400, 'ical-url-not-allowed');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // A literal address the operator listed is allowed as written; names must resolve publicly.
  if (isIP(host)) return;
  const addresses = await lookup(host, { all: true }).catch(() => {
    throw failed('unknown host');
  });
  if (addresses.some((entry) => isPrivateAddress(entry.address))) throw new RestError(400, 'ical-url-not-allowed');
}

/**
 * GET of an allowed `https` URL (C.1): 10 s for the whole transfer, redirects followed only to
 * listed origins, the body cut off at the byte cap.
 */
export async function fetchIcal(address: string, allowlist: readonly string[], maxBytes: number): Promise<Uint8Array> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new RestError(400, 'ical-url-not-allowed');
  }
  const signal = AbortSignal.timeout(TIMEOUT_MS);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    await checkTarget(url, allowlist);
    const response = await fetch(url, { redirect: 'manual', signal }).catch(() => {
      throw failed('unreachable');
    });
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, url);
      continue;
    }
    if (response.status !== 200 || !response.body) throw failed(`HTTP ${response.status}`);
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for await (const chunk of response.body) {
        size += chunk.length;
        if (size > maxBytes) throw new IcalTooLargeError('bytes');
        chunks.push(chunk);
      }
    } catch (error) {
      if (error instanceof IcalTooLargeError) throw error;
      throw failed('transfer interrupted');
    }
    return Buffer.concat(chunks);
  }
  throw failed('too many redirects');
}
