import type { IncomingMessage } from 'node:http';

/** The route pattern each request was answered by (140 §4.2 `route`), set by the router or the replay. */
const labels = new WeakMap<IncomingMessage, string>();

/** `/events/:id(^\d+$)` → `/events/:id`: the pattern as a person reads it, never a raw path. */
export function routeLabel(pattern: string): string {
  return pattern.replace(/(:\w+)\([^/]*?\)/g, '$1');
}

export function setRouteLabel(request: IncomingMessage, label: string): void {
  labels.set(request, label);
}

/** Unmatched requests share one label, so that a scanner cannot create series. */
export function routeLabelOf(request: IncomingMessage): string {
  return labels.get(request) ?? 'unmatched';
}
