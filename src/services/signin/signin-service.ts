import type { Clock } from '../../domain/dates/clock.ts';
import { invalidParam } from '../../domain/errors.ts';
import { passwordProblem } from '../../domain/signin/password-policy.ts';
import { isTokenShaped, newToken, tokenHash } from '../../domain/signin/tokens.ts';
import { toUser, type User } from '../../domain/users/user.ts';
import type { Storage } from '../../storage/database.ts';
import { SessionsRepository } from '../../storage/repositories/sessions-repository.ts';
import { BuiltInUsers } from '../built-in-users.ts';
import { dummyVerify, hashSigninPassword, needsRehash, verifySigninPassword } from './password-hash.ts';
import { utcText } from './sessions-service.ts';

/** 100 §3.4: one-time links live 7 days. */
export const LINK_DAYS = 7;

export type LinkPurpose = 'invite' | 'reset';

/** A live one-time link and whose it is. */
export interface LiveLink {
  id: number;
  user: User;
  purpose: LinkPurpose;
}

/**
 * Sign-in passwords (100 §3): checking credentials (login or unique e-mail, a dummy hash when
 * there is nothing to check, so timing tells nothing), setting a password under the policy, and
 * one-time links. Sessions are SessionsService's.
 */
export class SigninService {
  private readonly repo: SessionsRepository;
  private readonly builtIn: BuiltInUsers;

  constructor(
    storage: Storage,
    /** log2 of scrypt's N (CALENDAR_SIGNIN_HASH_COST). */
    private readonly cost: number,
    private readonly clock: Clock,
  ) {
    this.repo = new SessionsRepository(storage.db);
    this.builtIn = new BuiltInUsers(storage.db);
  }

  /** 400 `rest_user_builtin` for a user nobody may sign in as (120 §7): no password, no link. */
  refuseBuiltIn(userId: number): Promise<void> {
    return this.builtIn.refuse(userId);
  }

  /** The user these credentials sign in, or null — the same work and answer for every cause. */
  async verify(loginOrEmail: string, password: string): Promise<User | null> {
    const found = loginOrEmail === '' ? undefined : await this.repo.findSigninUser(loginOrEmail);
    if (!found || found.signin_hash === null || (await this.builtIn.has(found.id))) return dummyVerify(password, this.cost).then(() => null);
    const stored = found.signin_hash;
    if (!(await verifySigninPassword(password, stored))) return null;
    if (needsRehash(stored, this.cost)) await this.repo.replaceSigninHash(found.id, stored, await hashSigninPassword(password, this.cost));
    await this.repo.setLastSignin(found.id, utcText(this.clock()));
    return toUser(found);
  }

  /** Whether `password` is the user's current sign-in password (the profile's change form). */
  async check(userId: number, password: string): Promise<boolean> {
    const found = await this.repo.findSigninUserById(userId);
    if (!found || found.signin_hash === null) return dummyVerify(password, this.cost);
    return verifySigninPassword(password, found.signin_hash);
  }

  /**
   * Sets the user's sign-in password after the policy (`rest_invalid_param` at `field`) and
   * kills the user's unused links. Sessions are the caller's to revoke (which ones depends on who asks).
   */
  async setPassword(user: { id: number; login: string; email: string }, password: string, field = 'password'): Promise<void> {
    await this.builtIn.refuse(user.id);
    const problem = passwordProblem(password, user);
    if (problem) throw invalidParam(field, problem);
    const hash = await hashSigninPassword(password, this.cost);
    await this.repo.setSigninHash(user.id, hash, utcText(this.clock()));
    await this.repo.deleteUnusedLinks(user.id);
  }

  /** Clears the sign-in password (the users page's reset): the user cannot sign in until a link is used. */
  async clearPassword(userId: number): Promise<void> {
    await this.repo.setSigninHash(userId, null, utcText(this.clock()));
  }

  /** A new one-time link token (shown once, stored as its hash); earlier unused links stop working. */
  async createLink(userId: number, purpose: LinkPurpose): Promise<{ token: string; expires: Date }> {
    await this.builtIn.refuse(userId);
    await this.repo.deleteUnusedLinks(userId);
    const token = newToken();
    const now = this.clock();
    const expires = new Date(now.getTime() + LINK_DAYS * 24 * 3600_000);
    await this.repo.insertLink({ user_id: userId, token_hash: tokenHash(token), purpose, created_utc: utcText(now), expires_utc: utcText(expires), used_utc: null });
    return { token, expires };
  }

  /** The live link of a token, or null (unknown, used, expired). */
  async liveLink(token: string): Promise<LiveLink | null> {
    if (!isTokenShaped(token)) return null;
    const link = await this.repo.findLink(tokenHash(token));
    if (!link || link.used_utc !== null || link.expires_utc <= utcText(this.clock())) return null;
    const user = await this.repo.findSigninUserById(link.user_id);
    return user && !(await this.builtIn.has(user.id)) ? { id: link.id, user: toUser(user), purpose: link.purpose } : null;
  }

  /** Uses the link (a conditional update: of two racing requests one wins); false when it was no longer live. */
  useLink(id: number): Promise<boolean> {
    return this.repo.useLink(id, utcText(this.clock()));
  }

  /** 100 §3.2: whether any administrator can sign in. */
  anyAdministratorCanSignIn(): Promise<boolean> {
    return this.repo.anyAdministratorCanSignIn();
  }
}
