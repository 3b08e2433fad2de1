import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';

/** A page as HTML text: every interpolated value escaped, except `dangerouslySetInnerHTML`. */
export function renderDocument(page: VNode): string {
  return `<!doctype html>\n${renderToString(page)}`;
}
