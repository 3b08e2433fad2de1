import type { VNode } from 'preact';
import type { MessageKey } from '../../i18n/catalog.ts';
import type { RecordListPage, RecordListQuery } from '../../services/back-office/record-lists.ts';
import type { LinkedRecord } from '../../storage/repositories/linked-posts-repository.ts';
import type { CountedTerm } from '../../storage/repositories/terms-repository.ts';
import { ListLayout } from './list-page.tsx';
import { StatusLabel, WallTime, type BulkActionName, type BulkOutcome, type Column, type ListView, type TableRow } from './list-table.tsx';

/** The four record lists besides events: their path below /admin and their words. */
export type RecordListKind = 'venues' | 'organizers' | 'categories' | 'tags';

const ADD_LABEL: Record<RecordListKind, MessageKey> = {
  venues: 'admin_lists_add_venue',
  organizers: 'admin_lists_add_organizer',
  categories: 'admin_lists_add_category',
  tags: 'admin_lists_add_tag',
};

/** The list's address with this query (bulk form action and 303 target). */
export function recordListHref(view: Pick<ListView, 'adminUrl'>, kind: RecordListKind, query: RecordListQuery, paged = query.paged): string {
  return view.adminUrl(`/${kind}/`, { status: query.trash ? 'trash' : undefined, s: query.search, paged: paged > 1 ? paged : undefined });
}

interface Shell {
  view: ListView;
  kind: RecordListKind;
  page: RecordListPage<unknown>;
  outcome: BulkOutcome | 'nothing' | null;
  /** The "Add …" link (hidden when the user may not create). */
  mayCreate: boolean;
  columns: Column[];
  rows: TableRow[];
  actions: BulkActionName[];
  /** Venues and organizers: All / Trash tabs. */
  tabs: boolean;
  readOnly: boolean;
}

function ListShell({ view, kind, page, outcome, mayCreate, columns, rows, actions, tabs, readOnly }: Shell): VNode {
  const query = page.query;
  const title = view.t(`admin_lists_${kind}` as MessageKey);
  return (
    <ListLayout
      view={view}
      add={mayCreate ? { href: view.adminUrl(`/${kind}/new`), label: view.t(ADD_LABEL[kind]) } : undefined}
      outcome={outcome}
      self={recordListHref(view, kind, query)}
      tabs={tabs ? [
        { key: 'all', href: view.adminUrl(`/${kind}/`, { s: query.search }), label: view.t('admin_lists_tab_all'), current: !query.trash },
        { key: 'trash', href: view.adminUrl(`/${kind}/`, { status: 'trash', s: query.search }), label: view.t('admin_lists_tab_trash'), current: query.trash },
      ] : undefined}
      notes={readOnly && <p class="hint">{view.t('admin_lists_read_only')}</p>}
      search={{ action: view.adminUrl(`/${kind}/`), value: query.search, keep: { status: query.trash ? 'trash' : undefined } }}
      bulkActions={actions}
      table={{ id: `${kind}-list`, caption: view.t('admin_lists_caption_records', { kind: title, count: page.total, page: query.paged, pages: Math.max(page.totalPages, 1) }), columns, rows }}
      paging={{ page: query.paged, pages: page.totalPages, href: (paged) => recordListHref(view, kind, query, paged) }}
    />
  );
}

/** `/admin/venues/` and `/admin/organizers/`: name, their own columns, author, modified; bulk trash/restore/delete. */
export function LinkedListContent({ view, kind, page, outcome, mayCreate }: { view: ListView; kind: 'venues' | 'organizers'; page: RecordListPage<LinkedRecord>; outcome: BulkOutcome | 'nothing' | null; mayCreate: boolean }): VNode {
  const own: Column[] = kind === 'venues'
    ? [{ key: 'city', label: view.t('admin_lists_col_city') }, { key: 'country', label: view.t('admin_lists_col_country') }]
    : [{ key: 'phone', label: view.t('admin_lists_col_phone') }, { key: 'email', label: view.t('admin_lists_col_email') }];
  const columns: Column[] = [
    { key: 'name', label: view.t('admin_lists_col_name') },
    ...own,
    { key: 'author', label: view.t('admin_lists_col_author') },
    { key: 'modified', label: view.t('admin_lists_col_modified') },
  ];
  const rows: TableRow[] = page.rows.map(({ record, author, changeable }) => {
    const fields = record as LinkedRecord & Record<string, unknown>;
    return {
      id: record.id,
      selectable: changeable,
      name: record.name,
      cells: {
        name: <><a href={view.adminUrl(`/${kind}/${record.id}/`)}>{record.name}</a><StatusLabel view={view} status={record.status} /></>,
        city: String(fields.city ?? ''),
        country: String(fields.country ?? ''),
        phone: String(fields.phone ?? ''),
        email: String(fields.email ?? ''),
        author: author ?? '',
        modified: <WallTime lang={view.lang} wall={record.modified_local} />,
      },
    };
  });
  const actions = page.query.trash ? (['restore', 'delete'] as const) : (['trash'] as const);
  return <ListShell view={view} kind={kind} page={page} outcome={outcome} mayCreate={mayCreate} columns={columns} rows={rows} actions={[...actions]} tabs readOnly={false} />;
}

/** `/admin/categories/` and `/admin/tags/`: name, slug, description, events; bulk delete for who holds the term right. */
export function TermListContent({ view, kind, page, outcome, mayManage }: { view: ListView; kind: 'categories' | 'tags'; page: RecordListPage<CountedTerm>; outcome: BulkOutcome | 'nothing' | null; mayManage: boolean }): VNode {
  const columns: Column[] = [
    { key: 'name', label: view.t('admin_lists_col_name') },
    { key: 'slug', label: view.t('admin_lists_col_slug') },
    { key: 'description', label: view.t('admin_lists_col_description') },
    { key: 'count', label: view.t('admin_lists_col_count') },
  ];
  const rows: TableRow[] = page.rows.map(({ record, changeable }) => ({
    id: record.id,
    selectable: changeable,
    name: record.name,
    cells: {
      name: mayManage ? <a href={view.adminUrl(`/${kind}/${record.id}/`)}>{record.name}</a> : record.name,
      slug: record.slug,
      description: record.description,
      count: String(record.count),
    },
  }));
  return <ListShell view={view} kind={kind} page={page} outcome={outcome} mayCreate={mayManage} columns={columns} rows={rows} actions={['delete']} tabs={false} readOnly={!mayManage} />;
}
