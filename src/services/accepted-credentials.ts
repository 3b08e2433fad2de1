import type { User } from '../domain/users/user.ts';
import type { CacheEpochs } from '../storage/cache-epochs.ts';

/** Distinct credentials remembered at most; more are a sign of many clients, not of one repeating itself. */
const MAX_ENTRIES = 1000;

/**
 * Credentials accepted lately, so that a client sending the same ones with every request costs no
 * query: an entry holds while no other process or instance has changed users or passwords
 * (`CacheEpochs.credentials`) and until this process changes them itself (`forget`). Refusals are
 * never remembered: a user or password created a moment later must work at once.
 */
export class AcceptedCredentials<Accepted extends { user: User }> {
  private readonly accepted = new Map<string, { accepted: Accepted; version: number }>();

  constructor(private readonly epochs: Pick<CacheEpochs, 'credentials'>) {}

  /** What `key` was accepted with, or `lookup`'s verdict (remembered when it accepts). */
  async check<Refused extends { error: string }>(key: string, lookup: () => Promise<Accepted | Refused>): Promise<Accepted | Refused> {
    // Read before the lookup: a change committed during it moves the version the entry is kept under.
    const version = this.epochs.credentials();
    const entry = this.accepted.get(key);
    if (entry !== undefined && entry.version === version) return entry.accepted;
    const outcome = await lookup();
    if (version !== null && 'user' in outcome) {
      if (this.accepted.size >= MAX_ENTRIES) this.accepted.clear();
      this.accepted.set(key, { accepted: Object.freeze({ ...outcome, user: Object.freeze(outcome.user) }), version });
    }
    return outcome;
  }

  forget(): void {
    this.accepted.clear();
  }
}
