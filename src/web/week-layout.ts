import { addDays, coveredDates, datePart, timePart } from './dates.ts';

/** What the layout reads of an event: wall-clock start and end (`YYYY-MM-DD HH:MM:SS`). */
export interface WeekEvent {
  id: number;
  start_date: string;
  end_date: string;
  all_day?: boolean | null;
}

/** An event in the top row (130 §4.2): its covered days clamped to the week, as column indexes. */
export interface TopBar<E> {
  event: E;
  first: string;
  last: string;
  column: number;
  width: number;
}

/** One day's part of a timed event; minutes from that day's 00:00 (`end` 1440 = midnight). */
export interface Segment<E> {
  event: E;
  start: number;
  end: number;
  lane: number;
  lanes: number;
  /** Half-hour row inside the grid and how many rows it covers. */
  row: number;
  span: number;
}

export interface WeekDay<E> {
  date: string;
  segments: Array<Segment<E>>;
  /** Segments that would need a fifth lane: counted, linked to the day view. */
  more: number;
}

export interface WeekLayout<E> {
  top: Array<TopBar<E>>;
  days: Array<WeekDay<E>>;
  /** The grid's first hour and its number of half-hour rows. */
  firstHour: number;
  rows: number;
}

const DAY = 1440;
const MAX_LANES = 4;

function minutes(wall: string): number {
  const time = timePart(wall);
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

function wallMinutes(wall: string): number {
  return Date.parse(`${datePart(wall)}T${timePart(wall)}Z`) / 60000;
}

/** A segment's extent on the grid: at least half an hour, so touching events do not overlap. */
function visualEnd(segment: { start: number; end: number }): number {
  return Math.max(segment.end, segment.start + 30);
}

function isTop(event: WeekEvent): boolean {
  return event.all_day === true || wallMinutes(event.end_date) - wallMinutes(event.start_date) >= DAY;
}

/** Lanes of one day's segments, sorted already (130 §4.2): lowest free lane, cluster-wide count. */
function assignLanes<E>(segments: Array<Segment<E>>): { placed: Array<Segment<E>>; more: number } {
  const placed: Array<Segment<E>> = [];
  let more = 0;
  let cluster: Array<Segment<E>> = [];
  let laneEnds: number[] = [];
  let clusterEnd = -1;
  const closeCluster = () => {
    for (const segment of cluster) segment.lanes = laneEnds.length;
    cluster = [];
    laneEnds = [];
  };
  for (const segment of segments) {
    if (segment.start >= clusterEnd) closeCluster();
    let lane = laneEnds.findIndex((end) => end <= segment.start);
    if (lane === -1 && laneEnds.length < MAX_LANES) lane = laneEnds.push(0) - 1;
    if (lane === -1) {
      more += 1;
      continue;
    }
    laneEnds[lane] = visualEnd(segment);
    clusterEnd = Math.max(clusterEnd, visualEnd(segment));
    segment.lane = lane + 1;
    cluster.push(segment);
    placed.push(segment);
  }
  closeCluster();
  return { placed, more };
}

/** The week view's placement of events (130 §4.1, §4.2), a pure function of the week's events. */
export function layOutWeek<E extends WeekEvent>(firstDay: string, events: readonly E[]): WeekLayout<E> {
  const dates = Array.from({ length: 7 }, (_, index) => addDays(firstDay, index));
  const lastDay = dates[6];
  const top: Array<TopBar<E>> = [];
  const byDay = new Map<string, Array<Segment<E>>>(dates.map((date) => [date, []]));
  for (const event of events) {
    const covered = coveredDates(event);
    const first = covered.first < firstDay ? firstDay : covered.first;
    const last = covered.last > lastDay ? lastDay : covered.last;
    if (first > last) continue;
    if (isTop(event)) {
      const column = dates.indexOf(first);
      top.push({ event, first, last, column, width: dates.indexOf(last) - column + 1 });
      continue;
    }
    const startDay = datePart(event.start_date);
    for (let date = first; date <= last; date = addDays(date, 1)) {
      const start = date === startDay ? minutes(event.start_date) : 0;
      const end = date === datePart(event.end_date) ? minutes(event.end_date) : DAY;
      byDay.get(date)!.push({ event, start, end: Math.max(end, start), lane: 1, lanes: 1, row: 0, span: 1 });
    }
  }
  const days = dates.map((date) => {
    const segments = byDay.get(date)!;
    segments.sort((a, b) => a.start - b.start || b.end - a.end || a.event.id - b.event.id);
    const { placed, more } = assignLanes(segments);
    return { date, segments: placed, more };
  });
  const all = days.flatMap((day) => day.segments);
  const firstHour = Math.min(8, ...all.map((segment) => Math.floor(segment.start / 60)));
  const lastHour = Math.max(18, ...all.map((segment) => Math.ceil(Math.min(visualEnd(segment), DAY) / 60)));
  for (const segment of all) {
    segment.row = Math.floor(segment.start / 30) - firstHour * 2;
    const endRow = Math.ceil(Math.min(visualEnd(segment), DAY) / 30) - firstHour * 2;
    segment.span = endRow - segment.row;
  }
  return { top, days, firstHour, rows: (lastHour - firstHour) * 2 };
}

/** `HH:MM` of minutes from 00:00 (`24:00` for midnight at the end of the day). */
export function clockText(total: number): string {
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}
