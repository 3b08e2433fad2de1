import { createHmac, randomBytes } from 'node:crypto';

/** Standard Webhooks secrets and signatures (80 §4.3). */

const PREFIX = 'whsec_';

/** `whsec_` + base64 of 32 random bytes. */
export function generateSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

/** `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed with the secret's bytes. */
export function signature(secret: string, webhookId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${webhookId}.${timestamp}.${body}`).digest('base64')}`;
}

/** The three headers of one attempt; during a rotation every live secret signs (space-separated). */
export function signedHeaders(secrets: readonly string[], webhookId: string, timestamp: number, body: string): Record<string, string> {
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => signature(secret, webhookId, timestamp, body)).join(' '),
  };
}

/** A message id: the receiver's dedupe key, the same on every retry and redelivery. */
export function messageId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

/** What lists show instead of a secret. */
export function maskSecret(secret: string): string {
  return `${PREFIX}…${secret.slice(-4)}`;
}
