/**
 * What a browser with JavaScript off would submit from the first editor form of a page: text,
 * hidden, date and time inputs, ticked checkboxes and radios, the selected option of each select,
 * text areas — in document order. Read from the markup the editor renders (attributes quoted,
 * values escaped), so that a reopened form can be compared with what was sent, and re-sent.
 */
export type FormPairs = Array<[string, string]>;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'", nbsp: '\u00a0' };
const unescape = (text: string) => text.replace(/&(amp|lt|gt|quot|#39|#x27|nbsp);/g, (_all, name: string) => ENTITIES[name]);

function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of text.matchAll(/([\w:-]+)(?:="([^"]*)")?/g)) out[match[1]] = unescape(match[2] ?? '');
  return out;
}

/** The editor form's own markup (`data-event-editor`). */
export function editorForm(html: string): string {
  const editor = html.indexOf('data-event-editor');
  const from = html.lastIndexOf('<form', editor);
  return html.slice(from, html.indexOf('</form>', editor));
}

export function formState(html: string): FormPairs {
  const markup = editorForm(html);
  const found: Array<[number, string, string]> = [];
  for (const match of markup.matchAll(/<input\b([^>]*)>/g)) {
    const a = attributes(match[1]);
    if (a.name === undefined) continue;
    if ((a.type === 'checkbox' || a.type === 'radio') && a.checked === undefined) continue;
    found.push([match.index!, a.name, a.value ?? (a.type === 'checkbox' ? 'on' : '')]);
  }
  for (const match of markup.matchAll(/<textarea\b([^>]*)>([\s\S]*?)<\/textarea>/g)) {
    found.push([match.index!, attributes(match[1]).name, unescape(match[2])]);
  }
  for (const match of markup.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/g)) {
    const options = [...match[2].matchAll(/<option\b([^>]*)>/g)].map((option) => attributes(option[1]));
    const chosen = options.find((option) => option.selected !== undefined) ?? options[0];
    found.push([match.index!, attributes(match[1]).name, chosen?.value ?? '']);
  }
  return found.sort((a, b) => a[0] - b[0]).map(([, name, value]) => [name, value]);
}

/** One field's values (a multi-valued one, like `categories[]`, in order). */
export function values(pairs: FormPairs, name: string): string[] {
  return pairs.filter(([key]) => key === name).map(([, value]) => value);
}

export const value = (pairs: FormPairs, name: string): string | undefined => values(pairs, name)[0];

/** Pairs as the `form()` helper takes them. */
export function fields(pairs: FormPairs): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, item] of pairs) (out[name] ??= []).push(item);
  return out;
}

/** The options a select offers. */
export function selectOptions(html: string, name: string): string[] {
  const match = new RegExp(`<select\\b[^>]*name="${name.replace(/[[\]]/g, '\\$&')}"[^>]*>([\\s\\S]*?)</select>`).exec(html);
  return match === null ? [] : [...match[1].matchAll(/<option\b([^>]*)>/g)].map((option) => attributes(option[1]).value ?? '');
}
