import fc from 'fast-check';
import { boundedRuleStarts, dateOf, dayNumber, utcToWall, wallToUtc, WEEKDAYS, type Freq, type OracleRule, type OracleSeries } from './naive-expander.ts';

/**
 * Random series for the recurrence property test, limited to what 60 §3 accepts (the parts
 * RFC 5545 forbids for a frequency are refused and tested in validation.test.ts), each with the
 * create body the API gets and the same series in the oracle's terms.
 */

export const ZONES = ['America/New_York', 'Europe/Rome', 'Australia/Lord_Howe', 'UTC'] as const;

/** DST changes of each zone in the generated span, where starts, RDATEs and EXDATEs are drawn often. */
const TRANSITIONS: Record<string, string[]> = {
  'America/New_York': ['2025-11-02', '2026-03-08', '2026-11-01', '2027-03-14', '2027-11-07', '2028-03-12'],
  'Europe/Rome': ['2025-10-26', '2026-03-29', '2026-10-25', '2027-03-28', '2027-10-31', '2028-03-26'],
  'Australia/Lord_Howe': ['2025-10-05', '2026-04-05', '2026-10-04', '2027-04-04', '2027-10-03', '2028-04-02'],
  UTC: ['2026-02-28', '2027-02-28', '2028-02-29'],
};
/** Hours and minutes in or next to the changed hour (Lord Howe moves by half an hour from 02:00). */
const DST_TIMES = ['00:30', '01:00', '01:30', '01:45', '02:00', '02:15', '02:30', '02:45', '03:00', '03:30'];

const FIRST_DAY = dayNumber('2025-09-01');
const LAST_DAY = dayNumber('2028-09-30');

const pad = (n: number) => String(n).padStart(2, '0');
const compact = (wall: string) => wall.replace(/[-:]/g, '').replace(' ', 'T');

const timeArb = fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...DST_TIMES) }, { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 15, 30, 45)).map(([h, m]) => `${pad(h)}:${pad(m)}`) });

/** A day: anywhere in the span, or at (a week or a year before) a DST change of the zone. */
const dayArb = (zone: string) =>
  fc.oneof(
    { weight: 1, arbitrary: fc.integer({ min: FIRST_DAY, max: LAST_DAY }) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...TRANSITIONS[zone]!), fc.constantFrom(0, 0, 0, -1, -7, -7, -14, -28, -364, 1)).map(([date, shift]) => dayNumber(date) + shift) },
  );

/** `arbitrary` in about one draw of `oneIn`, else null (fc.option's `freq` is the other way round). */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, oneIn: number) =>
  fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });

const signedList = (values: number[], max: number) => fc.uniqueArray(fc.constantFrom(...values), { minLength: 1, maxLength: max });

const byDayArb = (ordinals: boolean) =>
  fc.uniqueArray(
    fc.tuple(ordinals ? fc.constantFrom(0, 0, 1, 2, 3, 4, 5, -1, -2, -5) : fc.constant(0), fc.integer({ min: 0, max: 6 })),
    { minLength: 1, maxLength: 3, selector: ([, wd]) => wd },
  );

function ruleArb(freq: Freq, timed: boolean): fc.Arbitrary<Omit<OracleRule, 'count' | 'untilWall' | 'untilUtc'>> {
  const monthly = freq === 'MONTHLY' || freq === 'YEARLY';
  const hourly = freq === 'HOURLY';
  return fc
    .record(
      {
        interval: freq === 'YEARLY' ? fc.constantFrom(1, 1, 2) : hourly ? fc.constantFrom(1, 2, 5, 12) : fc.constantFrom(1, 1, 2, 3),
        byMonth: sometimes(fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 4 }), freq === 'YEARLY' ? 2 : 4),
        byMonthDay: freq === 'WEEKLY' ? fc.constant(null) : sometimes(signedList([1, 2, 13, 15, 28, 29, 30, 31, -1, -2, -3, -7, -29, -31], 2), 3),
        byDay: sometimes(byDayArb(monthly), 2),
        byYearDay: freq === 'YEARLY' ? sometimes(signedList([1, 59, 60, 100, 200, 365, 366, -1, -306, -366], 2), 8) : fc.constant(null),
        byWeekNo: freq === 'YEARLY' ? sometimes(signedList([1, 2, 20, 52, 53, -1, -2], 2), 8) : fc.constant(null),
        byHour: timed ? sometimes(fc.uniqueArray(fc.constantFrom(0, 1, 2, 3, 9, 23), { minLength: 1, maxLength: hourly ? 4 : 2 }), hourly ? 2 : 6) : fc.constant(null),
        byMinute: timed ? sometimes(fc.uniqueArray(fc.constantFrom(0, 15, 30, 45), { minLength: 1, maxLength: 2 }), 8) : fc.constant(null),
        bySetPos: sometimes(signedList([1, 2, 3, -1, -2], 2), 6),
        wkst: sometimes(fc.integer({ min: 0, max: 6 }), 4),
        wideOrdinal: freq === 'YEARLY' ? sometimes(fc.constantFrom(20, -20, 53), 6) : fc.constant(null),
      },
    )
    .map((r) => {
      let byDay: Array<[number, number]> | undefined = r.byDay ?? undefined;
      // RFC 5545: no BYDAY ordinal with BYWEEKNO; ordinals past 5 only count within a year.
      if (r.byWeekNo) byDay = (byDay ?? [[0, 1]]).map(([, wd]) => [0, wd] as [number, number]);
      if (r.wideOrdinal && !r.byMonth && !r.byWeekNo && byDay) byDay = [[r.wideOrdinal, byDay[0]![1]], ...byDay.slice(1)];
      const rule: OracleRule = {
        freq,
        interval: r.interval,
        byMonth: r.byMonth ?? undefined,
        byMonthDay: r.byMonthDay ?? undefined,
        byDay,
        byYearDay: r.byYearDay ?? undefined,
        byWeekNo: r.byWeekNo ?? undefined,
        byHour: r.byHour ?? undefined,
        byMinute: r.byMinute ?? undefined,
        wkst: r.wkst ?? 1,
      };
      // BYSETPOS only beside another BYxxx part (RFC 5545).
      const hasBy = rule.byMonth || rule.byMonthDay || rule.byDay || rule.byYearDay || rule.byWeekNo || rule.byHour || rule.byMinute;
      if (r.bySetPos && hasBy) rule.bySetPos = r.bySetPos;
      return rule;
    });
}

