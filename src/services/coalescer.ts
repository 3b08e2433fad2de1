/** The outcome of one submitted item of a group: its own value or its own error. */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Runs concurrent submissions in groups: an item submitted while `concurrency` groups are
 * running waits, and every item waiting when one ends forms the next group (up to `maxItems`).
 * A lone request waits for one turn of the event loop. Under load the per-group costs (a
 * transaction, its commit, one statement per step) are shared.
 */
export class Coalescer<Item, Result> {
  private readonly waiting: Array<{ item: Item; resolve: (value: Result) => void; reject: (error: unknown) => void }> = [];
  private running = 0;
  private scheduled = false;

  constructor(
    private readonly runGroup: (items: readonly Item[]) => Promise<Array<Settled<Result>>>,
    private readonly options: { maxItems: number; concurrency: number },
  ) {}

  submit(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
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

  private startGroups(): void {
    while (this.running < this.options.concurrency && this.waiting.length > 0) {
      const group = this.waiting.splice(0, this.options.maxItems);
      this.running++;
      this.runGroup(group.map((entry) => entry.item))
        .then(
          (results) => results.forEach((result, index) => (result.ok ? group[index].resolve(result.value) : group[index].reject(result.error))),
          (error: unknown) => group.forEach((entry) => entry.reject(error)),
        )
        .finally(() => {
          this.running--;
          this.scheduleGroups();
        });
    }
  }
}
