import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A package loaded on its first use instead of at start: packages a process may never need
 * (prom-client without CALENDAR_METRICS, sharp before the first upload, pino-pretty off a terminal)
 * would otherwise hold memory in every process (together about 35 MB of RSS on Node 20).
 * `prepare` runs once, on the loaded package.
 */
export function lazyModule<T>(name: string, prepare?: (loaded: T) => void): () => T {
  let loaded: T | undefined;
  return () => {
    if (loaded === undefined) {
      loaded = require(name) as T;
      prepare?.(loaded);
    }
    return loaded;
  };
}
