import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes as base64url (43 characters): session tokens, link tokens, `cal_login` values. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a token: SHA-256 hex (a leaked table signs nobody in). */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A token's shape: anything else is no token at all (never looked up). */
export function isTokenShaped(value: string | undefined): value is string {
  return value !== undefined && /^[A-Za-z0-9_-]{43}$/.test(value);
}

/** 100 §4: a session's CSRF token, constant for its life, new with each rotation. */
export function csrfToken(sessionKey: Buffer, token: string): string {
  return createHmac('sha256', sessionKey).update(`csrf:${token}`).digest('base64url');
}

/** 100 §5.1: the sign-in form's `_token`, bound to the pre-sign-in cookie `cal_login`. */
export function loginFormToken(sessionKey: Buffer, loginCookie: string): string {
  return createHmac('sha256', sessionKey).update(`login:${loginCookie}`).digest('base64url');
}

/** Constant-time comparison of two texts (different lengths differ without comparing). */
export function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** 100 §3.2: the first administrator's sign-in password, 20 random characters (no look-alikes). */
export function generateSigninPassword(): string {
  let password = '';
  while (password.length < 20) {
    for (const byte of randomBytes(32)) {
      // Rejection sampling keeps every character equally likely.
      if (byte < 256 - (256 % PASSWORD_ALPHABET.length) && password.length < 20) password += PASSWORD_ALPHABET[byte % PASSWORD_ALPHABET.length];
    }
  }
  return password;
}
