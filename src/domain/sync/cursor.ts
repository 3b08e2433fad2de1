/**
 * The change feed's cursor (80 §3.5): base64url JSON, version 1 — the feed epoch, the position
 * (PostgreSQL: txid and seq; SQLite: seq, txid '0'), the principal (user id or 0) and that
 * user's access epoch. Not signed: a forged cursor only changes what its own holder is shown,
 * and rights are checked on every read.
 */
export interface Cursor {
  epoch: string;
  txid: string;
  seq: string;
  principal: number;
  accessEpoch: number;
}

export function encodeCursor(cursor: Cursor): string {
  const { epoch, txid, seq, principal, accessEpoch } = cursor;
  return Buffer.from(JSON.stringify({ v: 1, e: epoch, t: txid, s: seq, p: principal, a: accessEpoch })).toString('base64url');
}

const DECIMAL = /^(0|[1-9][0-9]{0,19})$/;

/** The cursor, or null when the text is no cursor of this feed. */
export function decodeCursor(text: string): Cursor | null {
  if (!/^[A-Za-z0-9_-]{1,1000}$/.test(text)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  const { v, e, t, s, p, a } = value as Record<string, unknown>;
  if (v !== 1 || typeof e !== 'string' || typeof t !== 'string' || typeof s !== 'string' || !DECIMAL.test(t) || !DECIMAL.test(s)) return null;
  if (!Number.isSafeInteger(p) || (p as number) < 0 || !Number.isSafeInteger(a) || (a as number) < 0) return null;
  return { epoch: e, txid: t, seq: s, principal: p as number, accessEpoch: a as number };
}
