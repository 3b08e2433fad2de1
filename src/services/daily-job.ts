const DAY_MS = 24 * 3600_000;
/** The first run waits a little after start, so that a start is not slowed by it. */
const FIRST_RUN_MS = 60_000;

/** Runs `work` a minute after start and then once a day (the daily purges of 100 §4 and 120); returns its stop. */
export function startDailyJob(work: () => Promise<unknown>, onError: (error: unknown) => void): () => void {
  const run = () => void work().catch(onError);
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
