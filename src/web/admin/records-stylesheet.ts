/**
 * Rules of the record editors and the people pages (100 §9–§10) beyond the generic form and
 * table classes: one-button forms side by side, and secrets that wrap at 320 px (100 §12 reflow).
 */
export const RECORDS_STYLESHEET = `
.form-actions{display:flex;flex-wrap:wrap;gap:var(--space-2);margin:var(--space-3) 0}
.inline-form{display:inline-block;margin:0 var(--space-2) var(--space-2) 0}
.secret-once .secret{display:block;overflow-wrap:anywhere;word-break:break-all;font-size:1.05em}
.imports-form fieldset{min-width:0}
.imports-form input,.imports-form select{max-width:100%;box-sizing:border-box}
.totals{display:grid;grid-template-columns:max-content 1fr;gap:0 var(--space-3)}
.totals dt{font-weight:600}
`;
