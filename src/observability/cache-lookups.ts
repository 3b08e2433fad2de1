/** The caches whose lookups are counted (140 §4.2 `cache` label). */
export type CacheName = 'replay' | 'read' | 'page';

/**
 * Lookups served from each cache and computed instead, counted in plain numbers (an increment on
 * the hot path costs nothing measurable); the metrics registry reads them when scraped.
 */
export const cacheLookups: Record<CacheName, { hits: number; misses: number }> = {
  replay: { hits: 0, misses: 0 },
  read: { hits: 0, misses: 0 },
  page: { hits: 0, misses: 0 },
};