/** The RRULE text of a rule (without COUNT/UNTIL). */
export function rruleText(rule: OracleRule): string {
  const parts = [`FREQ=${rule.freq}`];
  if (rule.interval !== 1) parts.push(`INTERVAL=${rule.interval}`);
  const list = (name: string, values?: number[]) => values && parts.push(`${name}=${values.join(',')}`);
  list('BYMONTH', rule.byMonth);
  list('BYWEEKNO', rule.byWeekNo);
  list('BYYEARDAY', rule.byYearDay);
  list('BYMONTHDAY', rule.byMonthDay);
  if (rule.byDay) parts.push(`BYDAY=${rule.byDay.map(([n, wd]) => `${n === 0 ? '' : n}${WEEKDAYS[wd]}`).join(',')}`);
  list('BYHOUR', rule.byHour);
  list('BYMINUTE', rule.byMinute);
  list('BYSETPOS', rule.bySetPos);
  // MO is the default week start.
  if (rule.wkst !== 1) parts.push(`WKST=${WEEKDAYS[rule.wkst]}`);
  return parts.join(';');
}

type DateForm = 'tzid' | 'utc' | 'object' | 'date';
/** An RDATE or EXDATE, drawn before the rule is known: a rule instance, a DST-change wall clock, or any day. */
interface DateDraw {
  kind: 'instance' | 'dst' | 'day';
  index: number;
  day: number;
  time: string;
  form: DateForm;
}

const dateDrawArb = (zone: string) =>
  fc.record({
    kind: fc.constantFrom('instance', 'instance', 'dst', 'day') as fc.Arbitrary<DateDraw['kind']>,
    index: fc.nat({ max: 40 }),
    day: fc.constantFrom(...TRANSITIONS[zone]!.map(dayNumber)),
    time: fc.constantFrom(...DST_TIMES),
    form: fc.constantFrom('tzid', 'tzid', 'utc', 'object', 'date') as fc.Arbitrary<DateForm>,
  });

export interface SeriesDraw {
  zone: string;
  allDay: boolean;
  day: number;
  time: string;
  /** Minutes for a timed series, whole extra days for an all-day one. */
  length: number;
  freq: Freq;
  rule: Omit<OracleRule, 'count' | 'untilWall' | 'untilUtc'>;
  end: { kind: 'count'; count: number } | { kind: 'until'; days: number; time: string; form: 'utc' | 'floating' | 'date' } | { kind: 'none' };
  rdate: DateDraw[];
  exdate: DateDraw[];
  /** The recurrence as RFC 5545 lines (Google style) or as the canonical object. */
  lines: boolean;
}

export const seriesDrawArb: fc.Arbitrary<SeriesDraw> = fc
  .record({ zone: fc.constantFrom(...ZONES), allDay: fc.boolean(), freq: fc.constantFrom<Freq>('HOURLY', 'DAILY', 'DAILY', 'WEEKLY', 'WEEKLY', 'MONTHLY', 'MONTHLY', 'YEARLY', 'YEARLY') })
  // HOURLY series are timed: an all-day event has no hours.
  .map((draw) => (draw.freq === 'HOURLY' ? { ...draw, allDay: false } : draw))
  .chain(({ zone, allDay, freq }) =>
    fc.record({
      zone: fc.constant(zone),
      allDay: fc.constant(allDay),
      day: dayArb(zone),
      time: allDay ? fc.constant('00:00') : timeArb,
      length: allDay ? fc.constantFrom(0, 0, 1) : fc.constantFrom(30, 60, 90, 150, 1440),
      freq: fc.constant(freq),
      rule: ruleArb(freq, !allDay),
      end: fc.oneof(
        fc.record({ kind: fc.constant('count' as const), count: fc.integer({ min: 1, max: 14 }) }),
        fc.record({
          kind: fc.constant('until' as const),
          days: fc.integer({ min: 0, max: { HOURLY: 3, DAILY: 40, WEEKLY: 120, MONTHLY: 400, YEARLY: 1200 }[freq] }),
          time: timeArb,
          form: fc.constantFrom('utc' as const, 'floating' as const, 'date' as const),
        }),
        // An open-ended HOURLY rule passes the cap before the horizon.
        fc.constant(freq === 'HOURLY' ? { kind: 'count' as const, count: 3 } : { kind: 'none' as const }),
      ),
      rdate: fc.array(dateDrawArb(zone), { maxLength: 3 }),
      exdate: fc.array(dateDrawArb(zone), { maxLength: 3 }),
      lines: fc.boolean(),
    }),
  );

