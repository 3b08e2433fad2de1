import type { IncomingMessage } from 'node:http';
import type { SitePaths } from '../plugins/request-state.ts';

/** Requests that arrived in the `?rest_route=` form, and whether the value named a REST address at all. */
const rewritten = new WeakMap<IncomingMessage, { valid: boolean }>();

/** Whether `raw` came as `{base}/?rest_route=…` (140 §1.4): only REST routes may answer it. */
export function restRouteForm(raw: IncomingMessage): { valid: boolean } | undefined {
  return rewritten.get(raw);
}

function decoded(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/**
 * WordPress's plain-permalink form (140 §1.4): a request to `{base}/` or `{base}/index.php` whose
 * query has `rest_route` is rewritten to `{api}{rest_route}` with the other query parameters as
 * they came, before the replay cache and the router see it, so it is the pretty form's request in
 * every respect.
 */
export function restRouteRewriter(paths: SitePaths): (raw: IncomingMessage) => void {
  const entries = new Set([`${paths.basePath}/`, `${paths.basePath}/index.php`, paths.basePath === '' ? '/' : paths.basePath]);
  return (raw) => {
    const url = raw.url ?? '/';
    const mark = url.indexOf('?');
    if (mark === -1 || !entries.has(url.slice(0, mark)) || !url.includes('rest_route', mark)) return;
    const parts = url.slice(mark + 1).split('&');
    const at = parts.findIndex((part) => decoded(part.split('=', 1)[0]!) === 'rest_route');
    if (at === -1) return;
    const value = decoded(parts[at]!.slice('rest_route'.length + 1)) ?? '';
    const rest = parts.filter((_part, index) => index !== at).join('&');
    // A value that is no address stays where it came (refused 404 rest_no_route by the route guard).
    const valid = value.startsWith('/');
    if (valid) raw.url = `${paths.apiPath}${encodeURI(value).replace(/[?#]/g, encodeURIComponent)}${rest === '' ? '' : `?${rest}`}`;
    rewritten.set(raw, { valid });
  };
}
