import cluster from 'node:cluster';
import { ConfigError, loadConfig } from './config.ts';
import { runPrimary, runWorker } from './process/cluster.ts';
import { runService } from './process/service.ts';

/** Process entry: one serving process, or with CALENDAR_WORKERS > 1 the primary or one of its workers. */
async function main(): Promise<void> {
  const config = loadConfig();
  if (cluster.isWorker) return runWorker(config);
  if (config.workers > 1) return runPrimary(config);
  return runService(config, { mode: 'single' });
}

main().catch((error: unknown) => {
  const message = error instanceof ConfigError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`calendar: cannot start: ${message}\n`);
  process.exit(1);
});
