import type { ComponentChildren } from 'preact';
import { datePart, monthPart, monthTitle } from '../dates.ts';
import { EventSummary } from '../event-parts.tsx';
import type { EventView, PageEnv } from '../model.ts';

/** A link, or the same text as plain (disabled) text when there is nowhere to go. */
export function MaybeLink({ href, children, label }: { href: string | undefined; children: string; label?: string }) {
  return href === undefined ? <span class="disabled">{children}</span> : <a href={href} aria-label={label}>{children}</a>;
}

/** A titled group of event summaries: an `<h2>` (also a landmark name) over `<h3>` events. */
export function EventSection({ env, id, title, events }: { env: PageEnv; id: string; title: ComponentChildren; events: EventView[] }) {
  if (events.length === 0) return null;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {events.map((event) => <EventSummary env={env} event={event} heading="h3" />)}
    </section>
  );
}

/** Events under `<h2>` month headings, each month by max(start, P) (55 §5). */
export function MonthGroupedEvents({ env, events, from }: { env: PageEnv; events: EventView[]; from?: string }) {
  const groups: Array<{ month: string; events: EventView[] }> = [];
  for (const event of events) {
    const start = datePart(event.start_date);
    const month = monthPart(from !== undefined && from > start ? from : start);
    const last = groups[groups.length - 1];
    if (last && last.month === month) last.events.push(event);
    else groups.push({ month, events: [event] });
  }
  return (
    <>
      {groups.map((group) => (
        <EventSection env={env} id={`month-${group.month}`} title={monthTitle(env.lang, group.month)} events={group.events} />
      ))}
    </>
  );
}

export interface ListNav {
  previous?: string;
  next?: string;
  today: string;
}

export function ListNavigation({ env, nav }: { env: PageEnv; nav: ListNav }) {
  const { t } = env;
  return (
    <nav aria-label={t('page_list_nav')} class="paging">
      <ul>
        <li><MaybeLink href={nav.previous}>{`« ${t('page_previous_events')}`}</MaybeLink></li>
        <li><a href={nav.today}>{t('page_today')}</a></li>
        <li><MaybeLink href={nav.next}>{`${t('page_next_events')} »`}</MaybeLink></li>
      </ul>
    </nav>
  );
}

/** "There are no upcoming events." with up to three latest past ones (55 §5). */
export function NoUpcoming({ env, latestPast }: { env: PageEnv; latestPast: EventView[] }) {
  const { t } = env;
  return (
    <>
      <p>{t('page_no_upcoming')}</p>
      <EventSection env={env} id="latest-past" title={t('page_latest_past')} events={latestPast} />
    </>
  );
}
