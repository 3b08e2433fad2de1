import type { ComponentChildren, VNode } from 'preact';
import { catalogues, type Language, type MessageKey, type MessageVars } from '../../i18n/catalog.ts';

/**
 * What the list renderers need of the back office's `AdminView` (w-auth's frame): a structural
 * subset, so renderers and their tests need no request.
 */
export interface ListView {
  lang: Language;
  t: (key: MessageKey, vars?: MessageVars) => string;
  csrfToken: string;
  adminUrl(path: string, query?: Record<string, string | number | undefined>): string;
}

export type QueryValues = Record<string, string | number | undefined>;

/** A `YYYY-MM-DD HH:MM:SS` wall clock as a short date and time of the edition. */
export function wallText(lang: Language, wall: string): string {
  if (!/^\d{4}-\d{2}-\d{2}/.test(wall) || wall.startsWith('0000')) return '';
  const instant = new Date(`${wall.slice(0, 10)}T${wall.slice(11, 19) || '00:00:00'}Z`);
  return new Intl.DateTimeFormat(lang, { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }).format(instant);
}

/** A `<time>` of a wall clock (machine value without zone, as the list shows the event's own clock). */
export function WallTime({ lang, wall }: { lang: Language; wall: string }): VNode | null {
  const text = wallText(lang, wall);
  return text === '' ? null : <time dateTime={`${wall.slice(0, 10)}T${wall.slice(11, 16)}`}>{text}</time>;
}

/** An API error code as the edition words it, the code itself when no text exists for it. */
export function reasonText(view: Pick<ListView, 't'>, code: string): string {
  if (code === 'admin_not_in_trash') return view.t('admin_lists_not_in_trash');
  return code in catalogues.en ? view.t(code as MessageKey) : code;
}

/** The outcome of a bulk action as the 303 target carries it (100 §7.3). */
export interface BulkOutcome {
  done: number;
  refused: { id: number; code: string }[];
  /** Ids just moved to the Trash: the Undo form restores them. */
  undo: number[];
}

/** `?message=bulk&done=&refused=id:code,…&undo=id,…` read back; null for any other message. */
export function bulkOutcomeOf(query: Record<string, string | string[] | undefined>): BulkOutcome | 'nothing' | null {
  const get = (name: string) => {
    const value = query[name];
    return (Array.isArray(value) ? value[0] : value) ?? '';
  };
  if (get('message') === 'nothing_selected') return 'nothing';
  if (get('message') !== 'bulk') return null;
  const refused = get('refused').split(',').flatMap((item) => {
    const match = /^(\d+):([\w-]+)$/.exec(item);
    return match === null ? [] : [{ id: Number(match[1]), code: match[2] }];
  });
  const undo = get('undo').split(',').filter((item) => /^\d+$/.test(item)).map(Number);
  return { done: /^\d+$/.test(get('done')) ? Number(get('done')) : 0, refused, undo };
}

/** The bulk result in a status region, with the Undo form after a trash (a bulk `restore`). */
export function BulkMessage({ view, outcome, action, names }: { view: ListView; outcome: BulkOutcome | 'nothing' | null; action: string; names: Map<number, string> }): VNode | null {
  if (outcome === null) return null;
  if (outcome === 'nothing') {
    return <div class="notices" role="status"><p>{view.t('admin_lists_nothing_selected')}</p></div>;
  }
  return (
    <div class="notices bulk-result" role="status">
      <p>{view.t('admin_lists_bulk_done', { count: outcome.done })}</p>
      {outcome.refused.length > 0 && (
        <ul>
          {outcome.refused.map((item) => <li key={item.id}>{view.t('admin_lists_bulk_refused', { name: names.get(item.id) ?? `#${item.id}`, reason: reasonText(view, item.code) })}</li>)}
        </ul>
      )}
      {outcome.undo.length > 0 && (
        <form method="post" action={action} class="undo">
          <input type="hidden" name="_token" value={view.csrfToken} />
          <input type="hidden" name="bulk_action" value="restore" />
          {outcome.undo.map((id) => <input key={id} type="hidden" name="ids[]" value={String(id)} />)}
          <button type="submit" name="bulk_apply" value="1" class="button-secondary button">{view.t('admin_lists_bulk_undo')}</button>
        </form>
      )}
    </div>
  );
}

/** The list's "Add …" link (the frame writes the page's one `<h1>`). */
export function AddLink({ href, label }: { href: string; label: string }): VNode {
  return <p class="list-heading"><a class="button" href={href}>{label}</a></p>;
}

/** The GET search form; `keep` holds the other parameters it carries (the tab, the order). */
export function SearchForm({ view, action, search, keep, children }: { view: ListView; action: string; search?: string; keep: QueryValues; children?: ComponentChildren }): VNode {
  return (
    <form method="get" action={action} class="list-search" role="search" aria-label={view.t('admin_lists_search')}>
      {Object.entries(keep).map(([name, value]) => (value === undefined ? null : <input key={name} type="hidden" name={name} value={String(value)} />))}
      <p class="field">
        <label for="list-s">{view.t('admin_lists_search_label')}</label>
        <input id="list-s" type="search" name="s" value={search ?? ''} />
      </p>
      {children}
      <p><button type="submit" class="button button-secondary">{view.t('admin_lists_filter_button')}</button></p>
    </form>
  );
}

