import type { Clock } from '../../domain/dates/clock.ts';
import type { Storage } from '../../storage/database.ts';
import { MailRepository } from '../../storage/repositories/mail-repository.ts';
import { SubmissionsRepository } from '../../storage/repositories/submissions-repository.ts';
import { startDailyJob } from '../daily-job.ts';

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;
/** 120 §6.1: consumed token ids are kept 25 h (a token lives 24 h); the rate limit and the dashboard need less. */
const ATTEMPTS_KEPT_MS = 25 * HOUR_MS;

const utc = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

/**
 * The daily job's share of 120: the submitter's name, e-mail and hashes erased `retentionDays`
 * after the decision (§7), expired spam marks (§8.3), old attempts (§6.1), and the mail outbox's
 * keeping (§10.3: bodies of sent mail 7 days, rows 30 days).
 */
export async function purgeSubmissionData(storage: Storage, retentionDays: number, now: Date): Promise<void> {
  await new SubmissionsRepository(storage.db).prune(utc(now), utc(new Date(now.getTime() - ATTEMPTS_KEPT_MS)), utc(new Date(now.getTime() - retentionDays * DAY_MS)));
  await new MailRepository(storage.db).prune(now);
}

/** Runs the purge once a day (the job runner, 140 §6.2); returns its stop. */
export function startSubmissionsPurge(storage: Storage, retentionDays: number, clock: Clock, onError: (error: unknown) => void): () => void {
  return startDailyJob(() => purgeSubmissionData(storage, retentionDays, clock()), onError);
}
