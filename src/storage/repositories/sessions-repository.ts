import type { Kysely } from 'kysely';
import { tryJobLock } from '../locks.ts';
import { inTransaction } from '../transactions.ts';
import type { Database, SessionTable, SigninLinkTable } from '../schema.ts';
import type { Selectable, Insertable } from 'kysely';
import type { UserRecord } from './users-repository.ts';

export type SessionRow = Selectable<SessionTable>;
export type SigninLinkRow = Selectable<SigninLinkTable>;

/** The advisory lock of the daily purge (100 §4). */
const PURGE_LOCK = 100_004_001;

/** A session with its user, as one lookup reads them (the role is read with the session, 100 §4). */
export interface SessionWithUser {
  session: SessionRow;
  user: UserRecord;
}

/** A user's sign-in state: who they are and the stored sign-in hash. */
export interface SigninUser extends UserRecord {
  signin_hash: string | null;
}

/** Sessions, one-time links and the sign-in columns of users (100 §3, §4): the only SQL of the back office's sign-in. */
export class SessionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: Insertable<SessionTable>): Promise<SessionRow> {
    return this.db.insertInto('sessions').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** One indexed read: the session of a token hash joined with its user. */
  async findByTokenHash(hash: string): Promise<SessionWithUser | undefined> {
    const row = await this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select([
        'sessions.id', 'sessions.user_id', 'sessions.token_hash', 'sessions.created_utc', 'sessions.last_seen_utc',
        'sessions.expires_utc', 'sessions.remember', 'sessions.user_agent', 'sessions.ip',
        'users.login', 'users.email', 'users.role', 'users.created_utc as user_created_utc',
      ])
      .where('sessions.token_hash', '=', hash)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const { login, email, role, user_created_utc, ...session } = row;
    return { session: { ...session, remember: Number(session.remember) }, user: { id: session.user_id, login, email, role, created_utc: user_created_utc } };
  }

  async touch(id: number, lastSeenUtc: string): Promise<void> {
    await this.db.updateTable('sessions').set({ last_seen_utc: lastSeenUtc }).where('id', '=', id).execute();
  }

  async delete(id: number): Promise<number> {
    const result = await this.db.deleteFrom('sessions').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async deleteByTokenHash(hash: string): Promise<number> {
    const result = await this.db.deleteFrom('sessions').where('token_hash', '=', hash).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Every session of a user, or every one but `exceptId`. */
  async deleteOfUser(userId: number, exceptId?: number): Promise<number> {
    let query = this.db.deleteFrom('sessions').where('user_id', '=', userId);
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  listOfUser(userId: number): Promise<SessionRow[]> {
    return this.db.selectFrom('sessions').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  }

  /**
   * Sessions past their absolute end, those without "keep me signed in" idle since
   * `idleBeforeUtc`, and expired one-time links: what the daily job deletes. On PostgreSQL one
   * instance at a time (an advisory lock; the others skip).
   */
  async purge(nowUtc: string, idleBeforeUtc: string): Promise<number> {
    return inTransaction(this.db, async (trx) => {
      if (!(await tryJobLock(trx, PURGE_LOCK))) return 0;
      const sessions = await trx
        .deleteFrom('sessions')
        .where((eb) => eb.or([eb('expires_utc', '<=', nowUtc), eb.and([eb('remember', '=', 0), eb('last_seen_utc', '<=', idleBeforeUtc)])]))
        .executeTakeFirst();
      const links = await trx.deleteFrom('signin_links').where('expires_utc', '<=', nowUtc).executeTakeFirst();
      return Number(sessions.numDeletedRows) + Number(links.numDeletedRows);
    });
  }

  /** A user by login, or by e-mail when exactly one user has it (100 §5.2). */
  async findSigninUser(loginOrEmail: string): Promise<SigninUser | undefined> {
    const columns = ['id', 'login', 'email', 'role', 'created_utc', 'signin_hash'] as const;
    const byLogin = await this.db.selectFrom('users').select(columns).where('login', '=', loginOrEmail).executeTakeFirst();
    if (byLogin) return byLogin;
    if (!loginOrEmail.includes('@')) return undefined;
    const byEmail = await this.db.selectFrom('users').select(columns).where((eb) => eb(eb.fn('lower', ['email']), '=', loginOrEmail.toLowerCase())).limit(2).execute();
    return byEmail.length === 1 ? byEmail[0] : undefined;
  }

  async findSigninUserById(id: number): Promise<SigninUser | undefined> {
    return this.db.selectFrom('users').select(['id', 'login', 'email', 'role', 'created_utc', 'signin_hash']).where('id', '=', id).executeTakeFirst();
  }

  async setSigninHash(userId: number, hash: string | null, changedUtc: string): Promise<void> {
    await this.db.updateTable('users').set({ signin_hash: hash, signin_changed_utc: changedUtc }).where('id', '=', userId).execute();
  }

  /** A rehash with stronger parameters: the password is the same, so `signin_changed_utc` stays. */
  async replaceSigninHash(userId: number, oldHash: string, newHash: string): Promise<void> {
    await this.db.updateTable('users').set({ signin_hash: newHash }).where('id', '=', userId).where('signin_hash', '=', oldHash).execute();
  }

  async setLastSignin(userId: number, atUtc: string): Promise<void> {
    await this.db.updateTable('users').set({ last_signin_utc: atUtc }).where('id', '=', userId).execute();
  }

  /** Whether any administrator has a sign-in password (100 §3.2's start message). */
  async anyAdministratorCanSignIn(): Promise<boolean> {
    const row = await this.db.selectFrom('users').select('id').where('role', '=', 'administrator').where('signin_hash', 'is not', null).limit(1).executeTakeFirst();
    return row !== undefined;
  }

  async insertLink(row: Insertable<SigninLinkTable>): Promise<void> {
    await this.db.insertInto('signin_links').values(row).execute();
  }

  /** Unused links of a user stop working (a new link, a password set through any way). */
  async deleteUnusedLinks(userId: number): Promise<number> {
    const result = await this.db.deleteFrom('signin_links').where('user_id', '=', userId).where('used_utc', 'is', null).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async findLink(hash: string): Promise<SigninLinkRow | undefined> {
    return this.db.selectFrom('signin_links').selectAll().where('token_hash', '=', hash).executeTakeFirst();
  }

  /** Marks a live link used; false when it was not live (used, expired, gone): of two racing requests one wins. */
  async useLink(id: number, nowUtc: string): Promise<boolean> {
    const result = await this.db.updateTable('signin_links').set({ used_utc: nowUtc }).where('id', '=', id).where('used_utc', 'is', null).where('expires_utc', '>', nowUtc).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
