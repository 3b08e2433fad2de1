import { addDays, dayNumber, longDate, weekdayName } from '../dates.ts';
import { FeaturedLabel, localHref, Schedule } from '../event-parts.tsx';
import { viewHref } from '../links.ts';
import type { EventView, PageEnv } from '../model.ts';
import { clockText, layOutWeek } from '../week-layout.ts';
import { MaybeLink, NoUpcoming } from './list.tsx';
import { Page, type ViewFrame } from './views.tsx';

export interface WeekModel<E = EventView> extends ViewFrame {
  kind: 'week';
  /** The week's first day (D0, on CALENDAR_WEEK_START). */
  firstDay: string;
  events: E[];
  /** More events than the grid lists (55 §4): how many cover each date, and no events. */
  dayCounts?: Record<string, number>;
  hasPrevious: boolean;
  hasNext: boolean;
  /** Empty week: the first day of the week holding the next event start, if any. */
  nextEventWeek?: string;
  latestPast?: E[];
}

function EventText({ env, event }: { env: PageEnv; event: EventView }) {
  return (
    <>
      <Schedule env={env} event={event} />
      <a href={localHref(env, event.url)}>{event.title}</a>
      <FeaturedLabel env={env} event={event} />
    </>
  );
}

/** The week view (130 §4): a top row, seven day columns on a half-hour grid, a list when narrow. */
export function WeekView({ env, model }: { env: PageEnv; model: WeekModel }) {
  const { t } = env;
  const { state, firstDay } = model;
  const layout = layOutWeek<EventView>(firstDay, model.events);
  const weekHref = (date: string | undefined) => viewHref(env, { ...state, view: 'week', anchor: date, date: undefined });
  const dayHref = (date: string) => viewHref(env, { ...state, view: 'day', anchor: date, date: undefined });
  const hasEvents = model.events.length > 0 || model.dayCounts !== undefined;
  const hours = Array.from({ length: layout.rows / 2 }, (_, index) => layout.firstHour + index);
  return (
    <Page env={env} model={model}>
      <nav aria-label={t('page_week_nav')} class="paging">
        <ul>
          <li><MaybeLink href={model.hasPrevious ? weekHref(addDays(firstDay, -7)) : undefined}>{`« ${t('page_previous_week')}`}</MaybeLink></li>
          <li><a href={weekHref(undefined)}>{t('page_this_week')}</a></li>
          <li><MaybeLink href={model.hasNext ? weekHref(addDays(firstDay, 7)) : undefined}>{`${t('page_next_week')} »`}</MaybeLink></li>
        </ul>
      </nav>
      {!hasEvents ? (
        state.search !== undefined ? (
          <p>{t('page_no_results_keyword', { keyword: state.search })}</p>
        ) : model.nextEventWeek ? (
          <p>
            {t('page_no_results_view')} <a href={weekHref(model.nextEventWeek)}>{t('page_next_week_with_events')}</a>
          </p>
        ) : (
          <NoUpcoming env={env} latestPast={model.latestPast ?? []} />
        )
      ) : null}
      <div class={`week week-rows-${layout.rows}`} data-week-start={firstDay}>
        <section class={layout.top.length === 0 ? 'week-top empty' : 'week-top'} data-row="all-day" aria-labelledby="week-all-day">
          <h2 id="week-all-day" class="vh">{t('page_all_day_multi_day')}</h2>
          {layout.top.length > 0 ? (
            <ul>
              {layout.top.map((bar) => (
                <li class={`week-bar c${bar.column} w${bar.width}`} data-event-id={bar.event.id} data-first={bar.first} data-last={bar.last}>
                  <EventText env={env} event={bar.event} />
                </li>
              ))}
            </ul>
          ) : null}
        </section>
        <ol class="week-hours" aria-hidden="true">
          {hours.map((hour, index) => (
            <li class={`r${index * 2} s2`}>{clockText(hour * 60)}</li>
          ))}
        </ol>
        {layout.days.map((day) => {
          const id = `week-day-${day.date}`;
          const count = model.dayCounts?.[day.date];
          const empty = count === undefined ? day.segments.length === 0 && day.more === 0 : count === 0;
          const classes = ['week-day', empty ? 'empty' : '', day.date === env.today ? 'today' : ''].filter(Boolean).join(' ');
          return (
            <section class={classes} data-date={day.date} aria-labelledby={id} aria-current={day.date === env.today ? 'date' : undefined}>
              <h2 id={id}>
                <time datetime={day.date}>
                  <span aria-hidden="true">{weekdayName(env.lang, day.date, 'short')} {dayNumber(day.date)}</span>
                  <span class="vh">{longDate(env.lang, day.date)}</span>
                </time>
              </h2>
              {count !== undefined ? (
                count > 0 ? (
                  <p class="day-count">
                    <a href={dayHref(day.date)} aria-label={t('page_day_count_label', { count, date: longDate(env.lang, day.date) })}>{t('page_day_count', { count })}</a>
                  </p>
                ) : null
              ) : day.segments.length > 0 ? (
                <ol class="day-grid">
                  {day.segments.map((segment) => (
                    <li
                      class={`segment r${segment.row} s${segment.span} l${segment.lane}-${segment.lanes}`}
                      data-event-id={segment.event.id}
                      data-start={clockText(segment.start)}
                      data-end={clockText(segment.end)}
                      data-lane={segment.lane}
                      data-lanes={segment.lanes}
                    >
                      <EventText env={env} event={segment.event} />
                    </li>
                  ))}
                </ol>
              ) : null}
              {day.more > 0 ? (
                <p class="more">
                  <a href={dayHref(day.date)} aria-label={t('page_more_label', { count: day.more, date: longDate(env.lang, day.date) })}>{t('page_more', { count: day.more })}</a>
                </p>
              ) : null}
            </section>
          );
        })}
      </div>
    </Page>
  );
}
