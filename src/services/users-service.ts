import { isRole, ROLES, type Role } from '../domain/auth/capabilities.ts';
import type { Clock } from '../domain/dates/clock.ts';
import { RestError, invalidParam } from '../domain/errors.ts';
import { oneOf, REASONS } from '../domain/reasons.ts';
import { isValidEmail, isValidLogin, toUser, type User } from '../domain/users/user.ts';
import type { Storage } from '../storage/database.ts';
import { SettingsRepository } from '../storage/repositories/settings-repository.ts';
import { UsersRepository, type AppPasswordRecord } from '../storage/repositories/users-repository.ts';
import { AcceptedCredentials } from './accepted-credentials.ts';
import { AppPasswordUses } from './app-password-uses.ts';
import { BuiltInUsers } from './built-in-users.ts';
import { generateAppPassword, generateHashKey, hashAppPassword, sameHash } from './app-passwords.ts';

export interface NewUser {
  login: string;
  role: Role;
  email?: string;
}

export interface UserChanges {
  role?: Role;
  email?: string;
}

/** An application password as its owner and administrators see it (100 §10): never the secret or its hash. */
export interface AppPasswordInfo {
  id: number;
  name: string;
  created: string;
  last_used: string | null;
}

/** An accepted credential names the application password it matched, whose use is then recorded (`recordUse`). */
export type AuthOutcome = Accepted | { error: 'invalid_username' | 'incorrect_password' };
type Accepted = { user: User; passwordId: number };

function utcNow(clock: Clock): string {
  return clock().toISOString().slice(0, 19).replace('T', ' ');
}

/** `2026-11-28 18:00:00` (stored UTC) → `2026-11-28T18:00:00Z`. */
function isoUtc(stored: string): string {
  return `${stored.replace(' ', 'T')}Z`;
}

function passwordInfo(record: AppPasswordRecord): AppPasswordInfo {
  return { id: record.id, name: record.name, created: isoUtc(record.created_utc), last_used: record.last_used_utc === null ? null : isoUtc(record.last_used_utc) };
}

const APP_PASSWORD_NAME_MAX = 100;

export interface UserOverview {
  can_sign_in: boolean;
  last_sign_in: string | null;
  sessions: number;
  application_passwords: number;
}

/** Users and their application passwords: shared by the admin API and the command line. */
export class UsersService {
  private readonly users: UsersRepository;
  private readonly settings: SettingsRepository;
  private hashKey: Promise<string> | undefined;
  private readonly accepted: AcceptedCredentials<Accepted>;
  private readonly uses: AppPasswordUses;
  private readonly builtIn: BuiltInUsers;

  constructor(storage: Storage, private readonly clock: Clock) {
    this.users = new UsersRepository(storage.db);
    this.builtIn = new BuiltInUsers(storage.db);
    this.settings = new SettingsRepository(storage.db);
    this.accepted = new AcceptedCredentials(storage.epochs);
    this.uses = new AppPasswordUses(this.users, clock);
  }

  private key(): Promise<string> {
    this.hashKey ??= this.settings.getOrCreate('app_password_hash_key', generateHashKey());
    return this.hashKey;
  }

  async create(input: NewUser): Promise<{ user: User; password: string }> {
    const { user, password } = await this.createUser(input, true);
    return { user, password: password as string };
  }

  /**
   * A new user, with a first application password unless `withPassword` is false (100 §10: a user
   * invited to the back office signs in with a password of their own choosing instead).
   */
  async createUser(input: NewUser, withPassword: boolean): Promise<{ user: User; password?: string }> {
    if (!isValidLogin(input.login)) throw invalidParam('login', REASONS.login, { messageKey: 'invalid_login' });
    if (!isRole(input.role)) throw invalidParam('role', oneOf(ROLES));
    const email = input.email ?? '';
    if (email !== '' && !isValidEmail(email)) throw invalidParam('email', REASONS.email, { messageKey: 'invalid_email' });
    if (await this.users.findByLogin(input.login)) throw new RestError(400, 'existing_user_login');
    const values = { login: input.login, email, role: input.role, created_utc: utcNow(this.clock) };
    try {
      if (!withPassword) return { user: toUser(await this.users.create(values)) };
      const password = generateAppPassword();
      const record = await this.users.createWithPassword(values, hashAppPassword(await this.key(), password));
      return { user: toUser(record), password };
    } catch (error) {
      // Two creates of one login at once: the unique index decides, the loser hears the truth.
      if (await this.users.findByLogin(input.login)) throw new RestError(400, 'existing_user_login');
      throw error;
    }
  }

  async list(): Promise<User[]> {
    return (await this.users.list()).map(toUser);
  }

  async get(id: number): Promise<User> {
    const record = await this.users.findById(id);
    if (!record) throw new RestError(404, 'rest_user_invalid_id');
    return toUser(record);
  }

  /**
   * Whether `id` is a built-in user (120 §7), for pages that offer no action the services would
   * refuse it with `rest_user_builtin`: the one rule of BuiltInUsers.
   */
  isBuiltIn(id: number): Promise<boolean> {
    return this.builtIn.has(id);
  }

  async findByLogin(login: string): Promise<User | undefined> {
    const record = await this.users.findByLogin(login);
    return record ? toUser(record) : undefined;
  }

  /** Deletes a user; their records keep their author id, which no one can sign in as again. */
  async delete(id: number): Promise<User> {
    const user = await this.get(id);
    await this.builtIn.refuse(id);
    if (user.role === 'administrator' && (await this.users.countByRole('administrator')) <= 1) {
      throw new RestError(400, 'rest_cannot_delete_last_admin');
    }
    await this.users.delete(id);
    this.accepted.forget();
    return user;
  }

