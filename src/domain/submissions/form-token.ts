import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** 120 §6.1: the longest a form token lives (WCAG 2.2.1's 20-hour exception). */
export const TOKEN_MAX_AGE_SECONDS = 24 * 3600;

export interface FormToken {
  issued: number;
  id: string;
}

export type TokenVerdict = { ok: true; token: FormToken } | { ok: false; outcome: 'bad-token' | 'too-fast' | 'expired'; token?: FormToken };

function mac(key: Buffer, issued: number, id: string, userId: number): string {
  return createHmac('sha256', key).update(`v1.${issued}.${id}.${userId}`).digest('base64url');
}

/** `v1.{issued}.{id}.{mac}`, stateless until used. */
export function issueFormToken(key: Buffer, nowSeconds: number, userId: number): string {
  const id = randomBytes(16).toString('base64url');
  return `v1.${nowSeconds}.${id}.${mac(key, nowSeconds, id, userId)}`;
}

/**
 * Whether a token is genuine and of an acceptable age; whether its id was consumed is the
 * database's to say (the attempt row's unique `token_id`).
 */
export function checkFormToken(key: Buffer, raw: string | undefined, nowSeconds: number, userId: number, minSeconds: number): TokenVerdict {
  const match = raw === undefined ? null : /^v1\.(\d{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(raw);
  if (match === null) return { ok: false, outcome: 'bad-token' };
  const token = { issued: Number(match[1]), id: match[2] };
  const expected = Buffer.from(mac(key, token.issued, token.id, userId));
  const given = Buffer.from(match[3]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, outcome: 'bad-token' };
  const age = nowSeconds - token.issued;
  if (age < minSeconds) return { ok: false, outcome: 'too-fast', token };
  if (age > TOKEN_MAX_AGE_SECONDS) return { ok: false, outcome: 'expired', token };
  return { ok: true, token };
}
