import { timingSafeEqual } from 'node:crypto';
import type { Principal } from '../auth/capabilities.ts';
import { canEditRecord, type OwnedRecord } from '../auth/record-permissions.ts';

export interface UnlockRequest {
  /** The request's `password` parameter, if any. */
  password?: unknown;
  /** True when the request asks for `context=edit`. */
  contextEdit: boolean;
}

function samePassword(given: string, stored: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(stored, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Whether a password-protected record is shown whole (40 §8): the exact password (compared in
 * constant time), or `context=edit` from a caller who may edit the record. A role alone never
 * unlocks. Records without a password are always unlocked.
 */
export function isUnlocked(record: OwnedRecord & { password: string }, principal: Principal | null, request: UnlockRequest): boolean {
  if (record.password === '') return true;
  if (typeof request.password === 'string' && request.password !== '' && samePassword(request.password, record.password)) return true;
  return request.contextEdit && canEditRecord(principal, record);
}

/**
 * The stored password, shown to a caller who may edit the record and asks with `context=edit`,
 * as WordPress core's posts API shows it (90 §2.2: a site import copies protected records whole).
 */
export function revealedPassword(record: OwnedRecord & { password: string }, principal: Principal | null, contextEdit: boolean): string | undefined {
  return record.password !== '' && contextEdit && canEditRecord(principal, record) ? record.password : undefined;
}
