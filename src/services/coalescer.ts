/** The outcome of one submitted item of a group: its own value or its own error. */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

export interface CoalescerOptions {
  maxItems: number;
  concurrency: number;
  /**
   * How long a group may wait, since the last submission or the last group's end, for the
   * sources that group answered to submit again (see `submit`).
   */
  patienceMs: number;
}

interface Waiting<Item, Result> {
  item: Item;
  source: object | undefined;
  resolve: (value: Result) => void;
  reject: (error: unknown) => void;
}

/**
 * Runs concurrent submissions in groups: an item submitted while `concurrency` groups are
 * running waits, and every item waiting when one ends forms the next group (up to `maxItems`).
 * A lone request waits for one turn of the event loop. Under load the per-group costs (a
 * transaction, its commit, one statement per step) are shared.
 */
export class Coalescer<Item, Result> {
  private readonly waiting: Array<Waiting<Item, Result>> = [];
  /** Sources a group answered that have not submitted since. */
  private readonly returning = new Set<object>();
  private lastProgress = 0;
  private running = 0;
  private scheduled = false;
  private patience: NodeJS.Timeout | undefined;

  constructor(
    private readonly runGroup: (items: readonly Item[]) => Promise<Array<Settled<Result>>>,
    private readonly options: CoalescerOptions,
  ) {}

  /**
   * `source` names where the item came from (a client's connection). Clients that send their next
   * item as soon as they are answered would otherwise split into two halves for good, one
   * submitting while the other's group runs; so the next group waits, up to `patienceMs` without
   * progress, for the sources the last group answered.
   */
  submit(item: Item, source?: object): Promise<Result> {
    return new Promise((resolve, reject) => {
      if (source !== undefined) this.returning.delete(source);
      this.lastProgress = performance.now();
      this.waiting.push({ item, source, resolve, reject });
      this.scheduleGroups();
    });
  }

  /**
   * Groups start on the next turn of the event loop, not at once: requests already under way
   * (waiting for the connection the last group held, say) reach `submit` in this turn and join.
   */
  private scheduleGroups(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.startGroups();
    });
  }

  /** How much longer the next group waits for the sources the last one answered (0: start now). */
  private patienceLeft(): number {
    if (this.returning.size === 0 || this.waiting.length >= this.options.maxItems) return 0;
    const left = this.options.patienceMs - (performance.now() - this.lastProgress);
    if (left > 0) return left;
    // They are not coming back soon: go without them.
    this.returning.clear();
    return 0;
  }

  private startGroups(): void {
    while (this.running < this.options.concurrency && this.waiting.length > 0) {
      const left = this.patienceLeft();
      if (left > 0) {
        // A submission looks again at once; the timer, if none comes.
        this.patience ??= setTimeout(() => {
          this.patience = undefined;
          this.startGroups();
        }, left);
        return;
      }
      const group = this.waiting.splice(0, this.options.maxItems);
      this.running++;
      this.runGroup(group.map((entry) => entry.item))
        .then(
          (results) => results.forEach((result, index) => (result.ok ? group[index].resolve(result.value) : group[index].reject(result.error))),
          (error: unknown) => group.forEach((entry) => entry.reject(error)),
        )
        .finally(() => {
          this.running--;
          for (const { source } of group) if (source !== undefined) this.returning.add(source);
          this.lastProgress = performance.now();
          this.scheduleGroups();
        });
    }
  }
}
