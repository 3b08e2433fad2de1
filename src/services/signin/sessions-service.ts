import type { Clock } from '../../domain/dates/clock.ts';
import { csrfToken, isTokenShaped, newToken, tokenHash } from '../../domain/signin/tokens.ts';
import { toUser, type User } from '../../domain/users/user.ts';
import type { BackOfficeSettings } from '../../config.ts';
import type { Storage } from '../../storage/database.ts';
import { SessionsRepository, type SessionRow } from '../../storage/repositories/sessions-repository.ts';
import { sessionKey } from './session-key.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** 100 §4: a session without "keep me signed in" ends at most 2 days after sign-in. */
const BROWSER_SESSION_MAX = 2 * DAY;

/** `YYYY-MM-DD HH:MM:SS` UTC, the stored form of instants. */
export function utcText(instant: Date): string {
  return instant.toISOString().slice(0, 19).replace('T', ' ');
}

/** The instant of a stored `YYYY-MM-DD HH:MM:SS` UTC text, in milliseconds. */
export function instantOf(text: string): number {
  return Date.parse(`${text.replace(' ', 'T')}Z`);
}

/** A live session as a request sees it. */
export interface LiveSession {
  id: number;
  user: User;
  /** The session's CSRF token (`_token`, `X-WP-Nonce`). */
  csrfToken: string;
  remember: boolean;
  /** The absolute end. */
  expires: Date;
}

/** A session just issued: the cookie value goes to the browser only. */
export interface IssuedSession extends LiveSession {
  token: string;
}

export interface ClientInfo {
  userAgent?: string;
  ip?: string;
}

/**
 * Back office sessions (100 §4): issued at sign-in, looked up with one indexed read per request
 * (no in-process cache, so a sign-out through one instance is refused by every other at once),
 * `last_seen_utc` written at most once a minute, idle and absolute ends, revocation.
 */
export class SessionsService {
  private readonly repo: SessionsRepository;

  constructor(
    private readonly storage: Storage,
    private readonly settings: Pick<BackOfficeSettings, 'sessionIdleHours' | 'sessionRememberDays'>,
    private readonly clock: Clock,
  ) {
    this.repo = new SessionsRepository(storage.db);
  }

  /** A new session for `userId`; a presented old token is deleted first (no fixation). */
  async issue(user: User, remember: boolean, client: ClientInfo, replacing?: string): Promise<IssuedSession> {
    if (isTokenShaped(replacing)) await this.repo.deleteByTokenHash(tokenHash(replacing));
    const now = this.clock();
    const token = newToken();
    const expires = new Date(now.getTime() + (remember ? this.settings.sessionRememberDays * DAY : BROWSER_SESSION_MAX));
    const row = await this.repo.insert({
      user_id: user.id,
      token_hash: tokenHash(token),
      created_utc: utcText(now),
      last_seen_utc: utcText(now),
      expires_utc: utcText(expires),
      remember: remember ? 1 : 0,
      user_agent: (client.userAgent ?? '').slice(0, 200),
      ip: client.ip ?? '',
    });
    return { ...(await this.live({ ...row, remember: Number(row.remember) }, user, token)), token };
  }

  /**
   * The live session of a cookie value, or null (unknown, expired, idle too long: a dead row is
   * deleted on the way). One indexed read; one write at most once a minute.
   */
  async lookup(token: string | undefined): Promise<LiveSession | null> {
    if (!isTokenShaped(token)) return null;
    const found = await this.repo.findByTokenHash(tokenHash(token));
    if (!found) return null;
    const { session } = found;
    const now = this.clock().getTime();
    if (this.ended(session, now)) {
      await this.repo.delete(session.id);
      return null;
    }
    if (now - instantOf(session.last_seen_utc) >= MINUTE) await this.repo.touch(session.id, utcText(new Date(now)));
    return this.live(session, toUser(found.user), token);
  }

  private ended(session: SessionRow, now: number): boolean {
    if (now >= instantOf(session.expires_utc)) return true;
    return session.remember === 0 && now - instantOf(session.last_seen_utc) >= this.settings.sessionIdleHours * HOUR;
  }

  private async live(session: SessionRow, user: User, token: string): Promise<LiveSession> {
    return { id: session.id, user, csrfToken: csrfToken(await sessionKey(this.storage), token), remember: session.remember === 1, expires: new Date(instantOf(session.expires_utc)) };
  }

  /** Sign-out: this session's row goes. */
  async revoke(id: number): Promise<void> {
    await this.repo.delete(id);
  }

  /** Every session of a user (or every other one than `exceptId`); the number deleted. */
  revokeAllOf(userId: number, exceptId?: number): Promise<number> {
    return this.repo.deleteOfUser(userId, exceptId);
  }

  listOf(userId: number): Promise<SessionRow[]> {
    return this.repo.listOfUser(userId);
  }

  /** The daily job's purge of ended sessions and expired one-time links. */
  purge(): Promise<number> {
    const now = this.clock();
    return this.repo.purge(utcText(now), utcText(new Date(now.getTime() - this.settings.sessionIdleHours * HOUR)));
  }
}
