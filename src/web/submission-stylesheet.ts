/** The submission form (120 §4): the honeypot moved off-screen (not hidden from assistive technology), fieldsets (min-width 0: their min-content default let date inputs overflow 320 px), error marks; a member's list of own submissions (120 §9) as cards that fit 320 px. */
export const SUBMISSION_STYLES = `
.submission-form{max-width:40rem}
.submission-form fieldset{min-width:0;border:1px solid var(--border);border-radius:var(--radius);padding:var(--space-3) var(--space-4);margin:var(--space-4) 0}
.submission-form .field{margin:var(--space-3) 0}
.submission-form input[type=text],.submission-form input[type=email],.submission-form input[type=url],.submission-form input[type=date],.submission-form input[type=time],.submission-form select,.submission-form textarea{font:inherit;min-height:2.5rem;padding:.375rem .5rem;border:1px solid var(--border-strong);border-radius:var(--radius);background:var(--surface);color:var(--text);max-width:100%}
.submission-form textarea{min-height:8rem}
.submission-form .check{display:flex;gap:var(--space-2);align-items:center;min-height:24px}
.submission-form .check input{width:24px;height:24px}
.submission-form [aria-invalid=true]{border-color:var(--danger);border-width:2px}
.submission-form .error{color:var(--danger);font-weight:600}
.submission-form .terms{border-left:4px solid var(--border-strong);padding-left:var(--space-3)}
.url-confirm{position:absolute;left:-10000px;top:auto;width:1px;height:1px;overflow:hidden}
.submit-link{margin:var(--space-2) 0}
.own-submissions{list-style:none;padding:0;margin:var(--space-4) 0;max-width:40rem}
.own-submission{border:1px solid var(--border);border-radius:var(--radius);padding:var(--space-3) var(--space-4);margin:var(--space-3) 0;overflow-wrap:anywhere}
.own-submission h2{margin:0 0 var(--space-2)}
.own-actions{display:flex;flex-wrap:wrap;gap:var(--space-3);align-items:center}
.own-actions a,.own-actions button,.edit-actions button{min-height:24px;min-width:24px}
.edit-actions{display:flex;flex-wrap:wrap;gap:var(--space-3)}
`;
