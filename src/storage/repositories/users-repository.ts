import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { toInt } from '../sql-helpers.ts';

export interface UserRecord {
  id: number;
  login: string;
  email: string;
  role: string;
  created_utc: string;
}

/** An application password as listed: never its hash. */
export interface AppPasswordRecord {
  id: number;
  name: string;
  created_utc: string;
  last_used_utc: string | null;
}

/** An application password's id and last recorded use, as authentication reads them. */
export interface PasswordUse {
  id: number;
  last_used_utc: string | null;
}

export class UsersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async countByRole(role: string): Promise<number> {
    const row = await this.db.selectFrom('users').where('role', '=', role).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    return toInt(row.n);
  }

  list(): Promise<UserRecord[]> {
    return this.db.selectFrom('users').selectAll().orderBy('id').execute();
  }

  findById(id: number): Promise<UserRecord | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByLogin(login: string): Promise<UserRecord | undefined> {
    return this.db.selectFrom('users').selectAll().where('login', '=', login).executeTakeFirst();
  }

  create(user: Omit<UserRecord, 'id'>): Promise<UserRecord> {
    return this.db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
  }

  async update(id: number, changes: Partial<Pick<UserRecord, 'role' | 'email'>>): Promise<void> {
    await this.db.updateTable('users').set(changes).where('id', '=', id).execute();
  }

  /** Creates the user and its first application password in one transaction. */
  async createWithPassword(user: Omit<UserRecord, 'id'>, passwordHash: string): Promise<UserRecord> {
    return this.db.transaction().execute(async (trx) => {
      const created = await trx.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
      await trx.insertInto('app_passwords').values({ user_id: created.id, hash: passwordHash, created_utc: user.created_utc }).execute();
      return created;
    });
  }

  async addPassword(userId: number, hash: string, createdUtc: string, name = ''): Promise<void> {
    await this.db.insertInto('app_passwords').values({ user_id: userId, hash, created_utc: createdUtc, name }).execute();
  }

  listPasswords(userId: number): Promise<AppPasswordRecord[]> {
    return this.db.selectFrom('app_passwords').select(['id', 'name', 'created_utc', 'last_used_utc']).where('user_id', '=', userId).orderBy('id').execute();
  }

  /**
   * The users table of the back office (100 §10) in one statement: whether each user can sign
   * in, the last sign-in, and how many sessions and application passwords each has.
   */
  overview(): Promise<{ id: number; can_sign_in: number | string; last_signin_utc: string | null; sessions: number | string | bigint; passwords: number | string | bigint }[]> {
    return this.db
      .selectFrom('users')
      .select((eb) => [
        'users.id',
        eb.case().when('users.signin_hash', 'is not', null).then(1).else(0).end().as('can_sign_in'),
        'users.last_signin_utc',
        eb.selectFrom('sessions').whereRef('sessions.user_id', '=', 'users.id').select((inner) => inner.fn.countAll().as('n')).as('sessions'),
        eb.selectFrom('app_passwords').whereRef('app_passwords.user_id', '=', 'users.id').select((inner) => inner.fn.countAll().as('n')).as('passwords'),
      ])
      .orderBy('users.id')
      .execute() as any;
  }

  async deletePassword(userId: number, passwordId: number): Promise<boolean> {
    const result = await this.db.deleteFrom('app_passwords').where('user_id', '=', userId).where('id', '=', passwordId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The user owning an application password, by its keyed hash, with that password's id and last use. */
  async findByPasswordHash(hash: string): Promise<{ record: UserRecord; password: PasswordUse } | undefined> {
    const row = await this.db
      .selectFrom('app_passwords')
      .innerJoin('users', 'users.id', 'app_passwords.user_id')
      .select(['users.id', 'users.login', 'users.email', 'users.role', 'users.created_utc', 'app_passwords.id as password_id', 'app_passwords.last_used_utc'])
      .where('app_passwords.hash', '=', hash)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const { password_id: id, last_used_utc, ...record } = row;
    return { record, password: { id, last_used_utc } };
  }

  /**
   * The user of a login with its application passwords' hashes, ids and last uses, in one query
   * (every Basic-authenticated request that is not remembered asks).
   */
  async findByLoginWithPasswordHashes(login: string): Promise<{ record: UserRecord; passwords: (PasswordUse & { hash: string })[] } | undefined> {
    const rows = await this.db
      .selectFrom('users')
      .leftJoin('app_passwords', 'app_passwords.user_id', 'users.id')
      .select(['users.id', 'users.login', 'users.email', 'users.role', 'users.created_utc', 'app_passwords.id as password_id', 'app_passwords.hash', 'app_passwords.last_used_utc'])
      .where('users.login', '=', login)
      .execute();
    if (rows.length === 0) return undefined;
    const { password_id: _id, hash: _hash, last_used_utc: _used, ...record } = rows[0];
    return { record, passwords: rows.flatMap((row) => (row.password_id === null || row.hash === null ? [] : [{ id: row.password_id, hash: row.hash, last_used_utc: row.last_used_utc }])) };
  }

  /**
   * Records a use of an application password at `nowUtc` unless its last recorded use is later
   * than `dueBeforeUtc`: another process's recent record (or a clock set back) stays as it is.
   */
  async recordPasswordUse(id: number, nowUtc: string, dueBeforeUtc: string): Promise<void> {
    await this.db
      .updateTable('app_passwords')
      .set({ last_used_utc: nowUtc })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_utc', 'is', null), eb('last_used_utc', '<=', dueBeforeUtc)]))
      .execute();
  }

  async delete(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

/** The user's access epoch (80 §3.5): a change-feed cursor is valid only while it is unchanged; 0 when no such user. */
export async function readAccessEpoch(db: Kysely<Database>, userId: number): Promise<number> {
  const row = await db.selectFrom('users').select('access_epoch').where('id', '=', userId).executeTakeFirst();
  return row === undefined ? 0 : Number(row.access_epoch);
}
