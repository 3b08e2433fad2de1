import type { Storage } from '../storage/database.ts';
import { nextScheduledPublication } from '../storage/repositories/scheduled-repository.ts';

/** The cache as of one epoch; whatever is read after opening it is at least that new. */
export interface CacheView<V> {
  get(key: string, compute: () => Promise<V>): Promise<V>;
}

/**
 * Results of expensive reads (list pages with their totals, serialized objects, the records
 * that decide who may see them), kept while the storage's cache epoch is unchanged and no
 * scheduled publication has come due. Opening a view costs no query: the epoch moves with every
 * committed write, through any process or instance (cache-epochs.ts), and the next scheduled
 * publication is read once per epoch. Read the data a value is built from only after opening the
 * view: a value may then be newer than its epoch (harmless), never older. Bounded in entries;
 * the oldest entry goes first.
 */
export class ReadCache<V> {
  private readonly entries = new Map<string, V>();
  private epoch: number | null = null;
  private validUntil: Promise<string | null> = Promise.resolve(null);

  constructor(
    private readonly storage: Pick<Storage, 'db' | 'epochs'>,
    private readonly maxEntries = 500,
  ) {}

  async open(nowUtc: string): Promise<CacheView<V>> {
    const epoch = await this.storage.epochs.current();
    if (epoch === null) return { get: (_key, compute) => compute() };
    if (epoch !== this.epoch) {
      this.entries.clear();
      this.epoch = epoch;
      this.validUntil = nextScheduledPublication(this.storage.db, nowUtc);
    }
    const until = await this.validUntil;
    if (until !== null && nowUtc >= until) {
      this.entries.clear();
      this.validUntil = nextScheduledPublication(this.storage.db, nowUtc);
    }
    return { get: (key, compute) => this.get(epoch, key, compute) };
  }

  private async get(epoch: number, key: string, compute: () => Promise<V>): Promise<V> {
    if (this.epoch === epoch) {
      if (this.entries.has(key)) return this.entries.get(key)!;
    }
    const value = await compute();
    // A concurrent request may have moved the cache to a newer epoch meanwhile: then this
    // value, computed under the older one, is returned but not kept.
    if (this.epoch === epoch) {
      this.entries.delete(key);
      this.entries.set(key, value);
      if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    }
    return value;
  }
}
