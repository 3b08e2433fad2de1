import type { ComponentChildren } from 'preact';
import {
  addDays,
  coveredDates,
  datePart,
  dayNumber,
  isoWithOffset,
  longDate,
  monthName,
  monthTitle,
  timePart,
  timeText,
  weekdayName,
} from '../dates.ts';
import { localHref } from '../event-parts.tsx';
import { Frame } from '../frame.tsx';
import { editionPath, viewHref, type ViewState } from '../links.ts';
import type { EventModel } from '../../render/json/event-serializer.ts';
import { eventViews } from '../event-view.ts';
import type { EventView, PageEnv } from '../model.ts';
import { EventSection, ListNavigation, MaybeLink, MonthGroupedEvents, NoUpcoming } from './list.tsx';
import { PhotoCards, SummaryDays } from './list-variants.tsx';
import { MapHead, MapSections, mapGroups } from './map.tsx';
import { WeekView, type WeekModel } from './week.tsx';

/** What every view page shows around its body (55 §3, §9). */
export interface ViewFrame {
  state: ViewState;
  h1: string;
  /** The archive's term (§9): its description shows under the h1. */
  term?: { name: string; description: string };
  noindex: boolean;
  notices: string[];
  feed: string;
  exportFeed: string;
  /** The RSS feed of the same filters (130 §3). */
  rss: { href: string; title: string };
}

/** `E`: read models as loaded (EventModel), event views once rendered (EventView). */
/** The list view and the views that show the list's selection differently (130 §5, §6, §7). */
export interface ListModel<E = EventView> extends ViewFrame {
  kind: 'list' | 'photo' | 'summary' | 'map';
  /** In display order. */
  events: E[];
  /** P as a date, for the month headings of upcoming mode. */
  from?: string;
  hasPrevious: boolean;
  hasNext: boolean;
  /** No upcoming events and no keyword: the latest three past ones. */
  latestPast?: E[];
}

export interface MonthModel<E = EventView> extends ViewFrame {
  kind: 'month';
  month: string;
  /** Grid cells, first to last (whole weeks). */
  firstCell: string;
  lastCell: string;
  events: E[];
  /** More events than a grid lists (55 §4): how many cover each date, and no events. */
  dayCounts?: Record<string, number>;
  perDay: number;
  previousMonth?: string;
  nextMonth?: string;
  /** Empty month: the month of the next event start, if any. */
  nextEventMonth?: string;
  latestPast?: E[];
}

export interface DayModel<E = EventView> extends ViewFrame {
  kind: 'day';
  day: string;
  events: E[];
  previousDay?: string;
  nextDay?: string;
  nextEventDay?: string;
}

export type ViewModel<E = EventView> = ListModel<E> | MonthModel<E> | DayModel<E> | WeekModel<E>;

/** `described`: the events the page shows, when it shows fewer than it loaded (the month grid's "+ N more"). */
export function Page({ env, model, head, described, children }: { env: PageEnv; model: ViewModel; head?: ComponentChildren; described?: ReadonlySet<EventView>; children: ComponentChildren }) {
  const shown = described === undefined ? model.events : model.events.filter((event) => described.has(event));
  const jsonLd = shown.flatMap((event) => (event.json_ld ? [event.json_ld] : []));
  return (
    <Frame
      env={env}
      title={model.h1}
      noindex={model.noindex}
      canonical={canonicalOf(env, model.state)}
      feed={model.feed}
      exportFeed={model.exportFeed}
      rss={model.rss}
      jsonLd={jsonLd}
      bar={{ state: model.state, current: model.kind }}
      notices={model.notices}
      head={head}
    >
      <h1>{model.h1}</h1>
      {model.term && model.term.description !== '' ? <p class="term-description">{model.term.description}</p> : null}
      {children}
    </Frame>
  );
}

/** Of the §3.2 parameters only the date and past mode stay in the canonical URL (§3.1). */
function canonicalOf(env: PageEnv, state: ViewState): string {
  return viewHref(env, { ...state, search: undefined }).slice(editionPath(env, '').length);
}

