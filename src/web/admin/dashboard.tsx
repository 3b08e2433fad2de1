import type { VNode } from 'preact';
import type { Role } from '../../domain/auth/capabilities.ts';
import type { MessageKey } from '../../i18n/catalog.ts';
import type { Dashboard } from '../../services/back-office/dashboard.ts';
import { StatusLabel, WallTime, type ListView } from './list-table.tsx';

/** What the dashboard renders besides its data: which lists the user may open, and who may publish. */
export interface DashboardRights {
  /** The event list (`edit_tribe_events`); otherwise the counts are plain numbers. */
  events: boolean;
  venues: boolean;
  organizers: boolean;
  categories: boolean;
  tags: boolean;
  /** The "Publish" buttons of the review block. */
  publish: boolean;
}

const TAB_OF_STATUS: Record<string, Record<string, string>> = {
  publish: { status: 'publish' },
  future: { status: 'future' },
  draft: { status: 'draft' },
  pending: { status: 'pending' },
  private: { status: 'private' },
  trash: { status: 'trash' },
};

const LIST_OF_KIND: Record<string, string> = { event: '/events/', venue: '/venues/', organizer: '/organizers/', category: '/categories/', tag: '/tags/' };

function Section({ id, title, children }: { id: string; title: string; children: VNode | VNode[] | null }): VNode {
  return (
    <section class="card dashboard-block" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

function Counts({ view, data, rights }: { view: ListView; data: Dashboard; rights: DashboardRights }): VNode {
  const totals = [
    { key: 'venues', path: '/venues/', label: view.t('admin_lists_venues'), value: data.totals.venues, open: rights.venues },
    { key: 'organizers', path: '/organizers/', label: view.t('admin_lists_organizers'), value: data.totals.organizers, open: rights.organizers },
    { key: 'categories', path: '/categories/', label: view.t('admin_lists_categories'), value: data.totals.categories, open: rights.categories },
    { key: 'tags', path: '/tags/', label: view.t('admin_lists_tags'), value: data.totals.tags, open: rights.tags },
  ];
  return (
    <Section id="dashboard-counts" title={view.t('admin_lists_counts')}>
      <h3>{view.t('admin_lists_event_counts')}</h3>
      <ul class="counts">
        {data.counts.map((count) => {
          const label = view.t(`admin_lists_status_${count.status}` as MessageKey);
          return (
            <li key={count.status}>
              {rights.events ? <a href={view.adminUrl('/events/', TAB_OF_STATUS[count.status])}>{label}: {count.all}</a> : <>{label}: {count.all}</>}
            </li>
          );
        })}
      </ul>
      <h3>{view.t('admin_lists_record_totals')}</h3>
      <ul class="counts">
        {totals.map((total) => (
          <li key={total.key}>{total.open ? <a href={view.adminUrl(total.path)}>{total.label}: {total.value}</a> : <>{total.label}: {total.value}</>}</li>
        ))}
      </ul>
    </Section>
  );
}

function NextEvents({ view, data, rights }: { view: ListView; data: Dashboard; rights: DashboardRights }): VNode {
  return (
    <Section id="dashboard-next" title={view.t('admin_lists_next_events')}>
      {data.next.length === 0 ? <p>{view.t('admin_lists_no_next_events')}</p> : (
        <ul class="dashboard-list">
          {data.next.map((event) => (
            <li key={event.id}>
              {rights.events ? <a href={view.adminUrl(`/events/${event.id}/`)}>{event.title}</a> : event.title}
              <StatusLabel view={view} status={event.status} />
              {' · '}
              <WallTime lang={view.lang} wall={event.start_local} />
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function Review({ view, data, rights }: { view: ListView; data: Dashboard; rights: DashboardRights }): VNode {
  return (
    <Section id="dashboard-review" title={view.t('admin_lists_awaiting_review')}>
      {data.review.length === 0 ? <p>{view.t('admin_lists_nothing_to_review')}</p> : (
        <ul class="dashboard-list">
          {data.review.map((record) => (
            <li key={`${record.kind}-${record.id}`}>
              <span class="kind">{view.t(`admin_lists_kind_${record.kind}` as MessageKey)}</span>{' '}
              <a href={view.adminUrl(`${LIST_OF_KIND[record.kind]}${record.id}/`)}>{record.name}</a>
              {' · '}
              <WallTime lang={view.lang} wall={record.modified_utc} />
              {rights.publish && (
                <form method="post" action={view.adminUrl(LIST_OF_KIND[record.kind])} class="inline-form">
                  <input type="hidden" name="_token" value={view.csrfToken} />
                  <input type="hidden" name="bulk_action" value="publish" />
                  <input type="hidden" name="ids[]" value={String(record.id)} />
                  <button type="submit" name="bulk_apply" value="1" class="button button-secondary" aria-label={view.t('admin_lists_publish_named', { name: record.name })}>
                    {view.t('admin_lists_publish_button')}
                  </button>
                </form>
              )}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

/** Moderators (120 §8.1): what awaits review, how much is flagged, and the last day's silent drops. */
function Submissions({ view, data }: { view: ListView; data: NonNullable<Dashboard['submissions']> }): VNode {
  return (
    <Section id="dashboard-submissions" title={view.t('admin_dash_submissions')}>
      <p>
        <a href={view.adminUrl('/events/', { status: data.status, submissions: 1 })}>
          {view.t('admin_dash_awaiting', { count: data.awaiting, flagged: data.flagged })}
        </a>
      </p>
      <h3>{view.t('admin_dash_dropped')}</h3>
      <ul class="counts">
        {data.dropped.map((drop) => <li key={drop.outcome}>{view.t(`admin_dash_drop_${drop.outcome}` as MessageKey)}: {drop.count}</li>)}
      </ul>
    </Section>
  );
}

/** Administrators (120 §10.3): mail that gave up, linking the outbox's failed messages. */
function FailedMail({ view, count }: { view: ListView; count: number }): VNode {
  return (
    <Section id="dashboard-mail" title={view.t('admin_dash_mail')}>
      <p><a href={view.adminUrl('/mail/', { status: 'failed' })}>{view.t('admin_dash_failed_mail', { count })}</a></p>
    </Section>
  );
}

function RecentChanges({ view, data }: { view: ListView; data: Dashboard }): VNode {
  return (
    <Section id="dashboard-changes" title={view.t('admin_lists_recent_changes')}>
      {data.changes.length === 0 ? <p>{view.t('admin_lists_no_changes')}</p> : (
        <ul class="dashboard-list">
          {data.changes.map(({ entry, name }) => (
            <li key={`${entry.position.txid}-${entry.position.seq}`}>
              <span class="kind">{view.t(`admin_lists_kind_${entry.kind}` as MessageKey)}</span>{' '}
              {name === undefined ? <>#{entry.record_id} ({view.t('admin_lists_no_longer_visible')})</> : <a href={view.adminUrl(`${LIST_OF_KIND[entry.kind]}${entry.record_id}/`)}>{name}</a>}
              {' '}{view.t(`admin_lists_op_${entry.op}` as MessageKey)}
              {' · '}
              <WallTime lang={view.lang} wall={entry.at} />
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

/** `/admin/` (100 §7.2): counts, next events, what awaits review, submissions and failed mail (120 §8.1), recent changes. */
export function DashboardContent({ view, data, rights, role }: { view: ListView; data: Dashboard; rights: DashboardRights; role: Role }): VNode {
  return (
    <div class={`dashboard dashboard-${role}`}>
      <Counts view={view} data={data} rights={rights} />
      <NextEvents view={view} data={data} rights={rights} />
      {rights.events && <Review view={view} data={data} rights={rights} />}
      {data.submissions !== null && <Submissions view={view} data={data.submissions} />}
      {data.failedMail !== null && <FailedMail view={view} count={data.failedMail} />}
      <RecentChanges view={view} data={data} />
    </div>
  );
}