export interface Column {
  key: string;
  label: string;
  /** A sortable header: its current direction (or none) and the link that sorts the other way. */
  sort?: { current: 'ascending' | 'descending' | 'none'; href: string; label: string };
}

export interface TableRow {
  id: number;
  /** The row's checkbox: only rows the user may change (100 §7.3). */
  selectable: boolean;
  /** Accessible name of the checkbox. */
  name: string;
  cells: Record<string, ComponentChildren>;
}

/**
 * The list table: `<caption>`, inside a labelled region that scrolls sideways on narrow screens
 * (100 §7.3, §12 reflow); the first column is the selection when the list has bulk actions.
 */
export function DataTable({ view, id, caption, columns, rows, selectable }: { view: ListView; id: string; caption: string; columns: Column[]; rows: TableRow[]; selectable: boolean }): VNode {
  const captionId = `${id}-caption`;
  return (
    <div class="table-region" role="region" aria-labelledby={captionId} tabindex={0}>
      <table class="list-table" id={id}>
        <caption id={captionId}>{caption}</caption>
        <thead>
          <tr>
            {selectable && <th scope="col"><span class="vh">{view.t('admin_lists_col_select')}</span></th>}
            {columns.map((column) => (
              <th key={column.key} scope="col" {...(column.sort === undefined ? {} : { 'aria-sort': column.sort.current })}>
                {column.sort === undefined ? column.label : (
                  <a href={column.sort.href}>
                    {column.label}
                    <span class="vh"> ({column.sort.label})</span>
                    <span aria-hidden="true" class="sort-mark">{column.sort.current === 'ascending' ? ' ▲' : column.sort.current === 'descending' ? ' ▼' : ''}</span>
                  </a>
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr><td colSpan={columns.length + (selectable ? 1 : 0)}>{view.t('admin_lists_empty')}</td></tr>
          )}
          {rows.map((row) => (
            <tr key={row.id}>
              {selectable && (
                <td class="select">
                  {row.selectable && (
                    <>
                      <input type="checkbox" name="ids[]" value={String(row.id)} id={`select-${row.id}`} />
                      <label for={`select-${row.id}`} class="vh">{view.t('admin_lists_select_row', { name: row.name })}</label>
                    </>
                  )}
                </td>
              )}
              {columns.map((column, index) => (index === 0 ? <th key={column.key} scope="row">{row.cells[column.key]}</th> : <td key={column.key}>{row.cells[column.key]}</td>))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The actions a list's bulk control may offer (100 §7.3; the decisions of 120 §8.1). */
export type BulkActionName = 'publish' | 'trash' | 'restore' | 'delete' | 'approve' | 'reject' | 'spam';

/** The one bulk control of a list (100 §7.3): the action select and its submit button. */
export function BulkControls({ view, actions }: { view: ListView; actions: BulkActionName[] }): VNode {
  return (
    <div class="bulk-controls">
      <label for="bulk-action">{view.t('admin_lists_bulk_label')}</label>
      <select id="bulk-action" name="bulk_action">
        <option value="">{view.t('admin_lists_bulk_choose')}</option>
        {actions.map((action) => <option key={action} value={action}>{view.t(`admin_lists_bulk_${action}`)}</option>)}
      </select>
      <button type="submit" name="bulk_apply" value="1" class="button button-secondary">{view.t('admin_lists_bulk_apply')}</button>
    </div>
  );
}

/** The bulk form around the table: POST to the list's own URL, query kept. */
export function BulkForm({ view, action, children }: { view: ListView; action: string; children: ComponentChildren }): VNode {
  return (
    <form method="post" action={action} class="bulk-form">
      <input type="hidden" name="_token" value={view.csrfToken} />
      {children}
    </form>
  );
}

/** Previous/next page links and where we are (`?paged=n`, other parameters kept). */
export function Paging({ view, page, pages, href }: { view: ListView; page: number; pages: number; href: (page: number) => string }): VNode | null {
  if (pages <= 1) return null;
  return (
    <nav class="paging" aria-label={view.t('admin_lists_paging')}>
      <ul>
        <li>{page > 1 ? <a href={href(page - 1)} rel="prev">{view.t('admin_lists_previous')}</a> : <span class="disabled">{view.t('admin_lists_previous')}</span>}</li>
        <li>{view.t('admin_lists_page_of', { page, pages })}</li>
        <li>{page < pages ? <a href={href(page + 1)} rel="next">{view.t('admin_lists_next')}</a> : <span class="disabled">{view.t('admin_lists_next')}</span>}</li>
      </ul>
    </nav>
  );
}

/** A status label for records not published. */
export function StatusLabel({ view, status }: { view: ListView; status: string }): VNode | null {
  if (status === 'publish') return null;
  const key = `admin_lists_status_${status}` as MessageKey;
  return <> <span class="badge status-label">{key in catalogues.en ? view.t(key) : status}</span></>;
}