function ListView({ env, model }: { env: PageEnv; model: ListModel }) {
  const { state } = model;
  const base = { ...state, page: 1 };
  let previous: string | undefined;
  let next: string | undefined;
  if (!state.past) {
    if (state.page > 1) previous = viewHref(env, { ...state, page: state.page - 1 });
    else if (model.hasPrevious) previous = viewHref(env, { ...base, past: true });
    if (model.hasNext) next = viewHref(env, { ...state, page: state.page + 1 });
  } else {
    if (model.hasPrevious) previous = viewHref(env, { ...state, page: state.page + 1 });
    next = viewHref(env, state.page > 1 ? { ...state, page: state.page - 1 } : { ...base, past: false });
  }
  const today = viewHref(env, { ...base, past: false, date: undefined });
  const groups = model.kind === 'map' ? mapGroups(model.events) : undefined;
  return (
    <Page env={env} model={model} head={groups && groups.located.length > 0 ? <MapHead env={env} /> : undefined}>
      {model.events.length > 0 ? (
        groups ? (
          <MapSections env={env} groups={groups} />
        ) : model.kind === 'photo' ? (
          <PhotoCards env={env} events={model.events} />
        ) : model.kind === 'summary' ? (
          <SummaryDays env={env} events={model.events} from={state.past ? undefined : model.from} />
        ) : (
          <MonthGroupedEvents env={env} events={model.events} from={state.past ? undefined : model.from} />
        )
      ) : model.latestPast ? (
        <NoUpcoming env={env} latestPast={model.latestPast} />
      ) : null}
      <ListNavigation env={env} nav={{ previous, next, today }} />
    </Page>
  );
}

interface Cell {
  date: string;
  /** Multi-day and all-day events covering the cell. */
  spanning: EventView[];
  /** Timed one-day events starting that day, in display order. */
  timed: EventView[];
}

function isSpanning(event: EventView): boolean {
  const { first, last } = coveredDates(event);
  return event.all_day === true || first !== last;
}

/** Sticky first, then start time, then id (55 §4). */
function byStickyStartId(a: EventView, b: EventView): number {
  return Number(b.sticky === true) - Number(a.sticky === true) || a.start_date.localeCompare(b.start_date) || a.id - b.id;
}

function monthCells(model: MonthModel): Cell[][] {
  const cells = new Map<string, Cell>();
  for (let date = model.firstCell; date <= model.lastCell; date = addDays(date, 1)) cells.set(date, { date, spanning: [], timed: [] });
  for (const event of model.events) {
    const { first, last } = coveredDates(event);
    if (isSpanning(event)) {
      for (let date = first < model.firstCell ? model.firstCell : first; date <= last && date <= model.lastCell; date = addDays(date, 1)) {
        cells.get(date)!.spanning.push(event);
      }
    } else {
      cells.get(first)?.timed.push(event);
    }
  }
  const weeks: Cell[][] = [];
  let week: Cell[] = [];
  for (const cell of cells.values()) {
    cell.timed.sort(byStickyStartId);
    week.push(cell);
    if (week.length === 7) {
      weeks.push(week);
      week = [];
    }
  }
  return weeks;
}

