import type { Clock } from '../domain/dates/clock.ts';
import type { PasswordUse, UsersRepository } from '../storage/repositories/users-repository.ts';
import { instantOf, utcText } from './signin/sessions-service.ts';

const MINUTE = 60_000;
/** Passwords whose last use is remembered at most; past that the memory starts again (a write each, guarded by the database). */
const MAX_ENTRIES = 1000;

/**
 * When each application password was last used (100 §10 `last_used`), written at most once a
 * minute per password as sessions' `last_seen` is: a client that sends its password with every
 * request pays one write a minute, not one a request. An accepted credential is mostly answered
 * from memory (AcceptedCredentials) without reading the password's row, so the instant last
 * written or read is remembered here.
 */
export class AppPasswordUses {
  private readonly lastUse = new Map<number, number>();

  constructor(
    private readonly users: UsersRepository,
    private readonly clock: Clock,
  ) {}

  /** What a lookup read: a later use recorded by another process is not written again within its minute. */
  seen(password: PasswordUse): void {
    if (password.last_used_utc === null) return;
    const instant = instantOf(password.last_used_utc);
    if (instant > (this.lastUse.get(password.id) ?? -Infinity)) this.remember(password.id, instant);
  }

  /**
   * A successful authentication with password `id`: recorded when a minute has passed since its
   * last recorded use, and then the write's promise, which rejects when the write fails (a failed
   * write is not tried again within the minute either). Within the minute, undefined: the common
   * case costs the request no promise.
   */
  used(id: number): Promise<void> | undefined {
    const now = this.clock();
    const last = this.lastUse.get(id);
    if (last !== undefined && now.getTime() - last < MINUTE) return undefined;
    this.remember(id, now.getTime());
    return this.users.recordPasswordUse(id, utcText(now), utcText(new Date(now.getTime() - MINUTE)));
  }

  private remember(id: number, instant: number): void {
    if (this.lastUse.size >= MAX_ENTRIES && !this.lastUse.has(id)) this.lastUse.clear();
    this.lastUse.set(id, instant);
  }
}
