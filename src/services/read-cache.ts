import type { Kysely } from 'kysely';
import { nextScheduledPublication, readDataVersion } from '../storage/repositories/data-version-repository.ts';
import type { Database } from '../storage/schema.ts';

interface Entry<V> {
  version: number;
  value: V;
}

/** The cache as of one data version; whatever is read after opening it is at least that new. */
export interface CacheView<V> {
  get(key: string, compute: () => Promise<V>): Promise<V>;
}

/**
 * Results of expensive reads (list pages with their totals, serialized objects), kept while the
 * database's data version is unchanged and no scheduled publication has come due. Opening a view
 * costs one primary-key read of the version, so a write through any instance invalidates every
 * instance's cache at its next read. Read the data a value is built from only after opening the
 * view: a value may then be newer than its version (harmless), never older. Bounded in entries;
 * the oldest entry goes first.
 */
export class ReadCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private version = -1;
  private validUntil: string | null = null;

  constructor(private readonly maxEntries = 500) {}

  async open(db: Kysely<Database>, nowUtc: string): Promise<CacheView<V>> {
    const version = await readDataVersion(db);
    if (version !== this.version || (this.validUntil !== null && nowUtc >= this.validUntil)) {
      this.entries.clear();
      this.version = version;
      this.validUntil = await nextScheduledPublication(db, nowUtc);
    }
    return { get: (key, compute) => this.get(version, key, compute) };
  }

  private async get(version: number, key: string, compute: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && hit.version === version) return hit.value;
    const value = await compute();
    // A concurrent request may have moved the cache to a newer version meanwhile: then this
    // value, computed under the older one, is returned but not kept.
    if (this.version === version) {
      this.entries.delete(key);
      this.entries.set(key, { version, value });
      if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    }
    return value;
  }
}
