import type { Config } from '../config.ts';
import { systemClock } from '../domain/dates/clock.ts';
import { startDatabaseGauges } from '../observability/database-gauges.ts';
import type { ServiceMetrics } from '../observability/metrics.ts';
import { startBackupSchedule } from '../services/backup-schedule.ts';
import { startFeedJobs } from '../services/feed-jobs.ts';
import { startSeriesExtension } from '../services/recurrence-job.ts';
import { SeriesService } from '../services/series-service.ts';
import { changeFanOut } from '../services/webhooks/change-fan-out.ts';
import { WebhookDelivery } from '../services/webhooks/delivery-worker.ts';
import { messageObjects } from '../services/webhooks/message-objects.ts';
import type { Storage } from '../storage/database.ts';
import { startSessionPurge } from '../services/signin/session-purge.ts';
import { signinServices } from '../services/signin/signin-services.ts';
import { MailOutbox } from '../services/mail/mail-outbox.ts';
import { startSubmissionsPurge } from '../services/submissions/retention.ts';

export interface JobsOptions {
  storage: Storage;
  config: Config;
  metrics?: ServiceMetrics;
  logError: (error: unknown, message: string) => void;
  logInfo: (fields: object, message: string) => void;
}

/**
 * The periodic jobs of a process (140 §6.2): change-feed maintenance, webhook fan-out and delivery,
 * recurrence horizon, scheduled SQLite backups, the daily purges (ended sessions; submitters' data,
 * spam marks, attempts and old mail), the mail outbox, database gauges. Returns the stop: timers end at once, unsent webhook claims
 * are released, and sends already started are awaited.
 */
export function startJobs({ storage, config, metrics, logError, logInfo }: JobsOptions): () => Promise<void> {
  const stopFeedJobs = startFeedJobs(storage.db, config.changesRetentionDays, systemClock, (error) => logError(error, 'change feed maintenance failed'));
  const stopDelivery = new WebhookDelivery({
    storage,
    settings: config.webhooks,
    fanOut: changeFanOut(storage, config),
    objects: messageObjects(storage, config),
    onError: (error) => logError(error, 'delivering webhooks failed'),
    onOutcome: metrics && ((outcome) => metrics.delivered(outcome)),
  }).start();
  const stopExtension = startSeriesExtension(storage.db, new SeriesService(config.recurrence), systemClock, (error) => logError(error, 'extending recurring series failed'));
  const stopBackups = startBackupSchedule({
    databaseUrl: config.databaseUrl,
    settings: config.backup,
    zone: config.timezone,
    clock: systemClock,
    onBackup: (report) => logInfo({ file: report.file, bytes: report.bytes, seconds: report.seconds }, 'scheduled backup written and verified'),
    onError: (error) => logError(error, 'scheduled backup failed'),
  });
  const stopSessionPurge = config.backOffice.enabled
    ? startSessionPurge(signinServices({ storage, clock: systemClock, config }).sessions, (error) => logError(error, 'purging ended sessions failed'))
    : () => {};
  const stopSubmissionsPurge = startSubmissionsPurge(storage, config.submissions.retentionDays, systemClock, (error) => logError(error, 'purging submission data and sent mail failed'));
  const smtp = config.mail.smtp;
  const stopMail = smtp === null ? async () => {} : new MailOutbox(storage, { ...config.mail, smtp }, {
    onError: (error) => logError(error, 'sending mail failed'),
    onOutcome: metrics && ((outcome) => metrics.mailDelivered(outcome)),
  }).start();
  const stopGauges = metrics ? startDatabaseGauges(storage, metrics, (error) => logError(error, 'reading the database gauges failed')) : () => {};
  return async () => {
    stopExtension();
    stopFeedJobs();
    stopGauges();
    stopBackups();
    stopSessionPurge();
    stopSubmissionsPurge();
    await stopDelivery();
    await stopMail();
  };
}
