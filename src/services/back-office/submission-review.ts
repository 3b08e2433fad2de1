import type { Kysely } from 'kysely';
import { canModerate, type Principal } from '../../domain/auth/capabilities.ts';
import { formatWall } from '../../domain/dates/datetime-format.ts';
import { MailRepository } from '../../storage/repositories/mail-repository.ts';
import { SubmissionsRepository, type AttemptOutcome } from '../../storage/repositories/submissions-repository.ts';
import type { Database } from '../../storage/schema.ts';

/** What moderators see of a submitted event in the list (120 §8.1). */
export interface SubmissionReview {
  /** The submitter's name and e-mail, null when erased or not given. */
  name: string | null;
  email: string | null;
  /** A member's login (their account is the submitter). */
  member: string | null;
  /** UTC `YYYY-MM-DD HH:MM:SS`. */
  submitted: string;
  edition: string;
  flags: string[];
  /** Undecided: the row offers the decision form. */
  open: boolean;
}

/**
 * The review columns of a page's events, for editors and administrators only (120 §7: nobody else
 * sees submitter data): one statement keyed by the page's event ids.
 */
export async function loadSubmissionReviews(db: Kysely<Database>, user: Principal, events: readonly { id: number; status: string }[]): Promise<Map<number, SubmissionReview>> {
  if (!canModerate(user)) return new Map();
  const rows = await new SubmissionsRepository(db).reviewRows(events.map((event) => event.id));
  const statuses = new Map(events.map((event) => [event.id, event.status]));
  const reviews = new Map<number, SubmissionReview>();
  for (const [id, row] of rows) {
    const status = statuses.get(id);
    reviews.set(id, {
      name: row.submitter_name,
      email: row.submitter_email,
      member: row.member_login,
      submitted: row.created_utc,
      edition: row.edition,
      flags: row.flags === '' ? [] : row.flags.split(','),
      open: row.decision === null && (status === 'pending' || status === 'draft'),
    });
  }
  return reviews;
}

/** The dashboard's submissions block (120 §8.1; 100 §7.2). */
export interface SubmissionsSummary {
  /** The status submissions are stored with: the block's link opens that tab. */
  status: 'pending' | 'draft';
  awaiting: number;
  flagged: number;
  /** Silent drops of the last 24 hours by outcome. */
  dropped: { outcome: AttemptOutcome; count: number }[];
}

export const DROP_OUTCOMES: readonly AttemptOutcome[] = ['bad-token', 'too-fast', 'expired', 'reused', 'honeypot'];

/**
 * For moderators while submissions are on: what awaits review, how many of those are flagged,
 * and the drops of the last 24 hours; for administrators while mail is on: failed mail. Null
 * where the user or the settings have no such block. A fixed number of statements.
 */
export async function loadSubmissionsSummary(
  db: Kysely<Database>,
  user: Principal,
  now: Date,
  settings: { submissionsStatus: 'pending' | 'draft' | null; mail: boolean },
): Promise<{ submissions: SubmissionsSummary | null; failedMail: number | null }> {
  const repo = new SubmissionsRepository(db);
  const status = settings.submissionsStatus;
  const moderator = status !== null && canModerate(user);
  const [awaiting, dropped, failedMail] = await Promise.all([
    moderator ? repo.awaitingReview(status) : null,
    moderator ? repo.droppedSince(formatWall(new Date(now.getTime() - 86_400_000))) : null,
    settings.mail && user.role === 'administrator' ? new MailRepository(db).countFailed() : null,
  ]);
  return {
    submissions: awaiting === null || dropped === null || status === null ? null : {
      status,
      awaiting: awaiting.count,
      flagged: awaiting.flagged,
      dropped: DROP_OUTCOMES.map((outcome) => ({ outcome, count: dropped.get(outcome) ?? 0 })),
    },
    failedMail,
  };
}
