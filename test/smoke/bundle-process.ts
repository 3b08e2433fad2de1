import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { untilListening } from '../crash/service-process.ts';

/**
 * What the smoke suites share: `npm start` run as users run it (the esbuild bundle, in its own
 * process group), and the `calendar` command on the same database.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/** The README's start command, as `npm start` runs it: the package.json script, through a shell. */
const START_SCRIPT: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start;

export interface StartedService {
  origin: string;
  adminPassword: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Runs the start script in its own process group (the shell and the node it starts), with a free
 * port, and waits for the address it prints; `extraEnv` adds a suite's own settings. Nothing from the sources is imported into this
 * process: what answers is exactly what users run.
 */
export async function startBundle(databaseUrl: string, uploadsDir: string, extraEnv: Record<string, string> = {}): Promise<StartedService> {
  const env: NodeJS.ProcessEnv = {
    ...process.env, PATH: `${join(ROOT, 'node_modules/.bin')}${delimiter}${process.env.PATH}`, DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info',
    CALENDAR_WEBHOOKS_ALLOW_INSECURE: '1', CALENDAR_UPLOADS_DIR: uploadsDir,
    // Every view, the opt-in map included (130 §2).
    CALENDAR_VIEWS: 'list,month,day,week,photo,summary,map',
    ...extraEnv,
  };
  delete env.CALENDAR_ADMIN_PASSWORD;
  const child: ChildProcess = spawn('sh', ['-c', START_SCRIPT], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const { origin, output } = await untilListening(child, 60_000);
  const adminPassword = /application password: (\S+)/.exec(output())?.[1];
  assert.ok(adminPassword, `the first start prints the administrator's password:\n${output()}`);
  return {
    origin,
    adminPassword,
    output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
      // The shell ends at the signal; node, in the same group, may still be closing its database
      // connections, and dropping the test schema meanwhile can deadlock with its last query.
      const deadline = Date.now() + 15_000;
      while (groupAlive(child.pid!) && Date.now() < deadline) await sleep(20);
    },
  };
}

function groupAlive(groupId: number): boolean {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch {
    return false;
  }
}


export async function calendarCli(databaseUrl: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [join(ROOT, 'bin/calendar.js'), ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl } });
  return stdout;
}
