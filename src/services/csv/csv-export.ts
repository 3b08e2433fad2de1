import type { Kysely } from 'kysely';
import { stringify } from 'csv-stringify/sync';
import { labelOf, type CsvKind } from '../../domain/csv/csv-columns.ts';
import { CsvRepository } from '../../storage/repositories/csv-repository.ts';
import type { Database } from '../../storage/schema.ts';
import { recordUid } from './csv-uid.ts';

export type ExportStatus = 'publish' | 'any';

type Cell = string | undefined;

const bool = (value: number | null) => (value === null ? undefined : value === 1 ? 'TRUE' : 'FALSE');

/** Rows of field → value, in the order 140 §7.7 lists them. */
async function eventRows(db: Kysely<Database>, status: ExportStatus, uidDomain: string): Promise<Record<string, Cell>[]> {
  const found = await new CsvRepository(db).eventsForExport(status === 'publish');
  if (found === null) return [];
  const { events, venues, organizers, terms, images } = found;
  const byEvent = <T extends { event_id: number }>(rows: T[], pick: (row: T) => string, where: (row: T) => boolean = () => true) => {
    const grouped = new Map<number, string[]>();
    for (const row of rows) if (where(row)) grouped.set(row.event_id, [...(grouped.get(row.event_id) ?? []), pick(row)]);
    return grouped;
  };
  const organizerNames = byEvent(organizers, (row) => row.name);
  const categories = byEvent(terms, (row) => row.name, (row) => row.taxonomy === 'tribe_events_cat');
  const tags = byEvent(terms, (row) => row.name, (row) => row.taxonomy === 'post_tag');
  return events.map((event) => ({
    title: event.title,
    description: event.description,
    excerpt: event.excerpt,
    start_date: event.start_local.slice(0, 10),
    start_time: event.all_day === 1 ? '' : event.start_local.slice(11, 19),
    end_date: event.end_local.slice(0, 10),
    end_time: event.all_day === 1 ? '' : event.end_local.slice(11, 19),
    timezone: event.timezone,
    all_day: bool(event.all_day),
    hide_from_listings: bool(event.hide_from_listings),
    sticky: bool(event.sticky),
    featured: bool(event.featured),
    show_map: bool(event.show_map),
    show_map_link: bool(event.show_map_link),
    venue: event.venue_id === null ? undefined : venues.get(event.venue_id),
    organizer: organizerNames.get(event.id)?.join(', '),
    cost: (JSON.parse(event.cost) as string[]).join(', '),
    categories: categories.get(event.id)?.join(', '),
    tags: tags.get(event.id)?.join(', '),
    website: event.website ?? undefined,
    image: event.image_id === null ? undefined : images.get(event.image_id),
    status: event.status,
    uid: recordUid(event.id, uidDomain),
  }));
}

async function linkedRows(db: Kysely<Database>, kind: 'venues' | 'organizers', status: ExportStatus, uidDomain: string): Promise<Record<string, Cell>[]> {
  const repository = new CsvRepository(db);
  if (kind === 'venues') {
    return (await repository.venuesForExport(status === 'publish')).map((venue) => ({
      title: venue.name, description: venue.description, country: venue.country, address: venue.address, city: venue.city,
      stateprovince: venue.stateprovince || venue.state || venue.province, zip: venue.zip, phone: venue.phone, website: venue.website,
      latitude: venue.geo_lat === null ? undefined : String(venue.geo_lat), longitude: venue.geo_lng === null ? undefined : String(venue.geo_lng),
      status: venue.status, uid: recordUid(venue.id, uidDomain),
    }));
  }
  return (await repository.organizersForExport(status === 'publish')).map((organizer) => ({
    title: organizer.name, description: organizer.description, email: organizer.email, website: organizer.website, phone: organizer.phone,
    status: organizer.status, uid: recordUid(organizer.id, uidDomain),
  }));
}

/**
 * 140 §7.7: UTF-8 with BOM, `,`, CRLF, RFC 4180 quoting; the kind's TEC labels that carry data,
 * then `UID`; values as the import reads them.
 */
export async function exportCsv(db: Kysely<Database>, kind: CsvKind, status: ExportStatus, uidDomain: string): Promise<string> {
  const rows = kind === 'events' ? await eventRows(db, status, uidDomain) : await linkedRows(db, kind, status, uidDomain);
  const fields = Object.keys(rows[0] ?? { title: '', uid: '' }).filter((field) => field === 'title' || field === 'uid' || rows.some((row) => (row[field] ?? '') !== ''));
  const header = fields.map((field) => labelOf(kind, field));
  return `\uFEFF${stringify([header, ...rows.map((row) => fields.map((field) => row[field] ?? ''))], { record_delimiter: '\r\n', quoted_match: /[\r\n]/ })}`;
}
