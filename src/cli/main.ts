import packageJson from '../../package.json' with { type: 'json' };
import { resetFeed } from '../services/feed-jobs.ts';
import { BACKUP_COMMAND, RESTORE_COMMAND } from './backup.ts';
import { EXPORT_CSV_COMMAND, IMPORT_CSV_COMMAND } from './csv.ts';
import { runCommand, withStorage, type CliCommand } from './command.ts';
import { IMPORT_ICS_COMMAND } from './import-ics.ts';
import { IMPORT_SITE_COMMAND } from './import-site.ts';
import { MAIL_TEST_COMMAND } from './mail.ts';
import { USERS_COMMANDS } from './users.ts';
import { WEBHOOKS_COMMANDS } from './webhooks.ts';

const CHANGES_RESET: CliCommand = {
  words: ['changes', 'reset'],
  synopsis: '',
  summary: 'after restoring a backup by hand: every change-feed cursor answers 410 reset',
  options: {},
  run: () => withStorage(async (storage) => console.log(`change feed epoch renewed: ${await resetFeed(storage.db)}`)),
};

/** `calendar --help`, group by group: every command once. */
const GROUPS: { title: string; commands: CliCommand[] }[] = [
  { title: 'Users', commands: USERS_COMMANDS },
  { title: 'Import and export', commands: [IMPORT_ICS_COMMAND, IMPORT_SITE_COMMAND, IMPORT_CSV_COMMAND, EXPORT_CSV_COMMAND] },
  { title: 'Backups', commands: [BACKUP_COMMAND, RESTORE_COMMAND] },
  { title: 'Change feed and webhooks', commands: [CHANGES_RESET, ...WEBHOOKS_COMMANDS] },
  { title: 'Mail', commands: [MAIL_TEST_COMMAND] },
];

const COMMANDS = GROUPS.flatMap((group) => group.commands);

function commandLine(command: CliCommand, width: number): string {
  return `  ${command.words.join(' ').padEnd(width)}  ${command.summary}`;
}

function usage(commands: CliCommand[] = COMMANDS): string {
  const width = Math.max(...commands.map((command) => command.words.join(' ').length));
  const groups = GROUPS.map((group) => ({ ...group, commands: group.commands.filter((command) => commands.includes(command)) })).filter((group) => group.commands.length > 0);
  return [
    'usage: calendar COMMAND [ARGUMENTS] [OPTIONS]',
    '       calendar COMMAND --help    the command\'s arguments and options',
    '       calendar --version',
    ...groups.flatMap((group) => ['', `${group.title}:`, ...group.commands.map((command) => commandLine(command, width))]),
    '',
    'Every command works on the database DATABASE_URL names (default sqlite:./data/calendar.db).',
  ].join('\n');
}

/** The command the arguments name, and the arguments after its words. */
function findCommand(argv: string[]): { command: CliCommand; rest: string[] } | undefined {
  const command = COMMANDS.find((candidate) => candidate.words.every((word, index) => argv[index] === word));
  return command && { command, rest: argv.slice(command.words.length) };
}

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h';

/** What is wrong with arguments that name no command; undefined when there are none at all. */
function mistake(argv: string[], group: CliCommand[]): string | undefined {
  const [first, second] = argv;
  if (first === undefined) return undefined;
  if (first.startsWith('-')) return `unknown option "${first}"`;
  if (group.length === 0) return `unknown command "${first}"`;
  return second === undefined ? `a ${first} command is required` : `unknown command "${first} ${second}"`;
}

async function main(argv: string[]): Promise<number> {
  const [first] = argv;
  if ((first === '--version' || first === '-V') && argv.length === 1) {
    console.log(packageJson.version);
    return 0;
  }
  const found = findCommand(argv);
  if (found) return runCommand(found.command, found.rest);
  const group = COMMANDS.filter((command) => command.words[0] === first);
  // `calendar --help` lists every command; `calendar webhooks --help` the commands of a group.
  if (argv.length === 1 && isHelp(first)) {
    console.log(usage());
    return 0;
  }
  if (argv.length === 2 && group.length > 0 && isHelp(argv[1])) {
    console.log(usage(group));
    return 0;
  }
  const problem = mistake(argv, group);
  if (problem) console.error(`calendar: ${problem}`);
  console.error(usage(group.length > 0 ? group : COMMANDS));
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`calendar: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
