/** When a failed message is tried again (80 §4.4). */

const JITTER = 0.2;
const MAX_WAIT_SECONDS = 86_400;

/**
 * Seconds to wait after failed attempt `attempt` (1-based): the schedule's entry ±20 % jitter,
 * or the receiver's `Retry-After` when that is longer, never more than 24 h. null = no attempt left.
 */
export function retryDelaySeconds(schedule: readonly number[], attempt: number, retryAfterSeconds: number | null, random: () => number = Math.random): number | null {
  const planned = schedule[attempt - 1];
  if (planned === undefined) return null;
  const jittered = planned * (1 - JITTER + 2 * JITTER * random());
  return Math.min(MAX_WAIT_SECONDS, Math.max(jittered, retryAfterSeconds ?? 0));
}

/** `Retry-After` as seconds (delta or HTTP date), null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: Date): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, (date - now.getTime()) / 1000);
}
