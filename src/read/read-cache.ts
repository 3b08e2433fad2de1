import { formatWall } from '../domain/dates/datetime-format.ts';
import { RestError } from '../domain/errors.ts';
import type { Storage } from '../storage/database.ts';
import { survivesAll, type DescribedWrite } from '../storage/write-journal.ts';
import { leavePublicationsAlone, nextScheduledPublication } from '../storage/repositories/scheduled-repository.ts';

/** One request (its context object) and the instant every rule of it sees. */
export interface RequestScope {
  readonly now: Date;
}

/**
 * The epoch each request observed first. A request reads it once however many caches it opens
 * (a term filter, then the list): whatever it computes afterwards is at least that new, and on
 * PostgreSQL each reading costs a round trip.
 */
const requestEpochs = new WeakMap<RequestScope, Promise<number | null>>();

/**
 * Takes `epoch`, observed before the request was looked at, as the one it observed first (the
 * replay in front of the framework reads it for every visitor's read).
 */
export function adoptObservedEpoch(request: RequestScope, epoch: number): void {
  if (!requestEpochs.has(request)) requestEpochs.set(request, Promise.resolve(epoch));
}

/**
 * The next scheduled publication as of an epoch, read once for all the caches of one storage
 * (a single read opens two), and again once it has come due.
 */
const scheduled = new WeakMap<object, { epoch: number; asOf: string; until: Promise<string | null> }>();

function nextPublication(storage: Pick<Storage, 'db' | 'epochs'>, epoch: number, nowUtc: string, dueAt: string | null = null): Promise<string | null> {
  let known = scheduled.get(storage.epochs);
  if (known !== undefined && known.epoch < epoch && leavePublicationsAlone(storage.epochs.writesBetween(known.epoch, epoch))) {
    known = { ...known, epoch };
    scheduled.set(storage.epochs, known);
  }
  const stale = known === undefined || known.epoch !== epoch || (dueAt !== null && known.asOf < dueAt);
  if (stale) {
    known = { epoch, asOf: nowUtc, until: nextScheduledPublication(storage.db, nowUtc) };
    scheduled.set(storage.epochs, known);
  }
  return known!.until;
}

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
/** A computed value, or the refusal computing it ended in (an unknown id stays unknown until a write). */
type Entry<V> = { value: V } | { refusal: RestError };

/** A value's computation, and the value once it is computed (so that a write can be judged against it). */
interface Slot<V> {
  pending: Promise<Entry<V>>;
  settled?: Entry<V>;
  /** The latest epoch the value is known to be true at. */
  epoch: number;
}

export class ReadCache<V> {
  private readonly entries = new Map<string, Slot<V>>();
  private epoch: number | null = null;
  /**
   * When the entries stop being true: the next scheduled publication as of their epoch, or the
   * query still reading it (a miss does not wait for it: what it computes is true as of its now).
   */
  private validUntil: string | null | Promise<string | null> = null;

  constructor(
    private readonly storage: Pick<Storage, 'db' | 'epochs'>,
    private readonly maxEntries = 500,
    /**
     * Whether a value stays true after a described write (cache-epochs.ts `writesBetween`);
     * without it, or when a write is not described, every write empties the cache.
     */
    private readonly survives?: (value: V, write: DescribedWrite) => boolean,
  ) {}

  async open(request: RequestScope): Promise<CacheView<V>> {
    let observed = requestEpochs.get(request);
    if (observed === undefined) {
      observed = this.storage.epochs.current();
      requestEpochs.set(request, observed);
    }
    const epoch = await observed;
    if (epoch === null) return { get: (_key, compute) => compute() };
    if (epoch !== this.epoch) {
      // Epochs only grow: a request that observed an older one than the cache holds now just computes.
      if (this.epoch !== null && epoch < this.epoch) return { get: (_key, compute) => compute() };
      // Through described writes each value is judged when it is next looked up (`revalidated`):
      // judging them all here cost every write a walk of every entry (12 % of an update's samples).
      if (this.epoch === null || this.survives === undefined || this.storage.epochs.writesBetween(this.epoch, epoch) === null) this.entries.clear();
      this.epoch = epoch;
      this.expectPublication(nextPublication(this.storage, epoch, formatWall(request.now)));
    }
    return { get: (key, compute) => this.lookup(request, epoch, key, compute) };
  }

  /** The value under `key` as of this request, computed on a miss. */
  async get(request: RequestScope, key: string, compute: () => Promise<V>): Promise<V> {
    return (await this.open(request)).get(key, compute);
  }

  /**
   * The slot under `key` if its value is true at `epoch`: computed, and left true by every write
   * since the epoch it was last known true at (all described, as `open` saw to).
   */
  private revalidated(key: string, epoch: number): Slot<V> | undefined {
    const slot = this.entries.get(key);
    if (slot === undefined || slot.epoch === epoch) return slot;
    const survives = this.survives!;
    const { settled } = slot;
    const writes = this.storage.epochs.writesBetween(slot.epoch, epoch);
    if (settled !== undefined && 'value' in settled && survivesAll(writes, (write) => survives(settled.value, write))) {
      slot.epoch = epoch;
      return slot;
    }
    this.entries.delete(key);
    return undefined;
  }

  private expectPublication(until: Promise<string | null>): void {
    this.validUntil = until;
    until.then(
      (value) => {
        if (this.validUntil === until) this.validUntil = value;
      },
      () => {},
    );
  }

  /**
   * Concurrent misses of one key share one computation: after a write, the many requests that
   * arrive for the same page compute it once instead of each running the same queries. A kept
   * value is served while no scheduled publication has come due since its epoch began.
   */
  private async lookup(request: RequestScope, epoch: number, key: string, compute: () => Promise<V>): Promise<V> {
    let pending = this.epoch === epoch ? this.revalidated(key, epoch)?.pending : undefined;
    if (pending !== undefined && this.validUntil !== null) {
      // Most epochs have no scheduled publication ahead, and then a hit formats no date.
      const dueAt = typeof this.validUntil === 'string' ? this.validUntil : await this.validUntil;
      const nowUtc = dueAt === null ? '' : formatWall(request.now);
      if (dueAt !== null && nowUtc >= dueAt) {
        // A publication has come due: this value is not served, whatever happened meanwhile.
        if (this.epoch === epoch) {
          this.entries.clear();
          this.expectPublication(nextPublication(this.storage, epoch, nowUtc, dueAt));
        }
        pending = undefined;
      }
    }
    if (pending === undefined) {
      pending = settle(compute);
      this.keep(epoch, key, pending);
    }
    const entry = await pending;
    if ('refusal' in entry) throw entry.refusal;
    return entry.value;
  }

  /**
   * A value computed under an epoch the cache has since left is returned but not kept; a
   * computation that failed is forgotten.
   */
  private keep(epoch: number, key: string, pending: Promise<Entry<V>>): void {
    if (this.epoch !== epoch) return;
    const slot: Slot<V> = { pending, epoch };
    this.entries.delete(key);
    this.entries.set(key, slot);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    pending.then(
      (entry) => (slot.settled = entry),
      () => {
        if (this.entries.get(key) === slot) this.entries.delete(key);
      },
    );
  }
}

async function settle<V>(compute: () => Promise<V>): Promise<Entry<V>> {
  try {
    return { value: await compute() };
  } catch (error) {
    if (error instanceof RestError) return { refusal: error };
    throw error;
  }
}
