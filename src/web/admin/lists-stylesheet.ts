/**
 * The back office's dashboard and lists (100 §7.2, §7.3): the table scrolls sideways inside its
 * labelled region, so at 320 px the page itself never does (§12 reflow).
 */
export const LISTS_STYLES = `
.list-heading{margin:0 0 var(--space-3)}
.list-tabs{margin:var(--space-4) 0}
.list-tabs ul{display:flex;flex-wrap:wrap;list-style:none;margin:0;padding:0}
.list-search{display:flex;flex-wrap:wrap;gap:var(--space-2) var(--space-3);align-items:flex-end;margin:var(--space-3) 0}
.list-search p{margin:0}
.list-search input,.list-search select{max-width:100%}
.bulk-controls{display:flex;flex-wrap:wrap;gap:var(--space-2);align-items:center;margin:var(--space-3) 0}
.table-region{max-width:100%;overflow-x:auto;border:1px solid var(--border);border-radius:var(--radius)}
.table-region:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
.list-table{border-collapse:collapse;width:100%;min-width:48rem}
.list-table caption{text-align:left;padding:var(--space-2) var(--space-3);font-weight:600}
.list-table th,.list-table td{padding:var(--space-2) var(--space-3);border-top:1px solid var(--border);text-align:left;vertical-align:top}
.list-table thead th{background:var(--surface-sunken);white-space:nowrap}
.list-table tbody th{font-weight:600}
.list-table td.select{width:2.5rem}
.list-table input[type=checkbox]{width:1.5rem;height:1.5rem}
.list-table a{display:inline-block;min-height:1.5rem}
.series-link{font-weight:400;font-size:var(--step--1)}
.status-label{background:var(--surface-sunken);color:var(--text);border:1px solid var(--border-strong)}
.bulk-result ul{margin:var(--space-1) 0 0}
.undo{margin-top:var(--space-2)}
.dashboard{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,22rem),1fr));gap:var(--space-4);margin-top:var(--space-4)}
.dashboard-block h2{margin-top:0;font-size:var(--step-1)}
.dashboard-block h3{font-size:var(--step-0);margin:var(--space-3) 0 var(--space-1)}
.counts{display:flex;flex-wrap:wrap;gap:var(--space-1) var(--space-4);list-style:none;margin:0;padding:0}
.counts a{display:inline-block;min-height:1.5rem}
.dashboard-list{list-style:none;margin:0;padding:0;display:grid;gap:var(--space-2)}
.dashboard-list li{overflow-wrap:anywhere}
.dashboard-list .kind{font-size:var(--step--1);color:var(--text-muted)}
.inline-form{display:inline-block;margin-left:var(--space-2)}
.list-table tbody th{min-width:8rem}
.submission-review{min-width:16rem}
.submission-review p{margin:0 0 var(--space-1)}
.submission-flags{display:flex;flex-wrap:wrap;gap:var(--space-1);list-style:none;margin:0 0 var(--space-2);padding:0}
.moderate-row{border:1px solid var(--border);border-radius:var(--radius);padding:var(--space-2) var(--space-3);margin:var(--space-2) 0 0;min-width:0}
.moderate-row .field{margin:0 0 var(--space-2)}
.moderate-row select,.moderate-row textarea{width:100%;box-sizing:border-box;font:inherit}
.list-search .field-check,.moderate-row .field-check{display:flex;min-height:2.5rem}
`;
