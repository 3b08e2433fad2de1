/**
 * Counts failed authentications per key (client address, login) in a fixed window, so that
 * guessing application passwords is throttled. In-process on purpose: each instance throttles
 * what it sees, which bounds the guessing rate per instance without shared state.
 */
export class FailureThrottle {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until `key` may try again, or 0 when it is not blocked. */
  retryAfter(key: string): number {
    const entry = this.windows.get(key);
    if (!entry) return 0;
    const remaining = entry.resetAt - this.now();
    if (remaining <= 0) {
      this.windows.delete(key);
      return 0;
    }
    return entry.count >= this.limit ? Math.ceil(remaining / 1000) : 0;
  }

  recordFailure(key: string): void {
    const now = this.now();
    const entry = this.windows.get(key);
    if (!entry || entry.resetAt <= now) {
      this.prune(now);
      this.windows.set(key, { count: 1, resetAt: now + this.windowMs });
    } else {
      entry.count += 1;
    }
  }

  /** Keeps memory bounded under a flood of distinct keys. */
  private prune(now: number): void {
    if (this.windows.size < 10_000) return;
    for (const [key, entry] of this.windows) if (entry.resetAt <= now) this.windows.delete(key);
  }
}
