import type { Kysely } from 'kysely';
import type { Database, IcalImportRow } from '../schema.ts';

/** The import keys of 50 C.6 and the organizer lookup by e-mail that matching needs. */
export class IcalImportsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  find(uid: string, instanceKey: string): Promise<IcalImportRow | undefined> {
    return this.db.selectFrom('ical_imports').selectAll().where('uid', '=', uid).where('instance_key', '=', instanceKey).executeTakeFirst();
  }

  async save(row: IcalImportRow): Promise<void> {
    const { uid, instance_key, ...rest } = row;
    await this.db.insertInto('ical_imports').values(row).onConflict((c) => c.columns(['uid', 'instance_key']).doUpdateSet(rest)).execute();
  }

  /** Non-trashed organizers with this e-mail (case-insensitive), oldest first. */
  async organizersByEmail(email: string): Promise<number[]> {
    const rows = await this.db.selectFrom('organizers').select(['id', 'email']).where('status', '!=', 'trash').where('email', '!=', '').orderBy('id').execute();
    return rows.filter((row) => row.email.toLowerCase() === email.toLowerCase()).map((row) => row.id);
  }
}
