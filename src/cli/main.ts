import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { isRole, ROLES } from '../domain/auth/capabilities.ts';
import { systemClock } from '../domain/dates/clock.ts';
import { InvalidParamsError, RestError } from '../domain/errors.ts';
import { translate } from '../i18n/catalog.ts';
import { UsersService } from '../services/users-service.ts';
import { resetFeed } from '../services/feed-jobs.ts';
import { openStorage } from '../storage/database.ts';
import { importIcsCommand } from './import-ics.ts';
import { importSiteCommand } from './import-site.ts';
import { WEBHOOKS_USAGE, webhooksCommand, WebhooksUsageError } from './webhooks.ts';

const USAGE = `usage: calendar users <command>
  users add LOGIN --role ROLE [--email EMAIL]   create a user and print its application password
  users list                                   list users
  users remove LOGIN|ID                        delete a user
  users new-password LOGIN|ID                  print a new application password (old ones keep working)
       calendar changes reset
  changes reset                                after restoring a backup: every change-feed cursor answers 410 reset
       calendar import site URL [options]
  import site URL                              copy a whole calendar from a live site (calendar import site --help)
       calendar webhooks <command>             subscriptions that receive signed change messages (calendar webhooks --help)
roles: ${ROLES.join(', ')}
The database is the one DATABASE_URL names (default sqlite:./data/calendar.db).`;

class UsageError extends Error {}

async function findUser(users: UsersService, ref: string | undefined) {
  if (!ref) throw new UsageError('a LOGIN or ID is required');
  const byLogin = await users.findByLogin(ref);
  if (byLogin) return byLogin;
  if (/^\d+$/.test(ref)) return users.get(Number(ref));
  throw new RestError(404, 'rest_user_invalid_id');
}

async function run(argv: string[]): Promise<void> {
  if (argv[0] === 'import' && argv[1] === 'ics') return void (process.exitCode = await importIcsCommand(argv.slice(2)));
  if (argv[0] === 'import' && argv[1] === 'site') process.exit(await importSiteCommand(argv.slice(2)));
  if (argv[0] === 'webhooks') return webhooksCommand(argv.slice(1));
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { role: { type: 'string' }, email: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const [group, command, ref] = positionals;
  if (!values.help && group === 'changes' && command === 'reset') {
    const storage = await openStorage(loadConfig().databaseUrl);
    try {
      console.log(`change feed epoch renewed: ${await resetFeed(storage.db)}`);
    } finally {
      await storage.close();
    }
    return;
  }
  if (values.help || group !== 'users' || !command) throw new UsageError('');
  const storage = await openStorage(loadConfig().databaseUrl);
  const users = new UsersService(storage, systemClock);
  try {
    switch (command) {
      case 'add': {
        if (!ref) throw new UsageError('a LOGIN is required');
        if (!isRole(values.role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
        const { user, password } = await users.create({ login: ref, role: values.role, email: values.email });
        console.log(`created user ${user.id} "${user.login}" (${user.role})`);
        console.log(`application password: ${password}`);
        return;
      }
      case 'list':
        for (const user of await users.list()) console.log(`${user.id}\t${user.login}\t${user.role}\t${user.email}`);
        return;
      case 'remove': {
        const user = await users.delete((await findUser(users, ref)).id);
        console.log(`removed user ${user.id} "${user.login}"`);
        return;
      }
      case 'new-password': {
        const { user, password } = await users.newPassword((await findUser(users, ref)).id);
        console.log(`new application password for "${user.login}": ${password}`);
        return;
      }
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } finally {
    await storage.close();
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof WebhooksUsageError) {
    if (error.message) console.error(`calendar: ${error.message}`);
    console.error(WEBHOOKS_USAGE);
    process.exit(2);
  }
  if (error instanceof InvalidParamsError) {
    const reasons = Object.entries(error.failures).map(([name, failure]) => `${name} ${translate('en', failure.reason.messageKey, failure.reason.vars)}`);
    console.error(`calendar: ${reasons.join('; ')}`);
    process.exit(1);
  }
  if (error instanceof UsageError) {
    if (error.message) console.error(`calendar: ${error.message}`);
    console.error(USAGE);
    process.exit(2);
  }
  if (error instanceof RestError) {
    const params = 'failures' in error ? ` (${Object.keys((error as { failures: object }).failures).join(', ')})` : '';
    console.error(`calendar: ${translate('en', error.messageKey, error.vars)}${params}`);
    process.exit(1);
  }
  console.error(`calendar: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
