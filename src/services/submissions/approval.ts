import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import { formatWall } from '../../domain/dates/datetime-format.ts';
import { eventPageUrl } from '../../domain/events/event-web.ts';
import { ORGANIZER, VENUE, type LinkedPostType } from '../../domain/linked-posts/linked-post-type.ts';
import type { User } from '../../domain/users/user.ts';
import type { RenderContext } from '../../render/context.ts';
import { SubmissionsRepository } from '../../storage/repositories/submissions-repository.ts';
import { UsersRepository } from '../../storage/repositories/users-repository.ts';
import type { Database, EventRow, SubmissionRow } from '../../storage/schema.ts';
import type { PublicationHook } from '../events-service.ts';
import { findLinkedPostById, updateLinkedPost } from '../linked-posts-service.ts';
import { queueDecisionMail } from './submission-mail.ts';

/** The venue and organizer a submission created, by type. */
export function createdLinks(submission: SubmissionRow): [LinkedPostType, number][] {
  return [
    ...(submission.created_venue_id === null ? [] : [[VENUE, submission.created_venue_id] as [LinkedPostType, number]]),
    ...(submission.created_organizer_id === null ? [] : [[ORGANIZER, submission.created_organizer_id] as [LinkedPostType, number]]),
  ];
}

/** A member's address is the account's, read when the mail is written; a visitor's is the one typed. */
export async function memberEmailOf(db: Kysely<Database>, submission: SubmissionRow): Promise<string | null> {
  if (submission.member_id === null) return null;
  return (await new UsersRepository(db).findById(submission.member_id))?.email ?? null;
}

/**
 * 120 §8.2 `approve`, after the event's own write to `publish` inside `trx`: the pending or draft
 * venue and organizer the submission created are published, the submission is decided by
 * `moderator`, and (with `notify`) the approval mail is queued. True when a mail was queued.
 */
export async function approveSubmission(
  trx: Kysely<Database>,
  config: Config,
  ctx: RenderContext,
  moderator: User,
  event: EventRow,
  submission: SubmissionRow,
  notify: boolean,
): Promise<boolean> {
  const env = { principal: moderator, now: ctx.now, siteZone: config.timezone };
  for (const [type, linked] of createdLinks(submission)) {
    const record = await findLinkedPostById(trx, type, linked, ctx.now);
    if (record && (record.status === 'pending' || record.status === 'draft')) await updateLinkedPost(trx, type, record, { status: 'publish', text: {}, flags: {} }, env);
  }
  await new SubmissionsRepository(trx).decide(event.id, 'approved', moderator.id, formatWall(ctx.now), null);
  if (!notify) return false;
  const memberEmail = await memberEmailOf(trx, submission);
  return queueDecisionMail(trx, config, { kind: 'approved', event, submission, memberEmail, eventUrl: eventPageUrl(ctx.urls.edition, event), reason: null });
}

/**
 * 120 §8.2 last row: an undecided submission's event published by any other route (a REST
 * update, the back office editor, bulk publish) is approved by whoever published it, with the
 * approval mail. A decided submission (approved, rejected, withdrawn) is left as it is, so the
 * mail goes once.
 */
export function approvalOnPublication(config: Config): PublicationHook {
  return async (trx, ctx, user, event) => {
    const submission = await new SubmissionsRepository(trx).find(event.id);
    if (submission === undefined || submission.decision !== null) return false;
    await approveSubmission(trx, config, ctx, user, event, submission, true);
    return true;
  };
}
