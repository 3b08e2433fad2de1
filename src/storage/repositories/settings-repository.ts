import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

export class SettingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The stored value; throws when the key is missing (a value a migration wrote). */
  async require(key: string): Promise<string> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
    return row.value;
  }

  /**
   * The stored value, or `initial` stored now. Safe when several instances start at once:
   * the first insert wins and everyone reads the winner.
   */
  async getOrCreate(key: string, initial: string): Promise<string> {
    await this.db.insertInto('settings').values({ key, value: initial }).onConflict((oc) => oc.column('key').doNothing()).execute();
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
    return row.value;
  }
}
