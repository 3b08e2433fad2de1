import { EDITOR_STYLES } from './editor-stylesheet.ts';
import { LISTS_STYLES } from './lists-stylesheet.ts';
import { RECORDS_STYLESHEET } from './records-stylesheet.ts';

/**
 * The back office's layout (100 §12) on the design system's properties and generic classes,
 * appended to the one stylesheet the pages use. Each area adds its own rules in
 * `src/web/admin/<area>-stylesheet.ts` and ONE entry in ADMIN_AREA_STYLES below. Mobile first:
 * nothing here is wider than 320 CSS px; tables scroll inside their labelled region.
 */
const ADMIN_LAYOUT = `
body.admin{margin:0;overflow-wrap:anywhere}
.admin-header{display:flex;flex-wrap:wrap;align-items:center;gap:var(--space-2) var(--space-4);padding:var(--space-2) var(--space-4);border-bottom:1px solid var(--border);background:var(--surface-sunken)}
.admin-header p{margin:0}
.admin-site{font-weight:700}
.admin-site-label{font-weight:400;color:var(--text-muted)}
.admin-nav{flex:1 1 100%;order:3}
.admin-nav ul,.admin-languages ul{display:flex;flex-wrap:wrap;gap:var(--space-1) var(--space-3);margin:0;padding:0;list-style:none}
.admin-nav a,.admin-languages a{display:inline-block;min-height:24px;padding:var(--space-1) 0}
.admin-nav a[aria-current=page]{font-weight:700;text-decoration-thickness:3px}
.admin-account{display:flex;flex-wrap:wrap;align-items:center;gap:var(--space-2) var(--space-3);margin-left:auto}
.admin-signout{margin:0}
.admin-languages{font-size:.875rem}
.admin-main{max-width:72rem;margin:0 auto;padding:var(--space-4);display:flex;flex-direction:column;gap:var(--space-4)}
.admin-main:focus{outline:none}
.admin-main h1{margin:0}
.admin-public .admin-main{max-width:28rem}
.admin-form{display:flex;flex-direction:column;gap:var(--space-4)}
.admin-form input:not([type=checkbox]):not([type=radio]),.admin-form select,.admin-form textarea{width:100%;max-width:40rem;box-sizing:border-box;min-height:2.5rem;padding:.375rem var(--space-2);font:inherit;color:var(--text);background:var(--surface);border:1px solid var(--border-strong);border-radius:var(--radius)}
.admin-form fieldset{border:1px solid var(--border);border-radius:var(--radius);padding:var(--space-3);margin:0;min-width:0}
.field-check{flex-direction:row;flex-wrap:wrap;align-items:center;gap:var(--space-2)}
.field-check .hint{flex-basis:100%}
.field-check input{width:1.5rem;height:1.5rem;margin:0}
.field-invalid input,.field-invalid select,.field-invalid textarea{border-color:var(--danger)!important;border-width:2px!important}
.field-error{margin:0;color:var(--danger);font-weight:600}
.required{color:var(--text-muted);font-weight:400}
.error-summary{padding:var(--space-3) var(--space-4);border:3px solid var(--danger);border-radius:var(--radius)}
.error-summary:focus{outline:3px solid var(--accent);outline-offset:2px}
.error-summary h2{margin:0 0 var(--space-2);font-size:1.125rem}
.error-summary ul{margin:0;padding-left:var(--space-4)}
.admin-table-region{overflow-x:auto;max-width:100%}
.admin-table-region:focus{outline:2px solid var(--accent)}
.admin-main table{border-collapse:collapse;width:100%}
.admin-main th,.admin-main td{text-align:left;padding:var(--space-2);border-bottom:1px solid var(--border);vertical-align:top}
.admin-main caption{text-align:left;font-weight:700;padding:var(--space-2) 0}
@media (min-width:48rem){.admin-nav{flex:0 1 auto;order:0}}
`;

/** The areas' own rules (one entry each). */
const ADMIN_AREA_STYLES: string[] = [
  EDITOR_STYLES,
  LISTS_STYLES,
  RECORDS_STYLESHEET,
];

export const ADMIN_STYLES = [ADMIN_LAYOUT, ...ADMIN_AREA_STYLES].join('\n');
