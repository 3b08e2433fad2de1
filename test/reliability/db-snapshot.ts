import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { Storage } from '../../src/storage/database.ts';

/** Every row of every table, as sorted JSON lines per table name. */
export type Snapshot = Record<string, string[]>;

const tableNames = new WeakMap<Storage, Promise<string[]>>();

/** The tables of the database, discovered once, so that a table added later is covered too. */
function tablesOf(storage: Storage): Promise<string[]> {
  let names = tableNames.get(storage);
  if (!names) {
    const query =
      storage.dialect === 'sqlite'
        ? sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`
        : sql<{ name: string }>`select table_name as name from information_schema.tables
            where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`;
    names = query.execute(storage.db).then((result) => result.rows.map((row) => row.name));
    tableNames.set(storage, names);
  }
  return names;
}

/**
 * Columns that record that a credential was used, not what a request asked for: any request
 * authenticated with an application password records its use (at most once a minute), whatever
 * the answer, so they are left out of the comparison.
 */
const USE_RECORDS: Record<string, string[]> = { app_passwords: ['last_used_utc'] };

/** A row as `[[column, value], ...]` in the table's column order (stable for `select *`). */
function canonicalRow(table: string, row: Record<string, unknown>): string {
  const skipped = USE_RECORDS[table] ?? [];
  return JSON.stringify(Object.entries(row).filter(([column]) => !skipped.includes(column)));
}

/** Reads all tables through the app's own connection (so it sees exactly what the app committed). */
export async function snapshotDatabase(storage: Storage): Promise<Snapshot> {
  const snapshot: Snapshot = {};
  for (const table of await tablesOf(storage)) {
    const result = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(storage.db);
    snapshot[table] = result.rows.map((row) => canonicalRow(table, row)).sort();
  }
  return snapshot;
}

/** The tables whose rows differ, with the rows only on one side: a readable failure message. */
export function snapshotDifference(before: Snapshot, after: Snapshot): string {
  const lines: string[] = [];
  for (const table of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const left = new Set(before[table] ?? []);
    const right = new Set(after[table] ?? []);
    const removed = [...left].filter((row) => !right.has(row));
    const added = [...right].filter((row) => !left.has(row));
    if (removed.length + added.length === 0 && (before[table]?.length ?? 0) === (after[table]?.length ?? 0)) continue;
    lines.push(`table ${table}:`, ...removed.map((row) => `  - ${row}`), ...added.map((row) => `  + ${row}`));
  }
  return lines.join('\n');
}

export function assertUnchanged(before: Snapshot, after: Snapshot, what: string): void {
  const difference = snapshotDifference(before, after);
  assert.equal(difference, '', `${what} changed the database:\n${difference}`);
}

type Row = Record<string, unknown>;

function rows(snapshot: Snapshot, table: string): Row[] {
  return (snapshot[table] ?? []).map((line) => Object.fromEntries(JSON.parse(line) as [string, unknown][]));
}

const KIND_TABLES = { event: 'events', venue: 'venues', organizer: 'organizers', media: 'media' } as const;

/** Statuses whose records must have a slug no other record of the kind has (20 §4.2, 10-events §6.1). */
const PUBLIC_SLUG_STATUSES = new Set(['publish', 'future', 'private']);

/**
 * What must hold after any sequence of requests, accepted or not: every shared id names exactly
 * one record of its kind, links point at records that exist, and slugs of non-draft records are
 * unique per kind. Returns the violations (empty when consistent).
 */
export function integrityViolations(snapshot: Snapshot): string[] {
  const problems: string[] = [];
  const objects = new Map(rows(snapshot, 'objects').map((row) => [Number(row.id), String(row.kind)]));
  const kindRows = new Map<string, Set<number>>();
  for (const [kind, table] of Object.entries(KIND_TABLES)) {
    const ids = new Set(rows(snapshot, table).map((row) => Number(row.id)));
    kindRows.set(kind, ids);
    for (const id of ids) if (objects.get(id) !== kind) problems.push(`${table} row ${id} has objects kind ${objects.get(id) ?? 'none'}`);
  }
  for (const [id, kind] of objects) {
    if (!kindRows.get(kind)?.has(id)) problems.push(`objects row ${id} (${kind}) has no ${KIND_TABLES[kind as keyof typeof KIND_TABLES] ?? kind} row`);
  }
  const termIds = new Set(rows(snapshot, 'terms').map((row) => Number(row.id)));
  for (const link of rows(snapshot, 'event_terms')) {
    if (!kindRows.get('event')!.has(Number(link.event_id))) problems.push(`event_terms links missing event ${link.event_id}`);
    if (!termIds.has(Number(link.term_id))) problems.push(`event_terms links missing term ${link.term_id}`);
  }
  for (const link of rows(snapshot, 'event_organizers')) {
    if (!kindRows.get('event')!.has(Number(link.event_id))) problems.push(`event_organizers links missing event ${link.event_id}`);
    if (!kindRows.get('organizer')!.has(Number(link.organizer_id))) problems.push(`event_organizers links missing organizer ${link.organizer_id}`);
  }
  for (const event of rows(snapshot, 'events')) {
    if (event.venue_id !== null && !kindRows.get('venue')!.has(Number(event.venue_id))) problems.push(`event ${event.id} links missing venue ${event.venue_id}`);
  }
  for (const table of ['events', 'venues', 'organizers']) {
    const seen = new Map<string, unknown>();
    for (const record of rows(snapshot, table)) {
      if (!PUBLIC_SLUG_STATUSES.has(String(record.status)) || record.slug === '') continue;
      const slug = String(record.slug);
      if (seen.has(slug)) problems.push(`${table} ${seen.get(slug)} and ${record.id} share the slug "${slug}"`);
      else seen.set(slug, record.id);
    }
  }
  return problems;
}

export function assertIntegrity(snapshot: Snapshot, what: string): void {
  const problems = integrityViolations(snapshot);
  assert.deepEqual(problems, [], `after ${what} the database is inconsistent:\n${problems.join('\n')}`);
}
