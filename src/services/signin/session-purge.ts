import type { SessionsService } from './sessions-service.ts';

const DAY_MS = 24 * 3600_000;
/** The first run waits a little after start, so that a start is not slowed by it. */
const FIRST_RUN_MS = 60_000;

/**
 * 100 §4: ended sessions and expired one-time links are deleted by a daily job (and dead sessions
 * on lookup). Returns its stop function.
 */
export function startSessionPurge(sessions: SessionsService, onError: (error: unknown) => void): () => void {
  const run = () => void sessions.purge().catch(onError);
  let daily: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    run();
    daily = setInterval(run, DAY_MS);
    daily.unref();
  }, FIRST_RUN_MS);
  first.unref();
  return () => {
    clearTimeout(first);
    if (daily) clearInterval(daily);
  };
}
