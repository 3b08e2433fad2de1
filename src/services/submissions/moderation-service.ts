import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import { RestError } from '../../domain/errors.ts';
import { VENUE, type LinkedPostType } from '../../domain/linked-posts/linked-post-type.ts';
import type { User } from '../../domain/users/user.ts';
import type { RenderContext } from '../../render/context.ts';
import type { Storage } from '../../storage/database.ts';
import { MailRepository } from '../../storage/repositories/mail-repository.ts';
import { SubmissionsRepository } from '../../storage/repositories/submissions-repository.ts';
import type { Database, SubmissionRow } from '../../storage/schema.ts';
import { EventsService } from '../events-service.ts';
import { deleteLinkedPost, findLinkedPostById, trashLinkedPost } from '../linked-posts-service.ts';
import { approveSubmission, createdLinks, memberEmailOf } from './approval.ts';
import { queueDecisionMail } from './submission-mail.ts';

export type Decision = 'approve' | 'reject' | 'spam';
export interface DecisionResult {
  id: number;
  decision: Decision;
  status: string;
  mail: 'queued' | 'none';
}

const SPAM_DAYS = 30;
const utc = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

/**
 * 120 §8.2: one service for every way a submission is decided (the back office, bulk actions,
 * the admin API). The event's own write goes through the events service (its rules, change rows
 * and caches); the rest happens inside that write's transaction.
 */
export class ModerationService {
  private readonly events: EventsService;

  constructor(private readonly storage: Storage, private readonly config: Config) {
    // No journal: a decision writes more than the event (its venue, organizer, submission, mail),
    // so no cache may keep what it held across one.
    this.events = new EventsService(storage.db, config.timezone, config.recurrence);
  }

  async decide(ctx: RenderContext, moderator: User, id: number, decision: Decision, options: { reason?: string; notify?: boolean }): Promise<DecisionResult> {
    const event = await this.events.find(id, ctx.now);
    if (!event) throw new RestError(404, 'rest-event-not-found', { messageKey: 'submission-not-found' });
    const submission = await new SubmissionsRepository(this.storage.db).find(id);
    if (!submission) throw new RestError(404, 'submission-not-found');
    if (submission.decision !== null || (event.status !== 'pending' && event.status !== 'draft')) throw new RestError(409, 'submission-already-decided');
    const notify = options.notify ?? true;
    const env = { principal: moderator, now: ctx.now, siteZone: this.config.timezone };
    let mailed = false;

    if (decision === 'approve') {
      // This service's events service runs no publication hook: the approval here is the
      // moderator's, with their `notify`.
      const status = await this.events.update(ctx, moderator, id, { status: 'publish' }, async (trx, updated) => {
        mailed = await approveSubmission(trx, this.config, ctx, moderator, updated, submission, notify);
        return updated.status;
      });
      return { id, decision, status, mail: mailed ? 'queued' : 'none' };
    }

    if (decision === 'reject') {
      const reason = options.reason ?? '';
      const memberEmail = await memberEmailOf(this.storage.db, submission);
      const status = await this.events.trash(ctx, id, undefined, async (trx, trashed) => {
        await this.removeCreated(trx, submission, id, (type, record) => trashLinkedPost(trx, type, record, env));
        await new SubmissionsRepository(trx).decide(id, 'rejected', moderator.id, utc(ctx.now), reason || null);
        if (notify) mailed = await queueDecisionMail(trx, this.config, { kind: 'rejected', event: trashed, submission, memberEmail, eventUrl: '', reason: reason || null });
        return trashed.status;
      });
      return { id, decision, status, mail: mailed ? 'queued' : 'none' };
    }

    // Spam: deleted for good with what it created; its hashes remembered 30 days; its unsent mail cancelled.
    await this.events.deletePermanently(id, ctx.now, undefined, async (trx) => {
      const repo = new SubmissionsRepository(trx);
      const expires = utc(new Date(ctx.now.getTime() + SPAM_DAYS * 86_400_000));
      if (submission.address_hash) await repo.mark('address', submission.address_hash, expires);
      if (submission.email_hash) await repo.mark('email', submission.email_hash, expires);
      await new MailRepository(trx).cancelForEvent(id, ctx.now);
    });
    await this.removeCreated(this.storage.db, submission, id, (type, record) => deleteLinkedPost(this.storage.db, type, record, ctx.now));
    return { id, decision, status: 'deleted', mail: 'none' };
  }

  /**
   * 120 §9: a member withdraws their own submission while it awaits review — trashed as a
   * rejection is (with what it created, when linked nowhere else), `decision = withdrawn`, no mail.
   * Another user's, decided or no longer pending/draft: not found.
   */
  async withdraw(ctx: RenderContext, member: User, id: number): Promise<void> {
    const submission = await new SubmissionsRepository(this.storage.db).find(id);
    const event = submission?.member_id === member.id ? await this.events.find(id, ctx.now) : undefined;
    const open = (status: string) => status === 'pending' || status === 'draft';
    if (!submission || !event || submission.decision !== null || !open(event.status)) throw new RestError(404, 'submission-not-found');
    const env = { principal: member, now: ctx.now, siteZone: this.config.timezone };
    await this.events.trash(ctx, id, undefined, async (trx) => {
      await this.removeCreated(trx, submission, id, (type, record) => trashLinkedPost(trx, type, record, env));
      await new SubmissionsRepository(trx).decide(id, 'withdrawn', member.id, utc(ctx.now), null);
    }, {
      // Judged again on the locked row: an editor may have decided it meanwhile.
      authorize: (locked) => {
        if (!open(locked.status)) throw new RestError(404, 'submission-not-found');
      },
    });
  }

  /** The venue and organizer the submission created, when no other non-trashed event links them. */
  private async removeCreated(db: Kysely<Database>, submission: SubmissionRow, eventId: number, remove: (type: LinkedPostType, record: NonNullable<Awaited<ReturnType<typeof findLinkedPostById>>>) => Promise<unknown>): Promise<void> {
    for (const [type, linked] of createdLinks(submission)) {
      if (await new SubmissionsRepository(db).linkedElsewhere(type === VENUE ? 'venue' : 'organizer', linked, eventId)) continue;
      const record = await findLinkedPostById(db, type, linked, new Date());
      if (record && record.status !== 'trash') await remove(type, record);
    }
  }
}
