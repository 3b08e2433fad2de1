import { eventBody, sourceId, type IdLookup, type SourceRecord } from './records.ts';
import { errorMessage, SourceRequestError, type SourceClient } from './source.ts';

/** Entries per feed page (the feed's own maximum). */
const FEED_PAGE = 500;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A series master as this service renders it: the event that carries `recurrence` (60 §5). */
export function isSeriesMaster(record: SourceRecord): boolean {
  return isRecord(record.recurrence);
}

export function seriesOf(record: SourceRecord): number {
  return Number(record.post_parent ?? 0);
}

/**
 * Every event the source's change feed knows, as it stands now (80 §3.1 `include=object,hidden`,
 * read from the earliest retained entry as an editor or administrator): hidden events and series
 * masters included, which no list shows. The last entry of a record decides: an upsert with its
 * object keeps it, a remove (or an upsert whose record is gone by now) drops it.
 */
export async function feedEvents(client: SourceClient, root: string): Promise<{ records: Map<number, SourceRecord>; failure?: string }> {
  const records = new Map<number, SourceRecord>();
  const query = `include=object,hidden&types=event&limit=${FEED_PAGE}`;
  let url = `${root}/changes?start=earliest&${query}`;
  for (;;) {
    let response;
    try {
      response = await client.getJson(url);
    } catch (error) {
      if (!(error instanceof SourceRequestError)) throw error;
      return { records, failure: error.message };
    }
    const body = response.body;
    if (response.status !== 200 || !isRecord(body) || !Array.isArray(body.changes) || typeof body.next_cursor !== 'string') {
      return { records, failure: `the change feed answered ${response.status}: ${errorMessage(response)}` };
    }
    for (const entry of body.changes as unknown[]) {
      if (!isRecord(entry) || !Number.isInteger(entry.id)) continue;
      if (entry.effect === 'upsert' && isRecord(entry.object)) records.set(Number(entry.id), entry.object);
      else records.delete(Number(entry.id));
    }
    if (body.has_more !== true) return { records };
    url = `${root}/changes?cursor=${encodeURIComponent(body.next_cursor)}&${query}`;
  }
}

/** The events to copy from this service: standalone events and masters, and each series' occurrences. */
export interface EventPlan {
  /** Standalone events and series masters, each copied as a record. */
  records: SourceRecord[];
  /** The occurrences of each master (by its source id), copied into the local series. */
  occurrences: Map<number, SourceRecord[]>;
  /** Masters whose occurrences were seen but not they themselves (read by id next). */
  missingMasters: number[];
}

/** Splits the source's events (lists and feed together, first seen wins) into records and series members. */
export function planEvents(events: Iterable<SourceRecord>): EventPlan {
  const byId = new Map<number, SourceRecord>();
  for (const event of events) if (!byId.has(sourceId(event))) byId.set(sourceId(event), event);
  const records: SourceRecord[] = [];
  const occurrences = new Map<number, SourceRecord[]>();
  for (const event of byId.values()) {
    const master = seriesOf(event);
    if (master === 0) {
      records.push(event);
      continue;
    }
    occurrences.set(master, [...(occurrences.get(master) ?? []), event]);
  }
  const missingMasters = [...occurrences.keys()].filter((id) => !byId.has(id));
  return { records, occurrences, missingMasters };
}

/** Fields that belong to the series as a whole, never an occurrence's own (60 §2, §6.1). */
const SERIES_LEVEL = new Set(['slug', 'date_utc', 'start_date', 'end_date']);

function minutes(wall: unknown): number {
  return Date.parse(`${String(wall).replace(' ', 'T')}Z`) / 60_000;
}

/**
 * What an edited or moved occurrence (`recurrence_exception`) holds of its own: the fields whose
 * copy-body differs from its master's, and its dates when it was moved from its place in the rule
 * (its start is not its `recurrence_id`) or lasts another time than the master. Sent as an update
 * of the local occurrence (scope `this`), these become its overrides, as they are in the source.
 */
export function occurrenceOverrides(occurrence: SourceRecord, master: SourceRecord, ids: IdLookup): Record<string, unknown> {
  const own = eventBody(occurrence, ids);
  const inherited = eventBody(master, ids);
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(own)) {
    if (!SERIES_LEVEL.has(key) && JSON.stringify(value) !== JSON.stringify(inherited[key])) body[key] = value;
  }
  const moved = occurrence.start_date !== occurrence.recurrence_id;
  const length = (event: SourceRecord) => minutes(event.end_date) - minutes(event.start_date);
  if (moved || length(occurrence) !== length(master)) Object.assign(body, { start_date: occurrence.start_date, end_date: occurrence.end_date });
  return body;
}
