import type { Kysely } from 'kysely';
import type { Database, ObjectKind } from '../schema.ts';

/** The shared id sequence of events, venues, organizers and media items (00-conventions). */
export class ObjectsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** A new id for a record of `kind`; insert the record itself in the same transaction. */
  async allocate(kind: ObjectKind): Promise<number> {
    return (await this.allocateMany(kind, 1))[0];
  }

  /** `count` new ids for records of `kind`, ascending, in one statement. */
  async allocateMany(kind: ObjectKind, count: number): Promise<number[]> {
    const rows = await this.db.insertInto('objects').values(Array.from({ length: count }, () => ({ kind }))).returning('id').execute();
    return rows.map((row) => row.id).sort((a, b) => a - b);
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
