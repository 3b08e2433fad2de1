import { startDailyJob } from '../daily-job.ts';
import type { SessionsService } from './sessions-service.ts';

/**
 * 100 §4: ended sessions and expired one-time links are deleted by a daily job (and dead sessions
 * on lookup). Returns its stop function.
 */
export function startSessionPurge(sessions: SessionsService, onError: (error: unknown) => void): () => void {
  return startDailyJob(() => sessions.purge(), onError);
}