function MonthView({ env, model }: { env: PageEnv; model: MonthModel }) {
  const { t } = env;
  const { state } = model;
  const weeks = monthCells(model);
  // The JSON-LD describes the events the month's own days list (55 §4, §7.2): those behind
  // "+ N more" are described by their day's page, those of the neighbouring months' days by
  // that month's page, so that a busy month stays light on a phone.
  const described = new Set(weeks.flatMap((week) => week.flatMap((cell) => (cell.date.startsWith(model.month) ? [...cell.spanning, ...cell.timed.slice(0, model.perDay)] : []))));
  const monthHref = (month: string) => viewHref(env, { ...state, view: 'month', anchor: month, date: undefined });
  const dayHref = (date: string) => viewHref(env, { ...state, view: 'day', anchor: date, date: undefined });
  const hasEvents = model.events.length > 0 || model.dayCounts !== undefined;
  return (
    <Page env={env} model={model} described={described}>
      <nav aria-label={t('page_month_nav')} class="paging">
        <ul>
          <li>
            <MaybeLink href={model.previousMonth && monthHref(model.previousMonth)} label={model.previousMonth && t('page_previous_month_link', { month: monthName(env.lang, model.previousMonth) })}>
              {`« ${model.previousMonth ? monthName(env.lang, model.previousMonth) : t('page_previous_month_cell').replace(/[()]/g, '')}`}
            </MaybeLink>
          </li>
          <li><a href={viewHref(env, { ...state, view: 'month', anchor: undefined, date: undefined })}>{t('page_this_month')}</a></li>
          <li>
            <MaybeLink href={model.nextMonth && monthHref(model.nextMonth)} label={model.nextMonth && t('page_next_month_link', { month: monthName(env.lang, model.nextMonth) })}>
              {`${model.nextMonth ? monthName(env.lang, model.nextMonth) : t('page_next_month_cell').replace(/[()]/g, '')} »`}
            </MaybeLink>
          </li>
        </ul>
      </nav>
      {!hasEvents ? (
        state.search !== undefined ? (
          <p>{t('page_no_results_keyword', { keyword: state.search })}</p>
        ) : model.nextEventMonth ? (
          <p>
            {t('page_no_results_view')} <a href={monthHref(model.nextEventMonth)}>{t('page_next_month_with_events')}</a>
          </p>
        ) : (
          <NoUpcoming env={env} latestPast={model.latestPast ?? []} />
        )
      ) : null}
      <table class="month">
        <caption>{monthTitle(env.lang, model.month)}</caption>
        <thead>
          <tr>
            {weeks[0].map((cell) => (
              <th scope="col" abbr={weekdayName(env.lang, cell.date, 'long')}>
                <span aria-hidden="true">{weekdayName(env.lang, cell.date, 'short')}</span>
                <span class="vh">{weekdayName(env.lang, cell.date, 'long')}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr>
              {week.map((cell, column) => {
                const other = cell.date.slice(0, 7) !== model.month;
                const count = model.dayCounts?.[cell.date] ?? cell.spanning.length + cell.timed.length;
                const shown = cell.timed.slice(0, model.perDay);
                const more = cell.timed.length - shown.length;
                const classes = [other ? 'other' : '', cell.date === env.today ? 'today' : '', count === 0 ? 'empty' : ''].filter(Boolean).join(' ');
                return (
                  <td class={classes || undefined} aria-current={cell.date === env.today ? 'date' : undefined}>
                    <p class="day-number">
                      {count > 0 ? (
                        <a href={dayHref(cell.date)}>
                          <time datetime={cell.date}>{dayNumber(cell.date)}</time>
                          <span class="vh"> {longDate(env.lang, cell.date)}</span>
                        </a>
                      ) : (
                        <time datetime={cell.date}>{dayNumber(cell.date)}</time>
                      )}
                      {other ? <span class="vh"> {t(cell.date.slice(0, 7) < model.month ? 'page_previous_month_cell' : 'page_next_month_cell')}</span> : null}
                    </p>
                    {count > 0 && model.dayCounts ? (
                      <p class="day-count">
                        <a href={dayHref(cell.date)} aria-label={t('page_day_count_label', { count, date: longDate(env.lang, cell.date) })}>
                          {t('page_day_count', { count })}
                        </a>
                      </p>
                    ) : count > 0 ? (
                      <ul>
                        {cell.spanning.map((event) => {
                          const titled = datePart(event.start_date) === cell.date || column === 0 || cell.date === model.firstCell;
                          // A continuation is the item itself, not a span in it: a multi-day event has one in each cell it covers, which adds up on a busy month.
                          return titled ? (
                            <li class="spanning">
                              <a href={localHref(env, event.url)}>{event.title}</a>
                              {event.featured ? <span class="featured-label">{t('page_featured')}</span> : null}
                            </li>
                          ) : (
                            <li class="continues">
                              {t('page_continues')} <span class="vh">{event.title}</span>
                            </li>
                          );
                        })}
                        {shown.map((event) => (
                          <li>
                            <time datetime={isoWithOffset(event.start_date, event.utc_start_date)}>{timeText(env.lang, event.start_date)}</time>{' '}
                            <a href={localHref(env, event.url)}>{event.title}</a>
                            {event.featured ? <span class="featured-label">{t('page_featured')}</span> : null}
                          </li>
                        ))}
                        {more > 0 ? (
                          <li class="more">
                            <a href={dayHref(cell.date)} aria-label={t('page_more_label', { count: more, date: longDate(env.lang, cell.date) })}>
                              {t('page_more', { count: more })}
                            </a>
                          </li>
                        ) : null}
                      </ul>
                    ) : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </Page>
  );
}

/** Half-hour slot of a wall clock: `HH:00` or `HH:30`. */
function slotOf(wall: string): string {
  const time = timePart(wall);
  return `${time.slice(0, 2)}:${Number(time.slice(3, 5)) < 30 ? '00' : '30'}:00`;
}

function DayView({ env, model }: { env: PageEnv; model: DayModel }) {
  const { t } = env;
  const { state, day } = model;
  const allDay = model.events.filter((event) => event.all_day === true);
  const ongoing = model.events.filter((event) => event.all_day !== true && datePart(event.start_date) < day);
  const timed = model.events.filter((event) => event.all_day !== true && datePart(event.start_date) >= day);
  const slots: Array<{ slot: string; events: EventView[] }> = [];
  for (const event of timed) {
    const slot = slotOf(event.start_date);
    const last = slots[slots.length - 1];
    if (last && last.slot === slot) last.events.push(event);
    else slots.push({ slot, events: [event] });
  }
  const dayHref = (date: string) => viewHref(env, { ...state, view: 'day', anchor: date, date: undefined });
  return (
    <Page env={env} model={model}>
      <nav aria-label={t('page_day_nav')} class="paging">
        <ul>
          <li><MaybeLink href={model.previousDay && dayHref(model.previousDay)}>{`« ${t('page_previous_day')}`}</MaybeLink></li>
          <li><a href={viewHref(env, { ...state, view: 'day', anchor: undefined, date: undefined })}>{t('page_today')}</a></li>
          <li><MaybeLink href={model.nextDay && dayHref(model.nextDay)}>{`${t('page_next_day')} »`}</MaybeLink></li>
        </ul>
      </nav>
      {model.events.length === 0 ? (
        <p>
          {state.search !== undefined ? t('page_no_results_keyword_view', { keyword: state.search }) : t('page_no_events_day', { date: longDate(env.lang, day) })}
          {model.nextEventDay ? <> <a href={dayHref(model.nextEventDay)}>{t('page_next_day_with_events')}</a></> : null}
        </p>
      ) : null}
      <EventSection env={env} id="all-day" title={t('page_all_day')} events={allDay} />
      <EventSection env={env} id="ongoing" title={t('page_ongoing')} events={ongoing} />
      {slots.map(({ slot, events }) => (
        <EventSection
          env={env}
          id={`slot-${slot.slice(0, 5).replace(':', '')}`}
          title={<time datetime={`${day}T${slot.slice(0, 5)}`}>{timeText(env.lang, `${day} ${slot}`)}</time>}
          events={events}
        />
      ))}
    </Page>
  );
}

/** A month, list, day, week, photo, summary or map view: a pure function of the loaded read models. */
export function CalendarView({ env, model: loaded }: { env: PageEnv; model: ViewModel<EventModel> }) {
  const latestPast = loaded.kind === 'day' || loaded.latestPast === undefined ? undefined : eventViews(env, loaded.latestPast);
  const model = { ...loaded, events: eventViews(env, loaded.events), latestPast } as ViewModel;
  if (model.kind === 'month') return <MonthView env={env} model={model} />;
  if (model.kind === 'day') return <DayView env={env} model={model} />;
  if (model.kind === 'week') return <WeekView env={env} model={model} />;
  return <ListView env={env} model={model} />;
}
