import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The real service as a child process (`node --import tsx src/server.ts`), as an operator runs it. */
export interface ServiceProcess {
  /** `http://127.0.0.1:PORT`, parsed from what the service printed. */
  origin: string;
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** Set as soon as kill() is called: from then on, failed requests are expected. */
  killed: boolean;
  /** SIGKILL: no shutdown handler runs, requests in flight are cut. */
  kill(): Promise<void>;
}

/**
 * Waits until a started process prints the address it listens on; `output()` is everything it
 * printed so far (stdout and stderr).
 */
export async function untilListening(child: ChildProcess, timeoutMs = 30_000): Promise<{ origin: string; output: () => string }> {
  let output = '';
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not start in time:\n${output}`)), timeoutMs);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^/\s]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the service exited with ${code} before listening:\n${output}`));
    });
  });
  return { origin, output: () => output };
}

export async function startService(env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { origin, output } = await untilListening(child);
  const service: ServiceProcess = {
    origin,
    child,
    output,
    killed: false,
    async kill() {
      service.killed = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
  return service;
}
