import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { SettingsRepository } from '../../storage/repositories/settings-repository.ts';
import type { Database } from '../../storage/schema.ts';

/** 120 §6.1: 32 random bytes in `settings`, created on first use and read by every instance. */
export async function submissionKey(db: Kysely<Database>): Promise<Buffer> {
  const stored = await new SettingsRepository(db).getOrCreate('submission_key', randomBytes(32).toString('base64'));
  return Buffer.from(stored, 'base64');
}

/** The built-in contributor that visitors' events belong to (migration 0029). */
export async function builtInSubmitterId(db: Kysely<Database>): Promise<number> {
  return Number(await new SettingsRepository(db).require('submissions_user_id'));
}
