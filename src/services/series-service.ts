import type { Kysely } from 'kysely';
import { formatWall } from '../domain/dates/datetime-format.ts';
import { readWall, wallAt, wallMillis, writeWall } from '../domain/dates/wall-clock.ts';
import { resolveSchedule, type EventSchedule } from '../domain/events/schedule.ts';
import { expandRecurrence, hasSecondInstance, nominalEnd, type Expansion, type Instance } from '../domain/recurrence/expand.ts';
import { RecurrenceError } from '../domain/recurrence/recurrence-error.ts';
import { MAX_DATES, readRecurrence, type RecurrenceSpec } from '../domain/recurrence/recurrence-input.ts';
import { untilInZone } from '../domain/recurrence/rule.ts';
import { loadRecurrence, storeRecurrence } from '../domain/recurrence/series.ts';
import type { Database, EventRow } from '../storage/schema.ts';
import { SeriesRepository, type OccurrenceState } from '../storage/repositories/series-repository.ts';

export interface RecurrenceSettings {
  /** Occurrences exist up to now + this many months + 7 days (60 §4.1). */
  horizonMonths: number;
  /** Per series, from DTSTART to the horizon. */
  maxOccurrences: number;
}

/** The recurrence columns of a standalone event. */
export const NO_RECURRENCE = {
  is_series_master: 0,
  recurrence_key: null,
  recurrence_id: null,
  recurrence_rrule: null,
  recurrence_rdate: null,
  recurrence_exdate: null,
  recurrence_horizon: null,
  recurrence_complete: 0,
  recurrence_truncated: 0,
  overridden: null,
} as const;

/** The fields an occurrence may override (60 §6.1), and the columns each one covers. */
const OVERRIDABLE: Record<string, readonly (keyof EventRow)[]> = {
  title: ['title'],
  description: ['description'],
  excerpt: ['excerpt'],
  status: ['status', 'pre_trash_status'],
  date: ['date_local', 'date_utc'],
  password: ['password'],
  image: ['image_id'],
  cost: ['cost', 'currency_symbol', 'currency_position'],
  website: ['website'],
  show_map: ['show_map'],
  show_map_link: ['show_map_link'],
  hide_from_listings: ['hide_from_listings'],
  sticky: ['sticky'],
  featured: ['featured'],
  venue: ['venue_id'],
};
/** Series-level columns every occurrence always shows as the master has them. */
const SERIES_COLUMNS: readonly (keyof EventRow)[] = ['author', 'slug', 'pre_trash_slug', 'modified_local', 'modified_utc'];
/** Overrides that pin an occurrence's times: re-expansion leaves them where the user put them. */
const TIME_FIELDS = ['start_date', 'end_date', 'timezone', 'all_day'];
/** The field name an update parameter overrides (`date_utc` sets the same publication date as `date`). */
export function overrideName(field: string): string {
  return field === 'date_utc' ? 'date' : field;
}

export function overridesOf(row: { overridden: string | null }): string[] {
  return row.overridden === null ? [] : (JSON.parse(row.overridden) as string[]);
}

export function storedOverrides(names: Iterable<string>): string | null {
  const list = [...new Set(names)].sort();
  return list.length === 0 ? null : JSON.stringify(list);
}

const pinned = (row: { overridden: string | null }) => overridesOf(row).some((name) => TIME_FIELDS.includes(name));

/** A wall clock moved by the difference between two others (edits of an occurrence applied to its series). */
export function shiftWall(wall: string, from: string, to: string): string {
  return writeWall(wallAt(wallMillis(readWall(wall)) + wallMillis(readWall(to)) - wallMillis(readWall(from))));
}

/**
 * Series rules of 60 §3–§6 that touch storage: checking a recurrence, materialising its
 * occurrences with stable ids, copying the master's values into them, extending to the horizon.
 */
export class SeriesService {
  constructor(readonly settings: RecurrenceSettings) {}

  /** The last date occurrences exist on, seen at `now` (60 §4.1). */
  horizon(now: Date): string {
    const d = new Date(now.getTime());
    d.setUTCMonth(d.getUTCMonth() + this.settings.horizonMonths);
    d.setUTCDate(d.getUTCDate() + 7);
    return d.toISOString().slice(0, 10);
  }

  /** The `recurrence` input read in zone T (400 naming the reason on any §3.1 rule). */
  read(input: unknown, zone: string, now: Date): RecurrenceSpec {
    try {
      return readRecurrence(input, zone, now);
    } catch (error) {
      throw this.paramError(error);
    }
  }