  /**
   * Changes a user's role or e-mail. The last administrator keeps the role: without one, nobody
   * could manage users any more.
   */
  async update(id: number, changes: UserChanges): Promise<User> {
    const user = await this.get(id);
    if (changes.role !== undefined && !isRole(changes.role)) throw invalidParam('role', oneOf(ROLES));
    if (changes.email !== undefined && changes.email !== '' && !isValidEmail(changes.email)) {
      throw invalidParam('email', REASONS.email, { messageKey: 'invalid_email' });
    }
    // A built-in user keeps its role and stays without an e-mail address (120 §7); the same values change nothing.
    if ((changes.role !== undefined && changes.role !== user.role) || (changes.email !== undefined && changes.email !== user.email)) await this.builtIn.refuse(id);
    if (user.role === 'administrator' && changes.role !== undefined && changes.role !== 'administrator' && (await this.users.countByRole('administrator')) <= 1) {
      throw new RestError(400, 'rest_cannot_demote_last_admin');
    }
    const set = { ...(changes.role !== undefined ? { role: changes.role } : {}), ...(changes.email !== undefined ? { email: changes.email } : {}) };
    if (Object.keys(set).length === 0) return user;
    await this.users.update(id, set);
    // A role change changes what the remembered credentials may do.
    this.accepted.forget();
    return this.get(id);
  }

  /** A new application password for the user; earlier ones keep working. */
  async newPassword(id: number, name = ''): Promise<{ user: User; password: string }> {
    const user = await this.get(id);
    await this.builtIn.refuse(id);
    if (name.length > APP_PASSWORD_NAME_MAX) throw invalidParam('name', { code: 'rest_too_long', messageKey: 'reason_text_too_long', vars: { max: APP_PASSWORD_NAME_MAX } });
    const password = generateAppPassword();
    await this.users.addPassword(id, hashAppPassword(await this.key(), password), utcNow(this.clock), name.trim());
    return { user, password };
  }

  async listPasswords(id: number): Promise<AppPasswordInfo[]> {
    await this.get(id);
    return (await this.users.listPasswords(id)).map(passwordInfo);
  }

  /** Per user: sign-in state and counts of sessions and application passwords (the back office's users table). */
  async overview(): Promise<Map<number, UserOverview>> {
    const rows = await this.users.overview();
    return new Map(
      rows.map((row) => [
        row.id,
        {
          can_sign_in: Number(row.can_sign_in) === 1,
          last_sign_in: row.last_signin_utc === null ? null : isoUtc(row.last_signin_utc),
          sessions: Number(row.sessions ?? 0),
          application_passwords: Number(row.passwords ?? 0),
        },
      ]),
    );
  }

  async deletePassword(id: number, passwordId: number): Promise<void> {
    await this.get(id);
    if (!(await this.users.deletePassword(id, passwordId))) throw new RestError(404, 'application_password_not_found');
    this.accepted.forget();
  }

  async authenticateBasic(login: string, secret: string): Promise<AuthOutcome> {
    const hash = hashAppPassword(await this.key(), secret);
    return this.accepted.check(`basic ${login} ${hash}`, async (): Promise<AuthOutcome> => {
      const found = await this.users.findByLoginWithPasswordHashes(login);
      if (!found) return { error: 'invalid_username' };
      const password = found.passwords.find((stored) => sameHash(stored.hash, hash));
      if (password === undefined) return { error: 'incorrect_password' };
      this.uses.seen(password);
      return { user: toUser(found.record), passwordId: password.id };
    });
  }

  async authenticateBearer(secret: string): Promise<AuthOutcome> {
    const hash = hashAppPassword(await this.key(), secret);
    return this.accepted.check(`bearer ${hash}`, async (): Promise<AuthOutcome> => {
      const found = await this.users.findByPasswordHash(hash);
      if (!found) return { error: 'incorrect_password' };
      this.uses.seen(found.password);
      return { user: toUser(found.record), passwordId: found.password.id };
    });
  }

  /**
   * Records an accepted credential's use as its password's `last_used` (100 §10), at most once a
   * minute per password, whether the credential was looked up or remembered. Call it outside any
   * transaction. A write's promise rejects when it fails, which should cost the request nothing;
   * undefined when no write is due.
   */
  recordUse(accepted: Accepted): Promise<void> | undefined {
    return this.uses.used(accepted.passwordId);
  }

  /**
   * On a database without an administrator (a new one: migrations may add built-in users, such as
   * the submissions' contributor), creates the administrator. Returns the password only when it
   * was generated here (the caller prints it once); a configured password is never echoed.
   */
  async ensureInitialAdmin(login: string, configuredPassword: string | null): Promise<{ created: boolean; generatedPassword?: string }> {
    if ((await this.users.countByRole('administrator')) > 0) return { created: false };
    if (!isValidLogin(login)) throw new Error(`CALENDAR_ADMIN_LOGIN "${login}" is not a valid login`);
    const password = configuredPassword ?? generateAppPassword();
    try {
      await this.users.createWithPassword(
        { login, email: '', role: 'administrator', created_utc: utcNow(this.clock) },
        hashAppPassword(await this.key(), password),
      );
    } catch (error) {
      // Another instance created it in the meantime.
      if ((await this.users.countByRole('administrator')) > 0) return { created: false };
      throw error;
    }
    return configuredPassword ? { created: true } : { created: true, generatedPassword: password };
  }
}
