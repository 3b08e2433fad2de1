/** What a subscription may contain (80 §4.1), and which change entries it asks for. */

export const WEBHOOK_KINDS = ['event', 'venue', 'organizer', 'category', 'tag'] as const;
export const WEBHOOK_OPS = ['create', 'update', 'trash', 'restore', 'delete'] as const;
export const VISIBILITIES = ['public', 'full'] as const;
export type WebhookVisibility = (typeof VISIBILITIES)[number];

const MAX_URL_LENGTH = 2048;

/** `kind.op` where either side may be `*`, or `*` alone. */
export function isTypePattern(value: string): boolean {
  if (value === '*') return true;
  const [kind, op, extra] = value.split('.');
  if (extra !== undefined || kind === undefined || op === undefined) return false;
  return (kind === '*' || (WEBHOOK_KINDS as readonly string[]).includes(kind)) && (op === '*' || (WEBHOOK_OPS as readonly string[]).includes(op));
}

export function matchesTypes(patterns: readonly string[], kind: string, op: string): boolean {
  return patterns.some((pattern) => {
    if (pattern === '*') return true;
    const [patternKind, patternOp] = pattern.split('.');
    return (patternKind === '*' || patternKind === kind) && (patternOp === '*' || patternOp === op);
  });
}

export type UrlProblem = 'not-absolute' | 'scheme' | 'userinfo' | 'too-long';

/** Form of a receiver URL: absolute https (or http in insecure mode), no userinfo, ≤ 2,048 chars. */
export function urlProblem(value: string, allowInsecure: boolean): UrlProblem | null {
  if (value.length > MAX_URL_LENGTH) return 'too-long';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'not-absolute';
  }
  if (url.protocol !== 'https:' && !(allowInsecure && url.protocol === 'http:')) return 'scheme';
  if (url.username !== '' || url.password !== '') return 'userinfo';
  return null;
}
