import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const TAG = 'aesgcm:';

/**
 * Signing secrets at rest (80 §4.3): they are needed to sign, so they are stored, encrypted with
 * AES-256-GCM when CALENDAR_SECRET_KEY is set. Stored form: `aesgcm:` + base64(iv|tag|ciphertext).
 */
export class SecretBox {
  constructor(private readonly key: Buffer | null) {}

  seal(secret: string): string {
    if (!this.key) return secret;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return TAG + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
  }

  open(stored: string): string {
    if (!stored.startsWith(TAG)) return stored;
    if (!this.key) throw new Error('a webhook secret is encrypted but CALENDAR_SECRET_KEY is not set');
    const raw = Buffer.from(stored.slice(TAG.length), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}
