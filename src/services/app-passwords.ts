import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Application passwords are 192-bit random secrets, so a fast keyed hash (HMAC-SHA256 with a
 * per-installation key) is enough: there is nothing to brute-force, and the key keeps a stolen
 * table from being matched against secrets seen elsewhere.
 */
export function generateAppPassword(): string {
  return randomBytes(24).toString('base64url');
}

export function generateHashKey(): string {
  return randomBytes(32).toString('hex');
}

export function hashAppPassword(key: string, secret: string): string {
  return createHmac('sha256', Buffer.from(key, 'hex')).update(secret, 'utf8').digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