  /** The instances of a recurrence for a series starting at `dtstart`, or a 400 (60 §3.1). */
  check(spec: RecurrenceSpec, zone: string, dtstart: string, now: Date): Expansion {
    try {
      const { rule } = spec;
      const cap = this.settings.maxOccurrences;
      if (rule?.until !== undefined && untilInZone(rule.until, zone) < dtstart) throw new RecurrenceError('recurrence-invalid-rule');
      if (rule?.count !== undefined && rule.count > cap) throw new RecurrenceError('recurrence-too-many-occurrences');
      if (rule !== null && spec.rdate.length === 0 && !hasSecondInstance(rule, zone, dtstart)) throw new RecurrenceError('recurrence-empty');
      const expansion = this.expand(spec, zone, dtstart, now);
      if (expansion.overCap) throw new RecurrenceError('recurrence-too-many-occurrences');
      return expansion;
    } catch (error) {
      throw this.paramError(error);
    }
  }

  private expand(spec: RecurrenceSpec, zone: string, dtstart: string, now: Date): Expansion {
    return expandRecurrence(spec, { zone, dtstart, horizonEnd: `${this.horizon(now)} 23:59:59`, cap: this.settings.maxOccurrences });
  }

  private paramError(error: unknown): Error {
    if (!(error instanceof RecurrenceError)) return error as Error;
    return new RecurrenceError(error.code, { cap: this.settings.maxOccurrences, max: MAX_DATES }).toParamError();
  }

  /** The master columns for a recurrence. */
  stored(spec: RecurrenceSpec, zone: string) {
    return { is_series_master: 1, ...storeRecurrence(spec, zone) };
  }

  /**
   * Makes the master's occurrences match `expansion` by recurrence key (60 §6.3): matched rows
   * keep their id (times follow unless pinned), new keys get new rows, vanished keys are deleted
   * (pure derivations) or trashed (exceptions). `expansion` null = the master's stored recurrence.
   * Answers the master's columns it wrote, for callers that answer with the master row they hold.
   */
  async materialise(db: Kysely<Database>, master: EventRow, now: Date, expansion?: Expansion): Promise<Pick<EventRow, 'recurrence_horizon' | 'recurrence_complete' | 'recurrence_truncated'>> {
    const spec = loadRecurrence(master);
    let plan = expansion ?? this.expand(spec, master.timezone, master.start_local, now);
    const cap = this.settings.maxOccurrences;
    const truncated = plan.overCap;
    if (truncated) plan = { ...plan, instances: plan.instances.slice(0, cap) };
    const series = new SeriesRepository(db);
    const existing = new Map((await series.occurrences(master.id)).map((row) => [row.recurrence_key, row]));
    const fresh: Instance[] = [];
    for (const instance of plan.instances) {
      const row = existing.get(instance.key);
      existing.delete(instance.key);
      if (row === undefined) fresh.push(instance);
      else await this.retime(series, master, row, instance);
    }
    const ids = await series.allocateIds(fresh.length);
    await series.insert(fresh.map((instance, i) => occurrenceRow(master, ids[i], instance)));
    if (ids.length > 0) await series.copyLinks(master.id, { organizers: true, categories: true, tags: true }, ids);
    await this.discard(series, [...existing.values()]);
    const columns = {
      recurrence_horizon: this.horizon(now),
      recurrence_complete: plan.complete ? 1 : 0,
      recurrence_truncated: truncated ? 1 : 0,
    };
    await series.update(master.id, columns);
    return columns;
  }

  private async retime(series: SeriesRepository, master: EventRow, row: OccurrenceState, instance: Instance): Promise<void> {
    if (pinned(row)) {
      if (row.recurrence_id !== instance.start) await series.update(row.id, { recurrence_id: instance.start });
      return;
    }
    const schedule = instanceSchedule(master, instance);
    if (row.start_local === schedule.start_local && row.end_local === schedule.end_local && row.timezone === schedule.timezone && row.recurrence_id === instance.start) return;
    await series.update(row.id, { ...schedule, all_day: master.all_day, recurrence_id: instance.start });
  }

  /** Occurrences no longer produced: derivations go, exceptions are kept in the trash. */
  private async discard(series: SeriesRepository, rows: OccurrenceState[]): Promise<void> {
    await series.delete(rows.filter((row) => row.overridden === null).map((row) => row.id));
    for (const row of rows) {
      if (row.overridden === null || row.status === 'trash') continue;
      // Its trash status is its own: later series edits must not bring it back.
      await series.update(row.id, { status: 'trash', pre_trash_status: row.status, overridden: storedOverrides([...overridesOf(row), 'status']) });
    }
  }

  /** 60 §6.4: the master becomes a standalone event; its occurrences go as in §6.3. */
  async dissolve(db: Kysely<Database>, masterId: number): Promise<void> {
    const series = new SeriesRepository(db);
    await this.discard(series, await series.occurrences(masterId));
    await series.update(masterId, NO_RECURRENCE);
  }

