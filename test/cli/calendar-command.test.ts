import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

/** The `calendar` command's own surface: the list of commands, each command's help, version, usage errors. */
describe('calendar (command line)', () => {
  const cli = (...args: string[]) => spawnSync(process.execPath, ['bin/calendar.js', ...args], { env: { ...process.env, DATABASE_URL: 'sqlite::memory:' }, encoding: 'utf8' });
  const listed = (help: string) => [...help.matchAll(/^ {2}(\S+(?: \S+)?) {2,}\S/gm)].map((match) => match[1]);

  test('--help lists every command once, grouped, one line each, and exits 0', () => {
    const help = cli('--help');
    assert.equal(help.status, 0, help.stderr);
    const commands = listed(help.stdout);
    for (const command of ['users add', 'users list', 'users remove', 'users new-password', 'import ics', 'import site', 'import csv', 'export csv', 'backup', 'restore', 'changes reset', 'webhooks add', 'webhooks redeliver']) {
      assert.equal(commands.filter((listedCommand) => listedCommand === command).length, 1, `${command} once in\n${help.stdout}`);
    }
    assert.equal(new Set(commands).size, commands.length);
    assert.match(help.stdout, /^Users:$/m);
  });

  test('each command has its own --help, naming its options', () => {
    for (const [words, option] of [[['users', 'add'], '--role'], [['import', 'ics'], '--dry-run'], [['import', 'site'], '--prune'], [['webhooks', 'deliveries'], '--status'], [['backup'], '--keep'], [['restore'], '--force'], [['import', 'csv'], '--kind'], [['export', 'csv'], '--kind']] as const) {
      const help = cli(...words, '--help');
      assert.equal(help.status, 0, `${words.join(' ')}: ${help.stderr}`);
      assert.match(help.stdout, new RegExp(`^usage: calendar ${words.join(' ')}`));
      assert.ok(help.stdout.includes(option), `${words.join(' ')} --help names ${option}`);
    }
  });

  test('--version prints the package version', () => {
    const version = cli('--version');
    assert.equal(version.status, 0);
    assert.equal(version.stdout.trim(), JSON.parse(readFileSync('package.json', 'utf8')).version);
  });

  test('an unknown command or option prints the usage and exits 2', () => {
    for (const args of [['frobnicate'], ['--frobnicate'], ['users', 'frobnicate'], ['users', 'list', '--frobnicate'], ['backup', '--frobnicate'], []]) {
      const run = cli(...args);
      assert.equal(run.status, 2, args.join(' '));
      assert.match(run.stderr, /^usage: calendar /m, args.join(' '));
      assert.equal(run.stdout, '');
    }
  });
});
