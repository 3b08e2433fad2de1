/**
 * The event editor's layout (100 §8), appended to the one stylesheet: date rows that wrap, check
 * groups, the category tree's indentation, field errors. Nothing here may widen the page past
 * 320 CSS px (100 §12 reflow).
 */
export const EDITOR_STYLES = `
.event-editor{max-width:48rem}
.event-editor fieldset{border:1px solid var(--border);border-radius:var(--radius);padding:var(--space-3) var(--space-4);margin:var(--space-3) 0;min-width:0}
.event-editor fieldset.editor-body{border:0;padding:0;margin:0}
.event-editor legend{font-weight:600}
.event-editor .field{margin:var(--space-3) 0}
.event-editor input:not([type=checkbox]):not([type=radio]),.event-editor select,.event-editor textarea{width:100%}
.event-editor textarea{min-height:6rem;resize:vertical}
.editor-row{display:flex;flex-wrap:wrap;gap:0 var(--space-4)}
.editor-row>.field{flex:1 1 10rem;min-width:0}
.editor-checks .field-check,.event-editor .field-check{display:flex;align-items:flex-start;gap:var(--space-2);min-height:2rem;margin:var(--space-1) 0}
.event-editor .field-check input{width:1.25rem;height:1.25rem;min-height:0;margin:0;flex:none}
.event-editor .field-check label{font-weight:400;font-size:inherit}
.editor-tree .depth-1{padding-left:1.5rem}.editor-tree .depth-2{padding-left:3rem}.editor-tree .depth-3{padding-left:4.5rem}.editor-tree .depth-4,.editor-tree .depth-5{padding-left:6rem}
.field-error{color:var(--danger);font-weight:600;margin:var(--space-1) 0}
[aria-invalid=true]{border-color:var(--danger);border-width:2px}
.field-required{font-weight:400}
.editor-buttons{display:flex;flex-wrap:wrap;gap:var(--space-3);margin:var(--space-5) 0}
.editor-links{display:flex;flex-wrap:wrap;gap:var(--space-4)}
.editor-links:empty{display:none}
.editor-preview ol{padding-left:1.5rem}
.editor-restore{margin:var(--space-3) 0}
`;
