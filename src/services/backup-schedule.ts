import { DateTime } from 'luxon';
import type { BackupSettings } from '../config.ts';
import type { Clock } from '../domain/dates/clock.ts';
import type { BackupReport } from '../storage/backup/sqlite-backup.ts';
import { takeBackup } from '../storage/backup/take-backup.ts';

const CHECK_MS = 30_000;

/**
 * 140 §3.5: the daily backup's decision. It is due on the first check of a local date at or after
 * `at` — a DST gap that skips `at` runs at the next minute that exists, a repeated hour runs once
 * because the date has had its run. `lastDate` is the local date of the last run.
 */
export function dueBackupDate(now: Date, zone: string, at: { hour: number; minute: number }, lastDate: string | null): string | null {
  const local = DateTime.fromJSDate(now, { zone });
  const date = local.toISODate()!;
  if (date === lastDate) return null;
  return local.hour * 60 + local.minute >= at.hour * 60 + at.minute ? date : null;
}

export interface BackupScheduleOptions {
  databaseUrl: string;
  settings: BackupSettings;
  zone: string;
  clock: Clock;
  onBackup: (report: BackupReport) => void;
  onError: (error: unknown) => void;
}

/** The scheduled SQLite backups of the job runner; returns its stop function. */
export function startBackupSchedule(options: BackupScheduleOptions): () => void {
  const at = options.settings.schedule;
  if (at === null) return () => {};
  // A run missed while the service was stopped is not caught up: a start after today's time counts as today's run.
  let lastDate = dueBackupDate(options.clock(), options.zone, at, null);
  let running = false;
  const check = async () => {
    const now = options.clock();
    const date = dueBackupDate(now, options.zone, at, lastDate);
    if (date === null || running) return;
    lastDate = date;
    running = true;
    try {
      options.onBackup(await takeBackup({ databaseUrl: options.databaseUrl, settings: options.settings, keep: options.settings.keep, now }));
    } catch (error) {
      options.onError(error);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void check(), CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
