import { isRole, ROLES } from '../domain/auth/capabilities.ts';
import { systemClock } from '../domain/dates/clock.ts';
import { RestError } from '../domain/errors.ts';
import { UsersService } from '../services/users-service.ts';
import { stringOption, UsageError, withStorage, type CliArgs, type CliCommand } from './command.ts';

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
];
