import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';

/** What a CSV file's rows are about (140 §7). */
type CsvTable = 'events' | 'venues' | 'organizers';

/** All SQL of the CSV import and export (140 §7). */
export class CsvRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The record a key of 140 §7.5 was imported into last, and the content hash of that row. */
  importedAs(kind: CsvTable, key: string): Promise<{ record_id: number; content_hash: string } | undefined> {
    return this.db.selectFrom('csv_imports').select(['record_id', 'content_hash']).where('kind', '=', kind).where('key', '=', key).executeTakeFirst();
  }

  /** Remembers that the row with `key` and content `hash` is now the record `recordId`. */
  async rememberImport(kind: CsvTable, key: string, recordId: number, hash: string): Promise<void> {
    await this.db.deleteFrom('csv_imports').where('kind', '=', kind).where('key', '=', key).execute();
    await this.db.insertInto('csv_imports').values({ kind, key, record_id: recordId, content_hash: hash }).execute();
  }

  /** The oldest non-trashed venue or organizer whose name is `name`, case aside. */
  linkedPostNamed(kind: Exclude<CsvTable, 'events'>, name: string): Promise<{ id: number } | undefined> {
    return this.db.selectFrom(kind).select('id').where(sql`lower(name)`, '=', name.toLowerCase()).where('status', '!=', 'trash').orderBy('id').executeTakeFirst();
  }

  /** The oldest non-trashed single event or occurrence with this title and these wall clocks. */
  eventAt(title: string, startLocal: string, endLocal: string) {
    return this.db.selectFrom('events').selectAll()
      .where('title', '=', title).where('start_local', '=', startLocal).where('end_local', '=', endLocal)
      .where('status', '!=', 'trash').where('is_series_master', '=', 0).orderBy('id').executeTakeFirst();
  }

  /**
   * The events of an export (no series masters, no trash; only published ones when asked), by
   * start, with what their rows name: venue names, organizers and terms in their order, image URLs.
   */
  async eventsForExport(publishedOnly: boolean) {
    let query = this.db.selectFrom('events').selectAll().where('is_series_master', '=', 0).where('status', '!=', 'trash');
    if (publishedOnly) query = query.where('status', '=', 'publish');
    const events = await query.orderBy('start_local').orderBy('id').execute();
    if (events.length === 0) return null;
    const venues = new Map((await this.db.selectFrom('venues').select(['id', 'name']).execute()).map((venue) => [venue.id, venue.name]));
    const organizers = await this.db.selectFrom('event_organizers').innerJoin('organizers', 'organizers.id', 'event_organizers.organizer_id')
      .select(['event_organizers.event_id', 'organizers.name']).orderBy('event_organizers.position').execute();
    const terms = await this.db.selectFrom('event_terms').innerJoin('terms', 'terms.id', 'event_terms.term_id')
      .select(['event_terms.event_id', 'terms.name', 'terms.taxonomy']).orderBy('event_terms.position').execute();
    const images = new Map((await this.db.selectFrom('media').select(['id', 'url']).execute()).map((media) => [media.id, media.url]));
    return { events, venues, organizers, terms, images };
  }

  /** The non-trashed venues of an export (only published ones when asked), by name. */
  venuesForExport(publishedOnly: boolean) {
    let query = this.db.selectFrom('venues').selectAll().where('status', '!=', 'trash');
    if (publishedOnly) query = query.where('status', '=', 'publish');
    return query.orderBy('name').orderBy('id').execute();
  }

  /** The non-trashed organizers of an export (only published ones when asked), by name. */
  organizersForExport(publishedOnly: boolean) {
    let query = this.db.selectFrom('organizers').selectAll().where('status', '!=', 'trash');
    if (publishedOnly) query = query.where('status', '=', 'publish');
    return query.orderBy('name').orderBy('id').execute();
  }
}
