import type { ComponentChildren, VNode } from 'preact';
import {
  AddLink,
  BulkControls,
  BulkForm,
  BulkMessage,
  DataTable,
  Paging,
  SearchForm,
  type BulkActionName,
  type BulkOutcome,
  type Column,
  type ListView,
  type QueryValues,
  type TableRow,
} from './list-table.tsx';

/** One tab of a list: its link, words, and whether it is the page shown. */
export interface ListTab {
  key: string;
  href: string;
  label: string;
  current: boolean;
}

/** The tabs above a list (100 §7.3), the current one `aria-current="page"`. */
export function ListTabs({ view, tabs }: { view: ListView; tabs: ListTab[] }): VNode {
  return (
    <nav class="views list-tabs" aria-label={view.t('admin_lists_tabs')}>
      <ul>
        {tabs.map((tab) => (
          <li key={tab.key}>
            <a href={tab.href} {...(tab.current ? { 'aria-current': 'page' } : {})}>{tab.label}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export interface ListLayoutProps {
  view: ListView;
  /** The "Add …" link, when the user may create. */
  add?: { href: string; label: string };
  outcome: BulkOutcome | 'nothing' | null;
  /** The list's own address with its query: bulk form action, Undo form action. */
  self: string;
  tabs?: ListTab[];
  /** Between the tabs and the search form (hints, the series heading). */
  notes?: ComponentChildren;
  search: { action: string; value?: string; keep: QueryValues; filters?: ComponentChildren };
  /** After the search form, before the table. */
  beforeTable?: ComponentChildren;
  bulkActions: BulkActionName[];
  table: { id: string; caption: string; columns: Column[]; rows: TableRow[] };
  paging: { page: number; pages: number; href: (page: number) => string };
  /** After the bulk form: forms that rows' controls name with `form=` (forms do not nest). */
  after?: ComponentChildren;
}

/**
 * Every list page of 100 §7.3 in one order: Add link, bulk result, tabs, search and filters,
 * the bulk form with its one control and the table, paging.
 */
export function ListLayout({ view, add, outcome, self, tabs, notes, search, beforeTable, bulkActions, table, paging, after }: ListLayoutProps): VNode {
  const selectable = table.rows.some((row) => row.selectable);
  return (
    <>
      {add !== undefined && <AddLink href={add.href} label={add.label} />}
      <BulkMessage view={view} outcome={outcome} action={self} names={new Map(table.rows.map((row) => [row.id, row.name]))} />
      {tabs !== undefined && <ListTabs view={view} tabs={tabs} />}
      {notes}
      <SearchForm view={view} action={search.action} search={search.value} keep={search.keep}>{search.filters}</SearchForm>
      {beforeTable}
      <BulkForm view={view} action={self}>
        {selectable && <BulkControls view={view} actions={bulkActions} />}
        <DataTable view={view} id={table.id} caption={table.caption} columns={table.columns} rows={table.rows} selectable={selectable} />
      </BulkForm>
      {after}
      <Paging view={view} page={paging.page} pages={paging.pages} href={paging.href} />
    </>
  );
}
