import { spawn } from 'node:child_process';

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `calendar …` as a separate process, while the test goes on (a backup running beside writers, an
 * SMTP server in the test's own process answering the command).
 */
export function runCli(env: Record<string, string>, ...args: string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/calendar.js', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
