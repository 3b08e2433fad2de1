import { randomBytes } from 'node:crypto';
import type { Storage } from '../../storage/database.ts';
import { SettingsRepository } from '../../storage/repositories/settings-repository.ts';

/** One read per storage: the key never changes once stored, and every instance reads the same row. */
const keys = new WeakMap<object, Promise<Buffer>>();

/**
 * 100 §4: `session_key`, 32 random bytes in `settings`, created on first use by whichever instance
 * comes first; the CSRF tokens and sign-in form tokens are HMACs under it.
 */
export function sessionKey(storage: Storage): Promise<Buffer> {
  let key = keys.get(storage.db);
  if (key === undefined) {
    key = new SettingsRepository(storage.db).getOrCreate('session_key', randomBytes(32).toString('base64')).then((value) => Buffer.from(value, 'base64'));
    key.catch(() => keys.delete(storage.db));
    keys.set(storage.db, key);
  }
  return key;
}
