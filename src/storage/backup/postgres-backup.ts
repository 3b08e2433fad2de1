import { spawn } from 'node:child_process';
import { accessSync, constants, rmSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { parseDatabaseUrl } from '../database.ts';
import { BackupFailedError, type BackupReport } from './sqlite-backup.ts';

/** `pg_dump` is not installed: the report says how to run it by hand (exit 2). */
export class PgDumpMissingError extends Error {}

interface Connection {
  env: Record<string, string>;
  /** The connection as pg_dump options, the password left out. */
  args: string[];
  password: string | undefined;
}

/** DATABASE_URL as libpq's variables: the password travels in the environment, never in argv. */
function connection(databaseUrl: string): Connection {
  const parsed = parseDatabaseUrl(databaseUrl);
  const url = new URL(parsed.connectionString!);
  const values = {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1') || 'localhost',
    port: url.port || '5432',
    username: decodeURIComponent(url.username) || 'postgres',
    dbname: decodeURIComponent(url.pathname.slice(1)) || decodeURIComponent(url.username) || 'postgres',
  };
  const password = url.password ? decodeURIComponent(url.password) : undefined;
  return {
    env: { PGHOST: values.host, PGPORT: values.port, PGUSER: values.username, PGDATABASE: values.dbname, ...(password ? { PGPASSWORD: password } : {}) },
    args: ['--host', values.host, '--port', values.port, '--username', values.username, '--dbname', values.dbname, ...(parsed.schema ? ['--schema', parsed.schema] : [])],
    password,
  };
}

function inPath(program: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, program), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function run(program: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * 140 §3.2: `pg_dump --format=custom` (one snapshot in a read-only transaction), verified by
 * `pg_restore --list` listing table data.
 */
export async function backupPostgres(databaseUrl: string, target: string): Promise<BackupReport> {
  const { env, args, password } = connection(databaseUrl);
  const dumpArgs = ['--format=custom', '--no-owner', ...args, '--file', target];
  if (!inPath('pg_dump')) {
    const quoted = dumpArgs.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`));
    throw new PgDumpMissingError(`pg_dump not found in PATH; run:\n${password ? 'PGPASSWORD=… ' : ''}pg_dump ${quoted.join(' ')}`);
  }
  const started = performance.now();
  const dumped = await run('pg_dump', dumpArgs, env);
  if (dumped.code !== 0) {
    rmSync(target, { force: true });
    throw new BackupFailedError(dumped.stderr.trim() || `pg_dump exited with ${dumped.code}`);
  }
  const listed = await run('pg_restore', ['--list', target], {});
  if (listed.code !== 0 || !/ TABLE DATA /.test(listed.stdout)) {
    rmSync(target, { force: true });
    throw new BackupFailedError(`pg_restore --list cannot read the dump${listed.stderr ? `: ${listed.stderr.trim()}` : ''}`);
  }
  return { file: target, bytes: statSync(target).size, seconds: (performance.now() - started) / 1000, integrity: 'ok', warnings: [] };
}
