import type { AdminView } from './frame.tsx';
import { CsrfField } from './form-parts.tsx';
import { RegionTable } from './region-table.tsx';

export interface ImportReportView {
  dry_run: boolean;
  kind?: string;
  totals: Record<string, number>;
  items: { line: number; result: string; title?: string; reason?: string; event_id?: number; venue_id?: number; organizer_id?: number; warnings?: string[] }[];
}

/**
 * `/admin/imports/` (100 §10): one multipart form (the `_token` part first, so it is checked
 * before the file is read) for iCalendar and CSV files, and links to the CSV exports.
 */
export function ImportForm({ view, exportsUrl }: { view: AdminView; exportsUrl: (kind: string) => string }) {
  return (
    <>
      <form method="post" action={view.adminUrl('/imports/')} enctype="multipart/form-data" novalidate class="imports-form">
        <CsrfField token={view.csrfToken} />
        <fieldset>
          <legend>{view.t('rec_import_source')}</legend>
          <p class="field">
            <label for="field-file">{view.t('rec_import_file')}</label>
            <input id="field-file" name="file" type="file" accept=".ics,.csv,text/calendar,text/csv" aria-describedby="field-file-hint" />
            <span class="hint" id="field-file-hint">{view.t('rec_import_file_hint')}</span>
          </p>
          <p class="field">
            <label for="field-url">{view.t('rec_import_url')}</label>
            <input id="field-url" name="url" type="url" />
          </p>
        </fieldset>
        <fieldset>
          <legend>{view.t('rec_import_options')}</legend>
          <p class="field">
            <label for="field-status">{view.t('rec_field_status')}</label>
            <select id="field-status" name="status">
              {['publish', 'draft', 'pending', 'private'].map((status) => (
                <option value={status}>{view.t(`rec_status_${status}` as 'rec_status_draft')}</option>
              ))}
            </select>
          </p>
          <p class="field">
            <label for="field-timezone">{view.t('rec_import_timezone')}</label>
            <input id="field-timezone" name="timezone" type="text" autocomplete="off" />
          </p>
          <p class="field">
            <label for="field-category">{view.t('rec_import_category')}</label>
            <input id="field-category" name="category[]" type="text" autocomplete="off" />
          </p>
          <p class="field">
            <label for="field-update">{view.t('rec_import_update')}</label>
            <select id="field-update" name="update">
              <option value="overwrite">{view.t('rec_import_overwrite')}</option>
              <option value="skip">{view.t('rec_import_skip')}</option>
            </select>
          </p>
          <p class="field">
            <label for="field-kind">{view.t('rec_import_kind')}</label>
            <select id="field-kind" name="kind">
              <option value="events">{view.t('rec_kind_events')}</option>
              <option value="venues">{view.t('rec_kind_venues')}</option>
              <option value="organizers">{view.t('rec_kind_organizers')}</option>
            </select>
          </p>
          <p class="field">
            <label for="field-date_order">{view.t('rec_import_date_order')}</label>
            <select id="field-date_order" name="date_order">
              <option value="auto">{view.t('rec_date_order_auto')}</option>
              <option value="dmy">{view.t('rec_date_order_dmy')}</option>
              <option value="mdy">{view.t('rec_date_order_mdy')}</option>
            </select>
          </p>
          <p class="field checkbox">
            <input id="field-dry_run" name="dry_run" type="checkbox" value="1" />
            <label for="field-dry_run">{view.t('rec_import_dry_run')}</label>
          </p>
        </fieldset>
        <button type="submit" class="button">
          {view.t('rec_import_button')}
        </button>
      </form>
      <section aria-labelledby="exports">
        <h2 id="exports">{view.t('rec_exports')}</h2>
        <ul>
          {(['events', 'venues', 'organizers'] as const).map((kind) => (
            <li>
              <a href={exportsUrl(kind)}>{view.t(`rec_export_${kind}`)}</a>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

/** The report of an import (50 C.8, 140 §7.6) as a page. */
export function ImportReportPage({ view, report }: { view: AdminView; report: ImportReportView }) {
  return (
    <>
      {report.dry_run && <p class="alert">{view.t('rec_import_was_dry_run')}</p>}
      <dl class="totals">
        {Object.entries(report.totals).map(([name, count]) => (
          <>
            <dt>{name}</dt>
            <dd>{count}</dd>
          </>
        ))}
      </dl>
      <RegionTable labelledBy="report-caption" caption={view.t('rec_import_items')} columns={[view.t('rec_col_line'), view.t('rec_col_result'), view.t('rec_col_record'), view.t('rec_col_reason')]}>
        {report.items.map((item) => {
          const id = item.event_id ?? item.venue_id ?? item.organizer_id;
          const path = item.event_id ? 'events' : item.venue_id ? 'venues' : 'organizers';
          return (
            <tr>
              <td>{item.line}</td>
              <td>{item.result}</td>
              <td>{id ? <a href={view.adminUrl(`/${path}/${id}/`)}>{item.title || `#${id}`}</a> : (item.title ?? '—')}</td>
              <td>{[item.reason, ...(item.warnings ?? [])].filter(Boolean).join('; ') || '—'}</td>
            </tr>
          );
        })}
      </RegionTable>
      <p>
        <a href={view.adminUrl('/imports/')}>{view.t('rec_import_again')}</a>
      </p>
    </>
  );
}
