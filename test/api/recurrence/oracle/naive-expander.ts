/**
 * A deliberately naive RFC 5545 expander, the oracle of the recurrence property test. It shares
 * no code with src/: it walks every day from the first FREQ period of DTSTART on, asks of each
 * day and time whether the rule admits it, and resolves wall clocks in the zone with Intl alone.
 * Slow and obvious on purpose: it has to be easy to check by reading.
 */

export type Freq = 'HOURLY' | 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';
export const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'] as const;

export interface OracleRule {
  freq: Freq;
  interval: number;
  byMonth?: number[];
  byMonthDay?: number[];
  /** `[ordinal or 0, weekday index 0 = SU]`. */
  byDay?: Array<[number, number]>;
  byYearDay?: number[];
  byWeekNo?: number[];
  byHour?: number[];
  byMinute?: number[];
  bySetPos?: number[];
  wkst: number;
  count?: number;
  /** The last wall clock in T the rule may yield (a UTC UNTIL is given as `untilUtc` instead). */
  untilWall?: string;
  untilUtc?: string;
}

export interface OracleSeries {
  zone: string;
  allDay: boolean;
  /** Wall clocks in T, `YYYY-MM-DD HH:MM:SS`. */
  dtstart: string;
  dtend: string;
  rule: OracleRule | null;
  /** Added starts as wall clocks in T. */
  rdate: string[];
  /** Excluded starts as wall clocks in T, or whole local dates (`YYYY-MM-DD`). */
  exdate: string[];
  /** Instances start on or before this wall clock. */
  horizonEnd: string;
}

export interface OracleInstance {
  start: string;
  end: string;
  utcStart: string;
  utcEnd: string;
}

// ---- calendar arithmetic on day numbers (days since 1970-01-01, a Thursday) ----

const DAY = 86_400_000;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function dayNumber(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY;
}

