import type { VNode } from 'preact';
import type { Status } from '../../domain/status.ts';
import type { MessageKey } from '../../i18n/catalog.ts';
import type { EventListPage, EventListQuery } from '../../services/back-office/event-list.ts';
import { startOrder } from '../../services/back-office/event-list.ts';
import { ListLayout, type ListTab } from './list-page.tsx';
import { StatusLabel, WallTime, type BulkActionName, type BulkOutcome, type Column, type ListView, type QueryValues, type TableRow } from './list-table.tsx';
import { ModerateForms, SubmissionCell } from './submission-review.tsx';

/** The tabs of 100 §7.3, in order, with the query each one sets. */
export const EVENT_TABS = [
  { key: 'upcoming', query: { when: 'upcoming' } },
  { key: 'past', query: { when: 'past' } },
  { key: 'draft', query: { status: 'draft' } },
  { key: 'pending', query: { status: 'pending' } },
  { key: 'future', query: { status: 'future' } },
  { key: 'trash', query: { status: 'trash' } },
] as const;

/** The tab a query shows, if it is one of the six. */
export function currentTab(query: EventListQuery): string | undefined {
  if (query.status === undefined) return query.when === 'any' ? undefined : query.when;
  return query.when === 'any' && EVENT_TABS.some((tab) => tab.key === query.status) ? query.status : undefined;
}

/** The parameters that select rows (tab, search, filter, series), as links repeat them. */
export function selectionOf(query: EventListQuery): QueryValues {
  return {
    status: query.status,
    when: query.status !== undefined ? (query.when === 'any' ? undefined : query.when) : query.when === 'upcoming' ? undefined : query.when,
    s: query.search,
    category: query.category,
    series: query.series,
    all_occurrences: query.allOccurrences ? 1 : undefined,
    submissions: query.submissions ? 1 : undefined,
  };
}

/** The order parameters when they were given. */
function orderOf(query: EventListQuery): QueryValues {
  return query.order === undefined ? {} : { orderby: 'start', order: query.order };
}

/** The list's own address with this query (the bulk form's action; the page the 303 returns to). */
export function eventListHref(view: Pick<ListView, 'adminUrl'>, query: EventListQuery): string {
  return view.adminUrl('/events/', { ...selectionOf(query), ...orderOf(query), paged: query.paged > 1 ? query.paged : undefined });
}

function tabCount(page: EventListPage, key: string): number {
  if (key === 'upcoming' || key === 'past') {
    return page.counts.filter((count) => count.status !== 'trash').reduce((sum, count) => sum + count[key], 0);
  }
  return page.counts.find((count) => count.status === key)?.all ?? 0;
}

/** The six tabs with their counts; the search and category filter are kept. */
function tabsOf(view: ListView, page: EventListPage): ListTab[] {
  const current = currentTab(page.query);
  const keep = { s: page.query.search, category: page.query.category };
  return EVENT_TABS.filter((tab) => tab.key !== 'trash' || page.counts.some((count) => count.status === 'trash')).map((tab) => ({
    key: tab.key,
    href: view.adminUrl('/events/', { ...tab.query, ...keep }),
    label: `${view.t(`admin_lists_tab_${tab.key}` as MessageKey)} (${tabCount(page, tab.key)})`,
    current: current === tab.key,
  }));
}

function CategoryFilter({ view, page }: { view: ListView; page: EventListPage }): VNode {
  return (
    <p class="field">
      <label for="list-category">{view.t('admin_lists_category_filter')}</label>
      <select id="list-category" name="category">
        <option value="">{view.t('admin_lists_any_category')}</option>
        {page.categories.map((category) => (
          <option key={category.id} value={String(category.id)} selected={page.query.category === category.id}>
            {'\u2014 '.repeat(category.depth)}{category.name}
          </option>
        ))}
      </select>
    </p>
  );
}

/** Moderators' filter: only submitted events (`submissions=1`). */
function SubmissionsFilter({ view, page }: { view: ListView; page: EventListPage }): VNode {
  return (
    <p class="field field-check">
      <input type="checkbox" id="list-submissions" name="submissions" value="1" checked={page.query.submissions} />
      <label for="list-submissions">{view.t('admin_review_only_submissions')}</label>
    </p>
  );
}

/** The bulk actions of a tab: the Trash's, the others', and the decisions where submissions wait (120 §8.1). */
function bulkActionsOf(page: EventListPage): BulkActionName[] {
  if (page.query.status === 'trash') return ['restore', 'delete'];
  const deciding = page.mayModerate && (page.query.status === 'pending' || page.query.status === 'draft');
  return deciding ? ['publish', 'trash', 'approve', 'reject', 'spam'] : ['publish', 'trash'];
}

function names(items: unknown): string {
  return Array.isArray(items) ? items.map((item) => String((item as { name?: unknown }).name ?? '')).filter((name) => name !== '').join(', ') : '';
}

