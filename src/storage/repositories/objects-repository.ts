import type { Kysely } from 'kysely';
import type { Database, ObjectKind } from '../schema.ts';

/** The shared id sequence of events, venues, organizers and media items (00-conventions). */
export class ObjectsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** A new id for a record of `kind`; insert the record itself in the same transaction. */
  async allocate(kind: ObjectKind): Promise<number> {
    const row = await this.db.insertInto('objects').values({ kind }).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  /** The kind an id belongs to, or undefined for an unknown id (wrong-kind checks: 10 §5). */
  async kindOf(id: number): Promise<ObjectKind | undefined> {
    const row = await this.db.selectFrom('objects').select('kind').where('id', '=', id).executeTakeFirst();
    return row?.kind;
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('objects').where('id', '=', id).execute();
  }
}