export function dateOf(day: number): string {
  const d = new Date(day * DAY);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

const weekdayOf = (day: number) => (((day + 4) % 7) + 7) % 7;

interface CalendarDay {
  year: number;
  month: number;
  dayOfMonth: number;
  monthStart: number;
  monthLength: number;
  yearStart: number;
  yearLength: number;
}
// Every series asks about the same days again: their calendar fields are worked out once.
const calendarDays = new Map<number, CalendarDay>();
function calendar(day: number): CalendarDay {
  let known = calendarDays.get(day);
  if (!known) {
    const d = new Date(day * DAY);
    const year = d.getUTCFullYear();
    const month = d.getUTCMonth() + 1;
    const monthStart = Date.UTC(year, month - 1, 1) / DAY;
    const yearStart = Date.UTC(year, 0, 1) / DAY;
    known = { year, month, dayOfMonth: d.getUTCDate(), monthStart, monthLength: Date.UTC(year, month, 1) / DAY - monthStart, yearStart, yearLength: Date.UTC(year + 1, 0, 1) / DAY - yearStart };
    calendarDays.set(day, known);
  }
  return known;
}
const yearOf = (day: number) => calendar(day).year;
const monthOf = (day: number) => calendar(day).month;
const dayOfMonth = (day: number) => calendar(day).dayOfMonth;
const firstOfYear = (year: number) => Date.UTC(year, 0, 1) / DAY;

/** The day starting week 1 of `year`: the first week with at least four days of the year, weeks starting on WKST. */
function weekOneStart(year: number, wkst: number): number {
  const jan1 = firstOfYear(year);
  const back = (weekdayOf(jan1) - wkst + 7) % 7;
  const weekStart = jan1 - back;
  return 7 - back >= 4 ? weekStart : weekStart + 7;
}

/** The week number of a day and the count of weeks in its week-numbering year (RFC 5545 BYWEEKNO). */
function weekNumberOf(day: number, wkst: number): { week: number; weeks: number } {
  let year = yearOf(day);
  if (day >= weekOneStart(year + 1, wkst)) year += 1;
  else if (day < weekOneStart(year, wkst)) year -= 1;
  const start = weekOneStart(year, wkst);
  return { week: Math.floor((day - start) / 7) + 1, weeks: (weekOneStart(year + 1, wkst) - start) / 7 };
}

/** Whether `value` is named by a list of signed positions counted in a span of `length`. */
const named = (list: number[], value: number, length: number) => list.some((n) => (n > 0 ? n : length + 1 + n) === value);

// ---- membership ----

/** The date parts RFC 5545 takes from DTSTART when the rule gives none (as python-dateutil and libical read it). */
function withDefaults(rule: OracleRule, dtstartDay: number): OracleRule {
  if (rule.byWeekNo || rule.byYearDay || rule.byMonthDay || rule.byDay) return rule;
  if (rule.freq === 'WEEKLY') return { ...rule, byDay: [[0, weekdayOf(dtstartDay)]] };
  if (rule.freq === 'MONTHLY') return { ...rule, byMonthDay: [dayOfMonth(dtstartDay)] };
  if (rule.freq === 'YEARLY') return { ...rule, byMonth: rule.byMonth ?? [monthOf(dtstartDay)], byMonthDay: [dayOfMonth(dtstartDay)] };
  return rule;
}

function admitsDay(rule: OracleRule, day: number): boolean {
  const { year, month, monthStart, monthLength, yearStart, yearLength } = calendar(day);
  if (rule.byMonth && !rule.byMonth.includes(month)) return false;
  if (rule.byWeekNo) {
    const { week, weeks } = weekNumberOf(day, rule.wkst);
    if (!named(rule.byWeekNo, week, weeks)) return false;
  }
  if (rule.byYearDay && !named(rule.byYearDay, day - yearStart + 1, yearLength)) return false;
  if (rule.byMonthDay && !named(rule.byMonthDay, dayOfMonth(day), monthLength)) return false;
  if (rule.byDay) {
    // An ordinal counts within the month for MONTHLY, and for YEARLY with BYMONTH; else within the year.
    const inMonth = rule.freq === 'MONTHLY' || (rule.freq === 'YEARLY' && rule.byMonth !== undefined);
    const [spanStart, spanLength] = inMonth ? [monthStart, monthLength] : [yearStart, yearLength];
    const weekday = weekdayOf(day);
    const ok = rule.byDay.some(([ordinal, wd]) => {
      if (wd !== weekday) return false;
      if (ordinal === 0) return true;
      const nth = ordinal > 0 ? Math.floor((day - spanStart) / 7) + 1 : Math.floor((spanStart + spanLength - 1 - day) / 7) + 1;
      return nth === Math.abs(ordinal);
    });
    if (!ok) return false;
  }
  return true;
}

/** Index of the FREQ period a day and hour fall in, counted so that DTSTART's period is 0. */
function periodIndex(rule: OracleRule, day: number, hour: number, dtstartDay: number, dtstartHour: number): number {
  if (rule.freq === 'HOURLY') return (day - dtstartDay) * 24 + hour - dtstartHour;
  if (rule.freq === 'DAILY') return day - dtstartDay;
  if (rule.freq === 'WEEKLY') {
    const weekStart = (d: number) => d - ((weekdayOf(d) - rule.wkst + 7) % 7);
    return (weekStart(day) - weekStart(dtstartDay)) / 7;
  }
  if (rule.freq === 'MONTHLY') return (yearOf(day) - yearOf(dtstartDay)) * 12 + monthOf(day) - monthOf(dtstartDay);
  return yearOf(day) - yearOf(dtstartDay);
}

/**
 * Every local start the rule generates from DTSTART (DTSTART first, counted by COUNT), up to
 * `lastDay`: each day of each period is tried, a period's admitted starts are sorted and BYSETPOS
 * picks among them, then starts before DTSTART are dropped.
 */
export function ruleStarts(rule: OracleRule, dtstart: string, lastDay: number, stopAfter = Infinity): string[] {
  const dtstartDay = dayNumber(dtstart.slice(0, 10));
  const effective = withDefaults(rule, dtstartDay);
  const time = dtstart.slice(11);
  const dtstartHour = Number(time.slice(0, 2));
  const everyHour = Array.from({ length: 24 }, (_, h) => h);
  const hours = rule.byHour ?? (rule.freq === 'HOURLY' ? everyHour : [dtstartHour]);
  const minutes = rule.byMinute ?? [Number(time.slice(3, 5))];
  const seconds = time.slice(6, 8);
  const times = hours.flatMap((h) => minutes.map((m) => ({ hour: h, time: `${pad(h)}:${pad(m)}:${seconds}` }))).sort((a, b) => (a.time < b.time ? -1 : 1));
  const out = [dtstart];
  let period: string[] = [];
  let periodNumber = Number.NaN;
  const flush = () => {
    let chosen = period;
    if (rule.bySetPos) {
      const picked = new Set(rule.bySetPos.map((n) => period[n > 0 ? n - 1 : period.length + n]).filter((v) => v !== undefined));
      chosen = [...picked].sort();
    }
    for (const start of chosen) if (start > dtstart && out.length < stopAfter) out.push(start);
    period = [];
  };
  // Start a year early: a WEEKLY, MONTHLY or YEARLY period may begin before DTSTART (BYSETPOS counts from there).
  walk: for (let day = dtstartDay - 366; day <= lastDay + 366 && out.length < stopAfter; day++) {
    const admitted = admitsDay(effective, day);
    for (const { hour, time: t } of times) {
      const index = periodIndex(rule, day, hour, dtstartDay, dtstartHour);
      if (index !== periodNumber) {
        flush();
        periodNumber = index;
        if (day > lastDay) break walk;
      }
      if (admitted && index >= 0 && index % rule.interval === 0) period.push(`${dateOf(day)} ${t}`);
    }
  }
  flush();
  return out;
}

// ---- wall clocks and instants in a zone, with Intl only ----

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's UTC offset in minutes at an instant. */
export function offsetAt(zone: string, millis: number): number {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formatters.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(millis).map((part) => [part.type, part.value]));
  const local = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return Math.round((local - Math.floor(millis / 1000) * 1000) / 60_000);
}

