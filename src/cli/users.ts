import { isRole, ROLES } from '../domain/auth/capabilities.ts';
import { systemClock } from '../domain/dates/clock.ts';
import { RestError } from '../domain/errors.ts';
import { UsersService } from '../services/users-service.ts';
import { stringOption, UsageError, withStorage, type CliArgs, type CliCommand } from './command.ts';
import { signinServices } from '../services/signin/signin-services.ts';
import { PasswordsDiffer, readNewPassword } from './password-input.ts';

function withUsers(work: (users: UsersService) => Promise<void>): Promise<number> {
  return withStorage((storage) => work(new UsersService(storage, systemClock)));
}

async function findUser(users: UsersService, args: CliArgs) {
  const [ref] = args.positionals;
  if (!ref) throw new UsageError('a LOGIN or ID is required');
  const byLogin = await users.findByLogin(ref);
  if (byLogin) return byLogin;
  if (/^\d+$/.test(ref)) return users.get(Number(ref));
  throw new RestError(404, 'rest_user_invalid_id');
}

export const USERS_COMMANDS: CliCommand[] = [
  {
    words: ['users', 'add'],
    synopsis: 'LOGIN --role ROLE [--email EMAIL]',
    summary: 'create a user and print its application password',
    details: `  roles: ${ROLES.join(', ')}`,
    options: { role: { type: 'string' }, email: { type: 'string' } },
    run: (args) => {
      const [login] = args.positionals;
      if (!login) throw new UsageError('a LOGIN is required');
      const role = stringOption(args, 'role');
      if (!isRole(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
      return withUsers(async (users) => {
        const { user, password } = await users.create({ login, role, email: stringOption(args, 'email') });
        console.log(`created user ${user.id} "${user.login}" (${user.role})`);
        console.log(`application password: ${password}`);
      });
    },
  },
  {
    words: ['users', 'list'],
    synopsis: '',
    summary: 'list users (id, login, role, email)',
    options: {},
    run: () =>
      withUsers(async (users) => {
        for (const user of await users.list()) console.log(`${user.id}\t${user.login}\t${user.role}\t${user.email}`);
      }),
  },
  {
    words: ['users', 'remove'],
    synopsis: 'LOGIN|ID',
    summary: 'delete a user',
    options: {},
    run: (args) =>
      withUsers(async (users) => {
        const user = await users.delete((await findUser(users, args)).id);
        console.log(`removed user ${user.id} "${user.login}"`);
      }),
  },
  {
    words: ['users', 'new-password'],
    synopsis: 'LOGIN|ID',
    summary: 'print a new application password (old ones keep working)',
    options: {},
    run: (args) =>
      withUsers(async (users) => {
        const { user, password } = await users.newPassword((await findUser(users, args)).id);
        console.log(`new application password for "${user.login}": ${password}`);
      }),
  },
  {
    words: ['users', 'set-password'],
    synopsis: 'LOGIN|ID',
    summary: 'set the back office sign-in password (asked twice on a terminal, else one line of stdin)',
    details: '  every session and unused sign-in link of the user ends\n  exit: 0 set; 1 policy or unknown user; 2 usage or no line on stdin',
    options: {},
    run: (args) =>
      withSignin(args, async ({ user, sessions, signin }) => {
        // Refused before the password is typed, not after.
        await signin.refuseBuiltIn(user.id);
        let password: string;
        try {
          password = await readNewPassword();
        } catch (error) {
          if (!(error instanceof PasswordsDiffer)) throw error;
          console.error(`calendar: ${error.message}`);
          return 1;
        }
        await signin.setPassword(user, password);
        const ended = await sessions.revokeAllOf(user.id);
        console.log(`sign-in password set for "${user.login}"; ${ended} sessions signed out`);
        return 0;
      }),
  },
  {
    words: ['users', 'invite'],
    synopsis: 'LOGIN|ID [--origin URL]',
    summary: 'print a one-time link (7 days) to choose a sign-in password',
    details: '  --origin URL   the link\'s origin (default CALENDAR_PUBLIC_URL); earlier unused links stop working\n  exit: 0; 1 unknown user; 2 usage',
    options: { origin: { type: 'string' } },
    run: (args) =>
      withSignin(args, async ({ user, signin, config }) => {
        const given = stringOption(args, 'origin');
        let origin = config.publicUrl;
        if (given !== undefined) {
          try {
            origin = new URL(given).origin;
          } catch {
            throw new UsageError(`--origin must be an absolute URL, got "${given}"`);
          }
        }
        const { token, expires } = await signin.createLink(user.id, 'invite');
        const path = `${config.basePath}/admin/invite/${token}`;
        console.log(`sign-in link for "${user.login}" (valid until ${expires.toISOString().slice(0, 16).replace('T', ' ')} UTC):`);
        console.log(origin === null ? path : origin + path);
        if (origin === null) console.log('(the path alone: prefix it with the address of the service, or set CALENDAR_PUBLIC_URL or --origin)');
        return 0;
      }),
  },
  {
    words: ['users', 'sign-out'],
    synopsis: 'LOGIN|ID',
    summary: 'end every back office session of the user',
    details: '  exit: 0; 1 unknown user; 2 usage',
    options: {},
    run: (args) =>
      withSignin(args, async ({ user, sessions }) => {
        const ended = await sessions.revokeAllOf(user.id);
        console.log(`${ended} sessions signed out for "${user.login}"`);
        return 0;
      }),
  },
];

/** The user named by the arguments and the sign-in services, on the configured database. */
function withSignin(
  args: CliArgs,
  work: (input: { user: Awaited<ReturnType<typeof findUser>>; config: import('../config.ts').Config } & ReturnType<typeof signinServices>) => Promise<number>,
): Promise<number> {
  return withStorage(async (storage, config) => {
    const user = await findUser(new UsersService(storage, systemClock), args);
    return work({ user, config, ...signinServices({ storage, clock: systemClock, config }) });
  });
}