export interface DrawnSeries {
  /** The POST body. */
  body: Record<string, unknown>;
  /** The same series in the oracle's terms. */
  oracle: OracleSeries;
}

/** A draw made concrete: DTSTART, the bound, and the RDATE/EXDATE values in the form drawn. */
export function drawnSeries(draw: SeriesDraw, horizonEnd: string): DrawnSeries {
  const { zone, allDay } = draw;
  const dtstart = `${dateOf(draw.day)} ${draw.time}:00`;
  const dtend = allDay ? `${dateOf(draw.day + draw.length)} 23:59:59` : new Date(Date.parse(`${dtstart.replace(' ', 'T')}Z`) + draw.length * 60_000).toISOString().slice(0, 19).replace('T', ' ');
  const rule: OracleRule = { ...draw.rule };
  let bound = '';
  if (draw.end.kind === 'count') {
    rule.count = draw.end.count;
    bound = `;COUNT=${draw.end.count}`;
  } else if (draw.end.kind === 'until') {
    const untilDate = dateOf(draw.day + draw.end.days);
    if (draw.end.form === 'date') {
      rule.untilWall = `${untilDate} 23:59:59`;
      bound = `;UNTIL=${compact(untilDate)}`;
    } else {
      const wall = `${untilDate} ${draw.end.time}:00`;
      if (draw.end.form === 'floating') rule.untilWall = wall;
      else rule.untilUtc = wallToUtc(wall, zone);
      bound = `;UNTIL=${compact(draw.end.form === 'floating' ? wall : rule.untilUtc!)}${draw.end.form === 'utc' ? 'Z' : ''}`;
    }
  }
  const oracle: OracleSeries = { zone, allDay, dtstart: allDay ? `${dateOf(draw.day)} 00:00:00` : dtstart, dtend, rule, rdate: [], exdate: [], horizonEnd };
  const instances = boundedRuleStarts(oracle);
  const rrule = `${rruleText(rule)}${bound}`;
  const lines = [`RRULE:${rrule}`];
  const object = { rrule, rdate: [] as string[], exdate: [] as string[] };
  const add = (name: 'RDATE' | 'EXDATE', draws: DateDraw[]) => {
    const target = name === 'RDATE' ? oracle.rdate : oracle.exdate;
    for (const d of draws) {
      let wall = d.kind === 'instance' ? instances[d.index % instances.length]! : `${dateOf(d.kind === 'dst' ? d.day : draw.day + 1 + d.index * 5)} ${d.time}:00`;
      // All-day series have instances at midnight only; an RDATE before DTSTART or past the horizon is not drawn.
      if (allDay) wall = `${wall.slice(0, 10)} 00:00:00`;
      if (name === 'RDATE' && (wall <= oracle.dtstart || wall > horizonEnd)) continue;
      // A date-only RDATE is an instance at DTSTART's time: drawn for all-day series only.
      const form = d.form === 'date' && name === 'RDATE' && !allDay ? 'tzid' : d.form;
      if (form === 'date') {
        target.push(name === 'RDATE' ? wall : wall.slice(0, 10));
        lines.push(`${name};VALUE=DATE:${compact(wall.slice(0, 10))}`);
        object[name === 'RDATE' ? 'rdate' : 'exdate'].push(wall.slice(0, 10));
      } else if (form === 'utc' && draw.lines) {
        // The same instant in UTC: read back as T's wall clock at that instant (60 §3).
        const utc = wallToUtc(wall, zone);
        target.push(utcToWall(utc, zone));
        lines.push(`${name}:${compact(utc)}Z`);
      } else {
        target.push(wall);
        lines.push(`${name};TZID=${zone}:${compact(wall)}`);
        object[name === 'RDATE' ? 'rdate' : 'exdate'].push(wall);
      }
    }
  };
  add('RDATE', draw.rdate);
  add('EXDATE', draw.exdate);
  const day = (wall: string) => wall.slice(0, 10);
  const body: Record<string, unknown> = {
    title: 'Property series',
    start_date: allDay ? day(dtstart) : dtstart,
    end_date: allDay ? day(dtend) : dtend,
    all_day: allDay,
    timezone: zone,
    recurrence: draw.lines ? lines : object,
  };
  return { body, oracle };
}