const wallAsUtc = (wall: string) => Date.parse(`${wall.replace(' ', 'T')}Z`);
const writeInstant = (millis: number) => new Date(millis).toISOString().slice(0, 19).replace('T', ' ');

/**
 * 60 §4 step 6: a wall clock that does not exist is read with the offset before the gap (it moves
 * forward); one that exists twice takes the offset in force at the wall clock read as UTC.
 */
export function wallToUtc(wall: string, zone: string): string {
  const local = wallAsUtc(wall);
  const offsets = new Set([offsetAt(zone, local - 2 * DAY), offsetAt(zone, local), offsetAt(zone, local + 2 * DAY)]);
  const instants = [...offsets].filter((offset) => offsetAt(zone, local - offset * 60_000) === offset);
  if (instants.length === 1) return writeInstant(local - instants[0]! * 60_000);
  if (instants.length === 0) return writeInstant(local - offsetAt(zone, local - 2 * DAY) * 60_000);
  const asUtc = offsetAt(zone, local);
  if (!instants.includes(asUtc)) throw new Error(`oracle: no rule for ${wall} in ${zone}`);
  return writeInstant(local - asUtc * 60_000);
}

export function utcToWall(utc: string, zone: string): string {
  const millis = wallAsUtc(utc);
  return writeInstant(millis + offsetAt(zone, millis) * 60_000);
}

const addWall = (wall: string, millis: number) => writeInstant(wallAsUtc(wall) + millis);

// ---- the recurrence set ----

/** The last day a rule can reach: its UNTIL, else the horizon. */
function lastDayOf(rule: OracleRule, series: OracleSeries): number {
  const until = rule.untilUtc !== undefined ? utcToWall(rule.untilUtc, series.zone) : rule.untilWall;
  const horizon = dayNumber(series.horizonEnd.slice(0, 10));
  return until === undefined ? horizon : Math.min(horizon, dayNumber(until.slice(0, 10)));
}

function withinUntil(rule: OracleRule, zone: string, start: string): boolean {
  if (rule.untilUtc !== undefined) return wallToUtc(start, zone) <= rule.untilUtc;
  return rule.untilWall === undefined || start <= rule.untilWall;
}

/** The rule's starts up to the horizon, DTSTART first, bounded by COUNT and UNTIL. */
export function boundedRuleStarts(series: OracleSeries): string[] {
  if (series.rule === null) return [series.dtstart];
  const rule = series.rule;
  const starts = ruleStarts(rule, series.dtstart, lastDayOf(rule, series), rule.count ?? Infinity);
  return starts.filter((start, i) => i === 0 || (withinUntil(rule, series.zone, start) && start <= series.horizonEnd));
}

/**
 * Whether the rule yields anything besides DTSTART, looking to the end of the century after it
 * (60 §3.1 `recurrence-empty`).
 */
export function ruleIsEmpty(series: OracleSeries): boolean {
  const rule = series.rule;
  if (rule === null) return true;
  const year = Number(series.dtstart.slice(0, 4)) + 100;
  const lastDay = dayNumber(`${year}-12-31`);
  const until = rule.untilUtc !== undefined ? utcToWall(rule.untilUtc, series.zone) : rule.untilWall;
  const end = until === undefined ? lastDay : Math.min(lastDay, dayNumber(until.slice(0, 10)));
  const starts = ruleStarts(rule, series.dtstart, end, Math.min(rule.count ?? 2, 2));
  return !starts.slice(1).some((start) => withinUntil(rule, series.zone, start));
}

/**
 * RFC 5545 §3.8.5: the rule's starts and RDATEs as a set, minus the EXDATEs. Members are
 * instants: two wall clocks that name the same instant (one in a DST gap, the other after it)
 * are one instance, shown at the earlier wall clock.
 */
export function expandSeries(series: OracleSeries): OracleInstance[] {
  const { zone } = series;
  const byInstant = new Map<string, string>();
  for (const start of [...boundedRuleStarts(series), ...series.rdate].sort()) {
    const utc = wallToUtc(start, zone);
    if (!byInstant.has(utc)) byInstant.set(utc, start);
  }
  const excludedInstants = new Set(series.exdate.filter((e) => e.length > 10).map((e) => wallToUtc(e, zone)));
  const excludedDates = new Set(series.exdate.filter((e) => e.length === 10));
  const duration = wallAsUtc(series.dtend) - wallAsUtc(series.dtstart);
  return [...byInstant]
    .filter(([utc, start]) => !excludedInstants.has(utc) && !excludedDates.has(start.slice(0, 10)))
    .map(([utcStart, start]) => {
      const end = addWall(start, duration);
      return { start, end, utcStart, utcEnd: wallToUtc(end, zone) };
    })
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
}
