import type { ShownSubmission } from '../../storage/repositories/submissions-repository.ts';

/** An event's `submission` under `context=edit` (120 §7). */
export interface SubmissionJson {
  submitter_name: string | null;
  submitter_email: string | null;
  /** The submitting member's user id; null for a visitor. */
  member: number | null;
  /** The edition the form was posted in: `en`, `da`, `it`, `es`. */
  edition: string;
  /** `unverified`, `known-spammer`. */
  flags: string[];
  /** When it was stored, UTC `YYYY-MM-DD HH:MM:SS`. */
  submitted: string;
  decision: 'approved' | 'rejected' | 'withdrawn' | null;
  reason: string | null;
}

/** null for an event that was not submitted. */
export function serializeSubmission(row: ShownSubmission | undefined): SubmissionJson | null {
  if (row === undefined) return null;
  return {
    submitter_name: row.submitter_name,
    submitter_email: row.submitter_email,
    member: row.member_id,
    edition: row.edition,
    flags: row.flags === '' ? [] : row.flags.split(','),
    submitted: row.created_utc,
    decision: row.decision,
    reason: row.reason,
  };
}
