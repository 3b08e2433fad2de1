const PATH_VARIABLE = /\(\?P<(\w+)>[^)]*\)/g;

/** `/events/(?P<id>\d+)` → `/events/{id}`; the namespace root (empty pattern) is `/`. */
export function openApiPath(pattern: string): string {
  return pattern.replace(PATH_VARIABLE, '{$1}').replace(/\\\./g, '.') || '/';
}

export function pathVariables(pattern: string): string[] {
  return [...pattern.matchAll(PATH_VARIABLE)].map(([, name]) => name);
}

/** The resource a route belongs to: the first segment of its pattern (`events`, `venues`, ...; '' for the root). */
export function resourceOf(pattern: string): string {
  return pattern.split('/')[1] ?? '';
}