  /** Copies the master's values into every occurrence, field by field where it is not overridden. */
  async propagate(db: Kysely<Database>, master: EventRow, links: { organizers: boolean; categories: boolean; tags: boolean }): Promise<void> {
    const series = new SeriesRepository(db);
    await series.propagate(master.id, (overridden) => {
      const changes: Partial<EventRow> = {};
      const columns = [...SERIES_COLUMNS, ...Object.entries(OVERRIDABLE).filter(([name]) => !overridden.includes(name)).flatMap(([, cols]) => cols)];
      for (const column of columns) (changes as Record<string, unknown>)[column] = master[column];
      return changes;
    });
    if (links.organizers || links.categories || links.tags) await series.copyLinks(master.id, links);
  }

  /**
   * 60 §6.1/§6.2 `following`: the master's recurrence ended just before `start` (a COUNT reduced
   * to the instances kept, else UNTIL one second before), and the remainder for a new series
   * from `start` (a COUNT becomes what is left); added and excluded dates go with their side.
   */
  split(master: EventRow, start: string): { before: RecurrenceSpec; after: RecurrenceSpec } {
    const spec = loadRecurrence(master);
    const rule = spec.rule;
    const side = (dates: string[], later: boolean) => dates.filter((date) => (date.length === 10 ? `${date} 23:59:59` : date) >= start === later);
    let before = rule;
    let after = rule;
    if (rule !== null && rule.count !== undefined) {
      const kept = expandRecurrence({ rule, rdate: [], exdate: [] }, { zone: master.timezone, dtstart: master.start_local, horizonEnd: start, cap: rule.count })
        .instances.filter((instance) => instance.start < start).length;
      before = { ...rule, count: Math.max(kept, 1) };
      after = { ...rule, count: Math.max(rule.count - kept, 1) };
    } else if (rule !== null) {
      before = { ...rule, until: { wall: shiftWall(start, '2000-01-01 00:00:01', '2000-01-01 00:00:00'), utc: false } };
    }
    return {
      before: { rule: before, rdate: side(spec.rdate, false), exdate: side(spec.exdate, false) },
      after: { rule: after, rdate: side(spec.rdate, true), exdate: side(spec.exdate, true) },
    };
  }

  /**
   * The dates a recurrence would give an event of this schedule, without writing anything (the
   * back office's "preview dates", 100 §8.4): the same reading, checks (400 naming the reason)
   * and instance times as a create; the first `limit` ending after `now`, and how many exist up
   * to the horizon.
   */
  preview(input: unknown, schedule: EventSchedule & { allDay: boolean }, now: Date, limit: number): { dates: EventSchedule[]; total: number } {
    const spec = this.read(input, schedule.timezone, now);
    const expansion = this.check(spec, schedule.timezone, schedule.start_local, now);
    const master = { timezone: schedule.timezone, start_local: schedule.start_local, end_local: schedule.end_local, all_day: schedule.allDay ? 1 : 0 };
    const all = expansion.instances.map((instance) => instanceSchedule(master, instance));
    const upcoming = all.filter((date) => date.end_utc > formatWall(now));
    // A series wholly in the past shows its first dates instead of nothing.
    return { dates: (upcoming.length > 0 ? upcoming : all).slice(0, limit), total: all.length };
  }

  /** Adds or removes an original start in the master's `exdate` (trash and restore of one occurrence, 60 §6.2). */
  async setExcluded(db: Kysely<Database>, master: EventRow, start: string, excluded: boolean): Promise<void> {
    const spec = loadRecurrence(master);
    const exdate = excluded ? [...spec.exdate, start] : spec.exdate.filter((entry) => entry !== start);
    await new SeriesRepository(db).update(master.id, storeRecurrence({ ...spec, exdate }, master.timezone));
  }
}

function instanceSchedule(master: Pick<EventRow, 'timezone' | 'start_local' | 'end_local' | 'all_day'>, instance: Instance): EventSchedule {
  return resolveSchedule({
    zone: master.timezone,
    start: instance.start,
    end: nominalEnd(master.start_local, master.end_local, instance.start),
    allDay: master.all_day === 1,
  });
}

/** A new occurrence: the master's values, the instance's times, and its key (60 §2). */
function occurrenceRow(master: EventRow, id: number, instance: Instance): EventRow {
  return {
    ...master,
    ...instanceSchedule(master, instance),
    ...NO_RECURRENCE,
    id,
    post_parent: master.id,
    recurrence_key: instance.key,
    recurrence_id: instance.start,
  };
}
