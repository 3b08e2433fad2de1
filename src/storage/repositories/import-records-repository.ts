import type { Kysely } from 'kysely';
import type { Database, ImportMapKind, ImportRecordRow } from '../schema.ts';

/** The id map of one import source (90 §2.3). */
export class ImportRecordsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly source: string,
  ) {}

  async all(kind: ImportMapKind): Promise<Map<number, ImportRecordRow>> {
    const rows = await this.db.selectFrom('import_records').selectAll().where('source', '=', this.source).where('kind', '=', kind).execute();
    return new Map(rows.map((row) => [row.source_id, row]));
  }

  /** Records or moves the mapping of one source record; run in the transaction that wrote the record. */
  async save(kind: ImportMapKind, sourceId: number, localId: number, sourceModified: string): Promise<void> {
    await this.db.deleteFrom('import_records').where('source', '=', this.source).where('kind', '=', kind).where('source_id', '=', sourceId).execute();
    await this.db.insertInto('import_records').values({ source: this.source, kind, source_id: sourceId, local_id: localId, source_modified_utc: sourceModified }).execute();
  }

  async remove(kind: ImportMapKind, sourceId: number): Promise<void> {
    await this.db.deleteFrom('import_records').where('source', '=', this.source).where('kind', '=', kind).where('source_id', '=', sourceId).execute();
  }
}
