/** The outcome of one submitted item of a group: its own value or its own error. */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

export interface CoalescerOptions {
  maxItems: number;
  concurrency: number;
  /**
   * How long a group may wait at least, since the last submission or the last group's end, for
   * the sources that group answered to submit again (see `submit`).
   */
  patienceMs: number;
  /**
   * How long it may wait at most: the patience follows how long the sources have been taking to
   * come back (`patienceMs` up to this), as that depends on the clients and on the machine.
   */
  maxPatienceMs: number;
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
  /** When each source was last answered (weakly: a closed connection never comes back). */
  private readonly answeredAt = new WeakMap<object, number>();
  /** How long the latest source to come back since the last group started had been away. */
  private latestReturn = 0;
  /** A moving average of `latestReturn` over the last groups (ms). */
  private typicalReturn = 0;
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
   * submitting while the other's group runs; so the next group waits, up to its patience without
   * progress, for the sources the last group answered.
   */
  submit(item: Item, source?: object): Promise<Result> {
    return new Promise((resolve, reject) => {
      const now = performance.now();
      if (source !== undefined) {
        this.returning.delete(source);
        // Measured even when the group did not wait for it, or the patience could never grow. A
        // source away longer than the longest patience was not coming back at once (a person
        // typing): it says nothing about how long the others take.
        const away = now - (this.answeredAt.get(source) ?? -Infinity);
        if (away <= this.options.maxPatienceMs) this.latestReturn = Math.max(this.latestReturn, away);
      }
      this.lastProgress = now;
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

  /**
   * How long a group waits, without progress, for the sources the last one answered: half as long
   * again as they have typically taken to come back, within the options' bounds. Measured, not
   * fixed: under load on two cores a client took 4–8 ms to send its next create and pass its
   * validation, and a fixed 3 ms split 16 clients into alternating groups of about 8 again.
   */
  private patienceMs(): number {
    return Math.min(this.options.maxPatienceMs, Math.max(this.options.patienceMs, this.typicalReturn * 1.5));
  }

  /** How much longer the next group waits for the sources the last one answered (0: start now). */
  private patienceLeft(): number {
    if (this.returning.size === 0 || this.waiting.length >= this.options.maxItems) return 0;
    const left = this.patienceMs() - (performance.now() - this.lastProgress);
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
      if (this.latestReturn > 0) this.typicalReturn = this.typicalReturn === 0 ? this.latestReturn : this.typicalReturn * 0.8 + this.latestReturn * 0.2;
      this.latestReturn = 0;
      this.running++;
      this.runGroup(group.map((entry) => entry.item))
        .then(
          (results) => results.forEach((result, index) => (result.ok ? group[index].resolve(result.value) : group[index].reject(result.error))),
          (error: unknown) => group.forEach((entry) => entry.reject(error)),
        )
        .finally(() => {
          this.running--;
          this.lastProgress = performance.now();
          for (const { source } of group) {
            if (source === undefined) continue;
            this.returning.add(source);
            this.answeredAt.set(source, this.lastProgress);
          }
          this.scheduleGroups();
        });
    }
  }
}
