import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { systemClock } from './domain/dates/clock.ts';
import { UsersService } from './services/users-service.ts';
import { startSeriesExtension } from './services/recurrence-job.ts';
import { startFeedJobs } from './services/feed-jobs.ts';
import { SeriesService } from './services/series-service.ts';
import { openStorage } from './storage/database.ts';
import { WebhookDelivery } from './services/webhooks/delivery-worker.ts';
import { changeFanOut } from './services/webhooks/change-fan-out.ts';

/** Process entry: configuration, database, first-start administrator, listen, graceful stop. */
async function main(): Promise<void> {
  const config = loadConfig();
  const storage = await openStorage(config.databaseUrl, config.postgresLimits);
  const admin = await new UsersService(storage, systemClock).ensureInitialAdmin(config.adminLogin, config.adminPassword);
  if (admin.generatedPassword) {
    process.stdout.write(
      `Created administrator "${config.adminLogin}" with application password: ${admin.generatedPassword}\n` +
        'It is shown only this once; store it now (a new one: calendar users new-password).\n',
    );
  }
  const app = await buildApp({ config, storage });
  const stopFeedJobs = startFeedJobs(storage.db, config.changesRetentionDays, systemClock, (error) => app.log.error({ err: error }, 'change feed maintenance failed'));
  const stopDelivery = new WebhookDelivery({ storage, settings: config.webhooks, fanOut: changeFanOut(storage, config), onError: (error) => app.log.error({ err: error }, 'delivering webhooks failed') }).start();
  const stopExtension = startSeriesExtension(storage.db, new SeriesService(config.recurrence), systemClock, (error) => app.log.error({ err: error }, 'extending recurring series failed'));

  // Handlers first: a signal that arrives while starting still closes the database cleanly.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: finishing requests in flight');
    stopExtension();
    stopFeedJobs();
    try {
      await stopDelivery();
      await app.close();
    } finally {
      await storage.close();
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  process.stdout.write(`Calendar service listening on http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}${config.basePath}/calendar/events/v1\n`);
}

main().catch((error: unknown) => {
  const message = error instanceof ConfigError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`calendar: cannot start: ${message}\n`);
  process.exit(1);
});