/**
 * `/admin/events/` (100 §7.3): tabs with counts, the search and category form, the table with
 * the sortable Start, series collapsed to one row linking their dates, the bulk control and paging.
 */
export function EventListContent({ view, page, outcome }: { view: ListView; page: EventListPage; outcome: BulkOutcome | 'nothing' | null }): VNode {
  const query = page.query;
  const order = startOrder(query);
  const reviewed = page.rows.some((row) => row.submission !== undefined);
  const columns: Column[] = [
    { key: 'title', label: view.t('admin_lists_col_title') },
    {
      key: 'start',
      label: view.t('admin_lists_col_start'),
      sort: {
        current: order === 'asc' ? 'ascending' : 'descending',
        href: view.adminUrl('/events/', { ...selectionOf(query), orderby: 'start', order: order === 'asc' ? 'desc' : 'asc' }),
        label: view.t(order === 'asc' ? 'admin_lists_sort_start_desc' : 'admin_lists_sort_start_asc'),
      },
    },
    { key: 'end', label: view.t('admin_lists_col_end') },
    { key: 'venue', label: view.t('admin_lists_col_venue') },
    { key: 'categories', label: view.t('admin_lists_col_categories') },
    { key: 'author', label: view.t('admin_lists_col_author') },
    { key: 'modified', label: view.t('admin_lists_col_modified') },
    ...(reviewed ? [{ key: 'submission', label: view.t('admin_review_col') }] : []),
  ];
  const seriesTitle = query.series === undefined ? undefined : page.rows[0]?.model.event.title;
  const rows: TableRow[] = page.rows.map(({ model, author, seriesCount, changeable, submission }) => {
    const event = model.event;
    const venue = Array.isArray(model.venue) ? '' : String(model.venue.venue ?? '');
    return {
      id: event.id,
      selectable: changeable,
      name: event.title,
      cells: {
        title: (
          <>
            <a href={view.adminUrl(`/events/${event.id}/`)}>{event.title}</a>
            <StatusLabel view={view} status={event.status as Status} />
            {seriesCount !== undefined && (
              <>
                {' '}
                <a class="series-link" href={view.adminUrl('/events/', { ...selectionOf(query), series: event.post_parent, all_occurrences: undefined })}>
                  {view.t('admin_lists_series_dates', { count: seriesCount })}
                </a>
              </>
            )}
          </>
        ),
        start: <WallTime lang={view.lang} wall={event.start_local} />,
        end: <WallTime lang={view.lang} wall={event.end_local} />,
        venue,
        categories: names(model.categories),
        author,
        modified: <WallTime lang={view.lang} wall={event.modified_local} />,
        submission: submission === undefined ? null : <SubmissionCell view={view} eventId={event.id} title={event.title} review={submission} />,
      },
    };
  });
  return (
    <ListLayout
      view={view}
      add={{ href: view.adminUrl('/events/new'), label: view.t('admin_lists_add_event') }}
      outcome={outcome}
      self={eventListHref(view, query)}
      tabs={tabsOf(view, page)}
      search={{
        action: view.adminUrl('/events/'),
        value: query.search,
        keep: { status: query.status, when: selectionOf(query).when, series: query.series, all_occurrences: query.allOccurrences ? 1 : undefined, ...orderOf(query) },
        filters: (
          <>
            <CategoryFilter view={view} page={page} />
            {page.mayModerate && <SubmissionsFilter view={view} page={page} />}
          </>
        ),
      }}
      beforeTable={query.series !== undefined ? (
        <p class="series-heading">
          {seriesTitle !== undefined && <strong>{view.t('admin_lists_series_of', { name: seriesTitle })}</strong>}{' '}
          <a href={view.adminUrl('/events/', { ...selectionOf(query), series: undefined })}>{view.t('admin_lists_back_to_list')}</a>
        </p>
      ) : (
        <p class="series-toggle">
          <a href={view.adminUrl('/events/', { ...selectionOf(query), ...orderOf(query), all_occurrences: query.allOccurrences ? undefined : 1 })}>
            {view.t(query.allOccurrences ? 'admin_lists_collapse_series' : 'admin_lists_show_all_occurrences')}
          </a>
        </p>
      )}
      bulkActions={bulkActionsOf(page)}
      table={{ id: 'event-list', caption: view.t('admin_lists_caption_events', { count: page.total, page: query.paged, pages: Math.max(page.totalPages, 1) }), columns, rows }}
      paging={{ page: query.paged, pages: page.totalPages, href: (paged) => view.adminUrl('/events/', { ...selectionOf(query), ...orderOf(query), paged }) }}
      after={<ModerateForms view={view} ids={page.rows.flatMap((row) => (row.submission?.open === true ? [row.model.event.id] : []))} />}
    />
  );
}
