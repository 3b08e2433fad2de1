import { parseArgs, type ParseArgsConfig } from 'node:util';
import { loadConfig, type Config } from '../config.ts';
import { InvalidParamsError, RestError } from '../domain/errors.ts';
import type { User } from '../domain/users/user.ts';
import { renderContext, type RenderContext } from '../render/context.ts';
import { UrlBuilder } from '../render/urls.ts';
import { translate } from '../i18n/catalog.ts';
import { openStorage, type Storage } from '../storage/database.ts';

export type CliOptions = NonNullable<ParseArgsConfig['options']>;

export interface CliArgs {
  positionals: string[];
  values: Record<string, string | boolean | string[] | undefined>;
}

/** One `calendar` command: its words, its line in `calendar --help`, its own `--help`, and what it does. */
export interface CliCommand {
  /** The words that name it: `['users', 'add']`. */
  words: string[];
  /** Arguments and options after the words, as the usage line shows them. */
  synopsis: string;
  /** What it does, in one line. */
  summary: string;
  /** The options parseArgs accepts (`--help` is added). */
  options: CliOptions;
  /** More lines of its `--help`: options, exit codes. */
  details?: string;
  /** Resolves to the exit code. */
  run(args: CliArgs): Promise<number>;
}

/** Wrong arguments: the message, then the command's usage, exit 2. */
export class UsageError extends Error {}

export function commandUsage(command: CliCommand): string {
  const lines = [`usage: calendar ${[...command.words, command.synopsis].filter(Boolean).join(' ')}`, `  ${command.summary}`];
  if (command.details) lines.push(command.details);
  return lines.join('\n');
}

/** Runs one command with its arguments; every expected failure is a line on stderr and an exit code. */
export async function runCommand(command: CliCommand, argv: string[]): Promise<number> {
  let args: CliArgs;
  try {
    args = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { ...command.options, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    console.error(`calendar: ${(error as Error).message}`);
    console.error(commandUsage(command));
    return 2;
  }
  if (args.values.help) {
    console.log(commandUsage(command));
    return 0;
  }
  try {
    return await command.run(args);
  } catch (error) {
    if (error instanceof UsageError) {
      if (error.message) console.error(`calendar: ${error.message}`);
      console.error(commandUsage(command));
      return 2;
    }
    if (error instanceof InvalidParamsError) {
      const reasons = Object.entries(error.failures).map(([name, failure]) => `${name} ${translate('en', failure.reason.messageKey, failure.reason.vars)}`);
      console.error(`calendar: ${reasons.join('; ')}`);
      return 1;
    }
    if (error instanceof RestError) {
      const params = 'failures' in error ? ` (${Object.keys((error as { failures: object }).failures).join(', ')})` : '';
      console.error(`calendar: ${translate('en', error.messageKey, error.vars)}${params}`);
      return 1;
    }
    throw error;
  }
}

/** An option's string value, or undefined. */
export function stringOption(args: CliArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === 'string' ? value : undefined;
}

/** Runs `work` on the database DATABASE_URL names, closed afterwards; resolves to its exit code (default 0). */
export async function withStorage(work: (storage: Storage, config: Config) => Promise<number | void>): Promise<number> {
  const config = loadConfig();
  const storage = await openStorage(config.databaseUrl);
  try {
    return (await work(storage, config)) ?? 0;
  } finally {
    await storage.close();
  }
}

/** The context of a write made from the command line, as `user`, with links on CALENDAR_PUBLIC_URL. */
export function cliContext(config: Config, user: User, now: Date): RenderContext {
  return renderContext({ lang: 'en', user, urls: new UrlBuilder(config.publicUrl ?? 'http://localhost', config.basePath, 'en', undefined, config.apiPath), now });
}
