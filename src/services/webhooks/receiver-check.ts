import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Reason } from '../../domain/errors.ts';
import { urlProblem } from '../../domain/webhooks/subscription-rules.ts';
import { isPrivateAddress } from '../ical-fetch.ts';

const URL_REASON: Reason = { code: 'rest_invalid_webhook_url', messageKey: 'reason_webhook_url' };
const PRIVATE_REASON: Reason = { code: 'rest_webhook_private_address', messageKey: 'reason_webhook_private' };
const HOST_REASON: Reason = { code: 'rest_webhook_unknown_host', messageKey: 'reason_webhook_host' };

/**
 * Why a receiver URL is refused (80 §4.1), or null: its form, and outside insecure mode where it
 * points — a name that resolves to a private address is refused here, and the sender checks
 * again when it connects (80 §4.4 C, DNS rebinding).
 */
export async function receiverUrlReason(value: unknown, allowInsecure: boolean): Promise<Reason | null> {
  if (typeof value !== 'string' || urlProblem(value, allowInsecure) !== null) return URL_REASON;
  if (allowInsecure) return null;
  const host = new URL(value).hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((entry) => entry.address);
  } catch {
    return HOST_REASON;
  }
  return addresses.some(isPrivateAddress) ? PRIVATE_REASON : null;
}
