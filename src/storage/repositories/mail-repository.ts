import { sql, type Kysely } from 'kysely';
import type { Database, MailMessageRow, MailMessageTable, MailStatus } from '../schema.ts';
import { isPostgres, toInt } from '../sql-helpers.ts';

/** A message to queue: the outbox row's own fields; the body is always there when queued. */
export type NewMail = Pick<MailMessageTable, 'kind' | 'event_id' | 'lang' | 'message_id' | 'recipient' | 'subject'> & {
  /** The frozen message (JSON). */
  body: string;
};

/** All SQL of the mail outbox (120 §10.3). Times are ISO-8601 UTC text from the database clock. */
export class MailRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Queued inside the deciding write's transaction, due at once. */
  async enqueue(mails: readonly NewMail[], now: Date): Promise<void> {
    if (mails.length === 0) return;
    const at = now.toISOString();
    await this.db.insertInto('mail_messages').values(mails.map((mail) => ({ ...mail, status: 'pending' as const, next_attempt_utc: at, created_utc: at }))).execute();
  }

  /**
   * Claims up to `limit` due messages in one statement: pending and due, or sending with the lease
   * run out (its instance died). `FOR UPDATE SKIP LOCKED` lets instances claim side by side.
   */
  async claim(owner: string, now: Date, leaseUntil: Date, limit: number): Promise<MailMessageRow[]> {
    if (limit <= 0) return [];
    const at = now.toISOString();
    const lock = isPostgres(this.db) ? sql`for update skip locked` : sql``;
    const { rows } = await sql<MailMessageRow>`
      update mail_messages set status = 'sending', lease_owner = ${owner}, lease_until = ${leaseUntil.toISOString()}, attempts = attempts + 1
      where id in (
        select id from mail_messages
        where (status = 'pending' and next_attempt_utc <= ${at}) or (status = 'sending' and lease_until < ${at})
        order by next_attempt_utc, id
        limit ${limit}
        ${lock}
      )
      returning *`.execute(this.db);
    return rows;
  }

  /** Writes a send's outcome, only while this instance still holds the lease; false when it was lost. */
  async finish(id: number, owner: string, attempt: number, outcome: { status: MailStatus; at: Date; response?: string; error?: string; nextAttempt?: Date }): Promise<boolean> {
    const result = await this.db.updateTable('mail_messages')
      .set({
        status: outcome.status,
        lease_owner: null,
        lease_until: null,
        smtp_response: outcome.response ?? null,
        last_error: outcome.error === undefined ? null : outcome.error.slice(0, 500),
        next_attempt_utc: (outcome.nextAttempt ?? outcome.at).toISOString(),
        finished_utc: outcome.status === 'pending' ? null : outcome.at.toISOString(),
      })
      .where('id', '=', id).where('lease_owner', '=', owner).where('attempts', '=', attempt).where('status', '=', 'sending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * 140 §5, in one statement: this instance's claims whose send has not begun go back at once
   * (`pending`, lease cleared, `attempts` − 1: an unsent claim is no attempt). Returns how many.
   */
  async releaseUnsent(owner: string, begun: readonly number[]): Promise<number> {
    let query = this.db.updateTable('mail_messages').set((eb) => ({ status: 'pending', lease_owner: null, lease_until: null, attempts: eb('attempts', '-', 1) }))
      .where('lease_owner', '=', owner).where('status', '=', 'sending');
    if (begun.length > 0) query = query.where('id', 'not in', [...begun]);
    return Number((await query.executeTakeFirst()).numUpdatedRows);
  }

  /** Spam (§8.2): the event's queued, unsent mail. */
  async cancelForEvent(eventId: number, now: Date): Promise<void> {
    await this.db.updateTable('mail_messages').set({ status: 'cancelled', finished_utc: now.toISOString() })
      .where('event_id', '=', eventId).where('status', '=', 'pending').execute();
  }

  /** `resend` (§10.3): the same frozen message and `Message-ID`, due now. */
  async resend(id: number, now: Date): Promise<boolean> {
    const result = await this.db.updateTable('mail_messages')
      .set({ status: 'pending', attempts: 0, next_attempt_utc: now.toISOString(), last_error: null, finished_utc: null })
      .where('id', '=', id).where('status', 'in', ['failed', 'sent', 'cancelled']).where('body', 'is not', null).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The last 30 days, newest first (the administrators' page). */
  list(since: Date, status?: MailStatus): Promise<Omit<MailMessageRow, 'body'>[]> {
    let query = this.db.selectFrom('mail_messages')
      .select(['id', 'kind', 'event_id', 'lang', 'message_id', 'recipient', 'subject', 'status', 'attempts', 'next_attempt_utc', 'lease_owner', 'lease_until', 'smtp_response', 'last_error', 'created_utc', 'finished_utc'])
      .where('created_utc', '>=', since.toISOString());
    if (status !== undefined) query = query.where('status', '=', status);
    return query.orderBy('id', 'desc').limit(500).execute();
  }

  /** Messages that gave up (the dashboard's count; kept rows are at most 30 days old). */
  async countFailed(): Promise<number> {
    const row = await this.db.selectFrom('mail_messages').select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'failed').executeTakeFirstOrThrow();
    return toInt(row.n);
  }

  /** Keeping (§10.3): bodies of sent mail 7 days, rows 30 days. */
  async prune(now: Date): Promise<void> {
    const days = (n: number) => new Date(now.getTime() - n * 86_400_000).toISOString();
    await this.db.updateTable('mail_messages').set({ body: null }).where('status', '=', 'sent').where('finished_utc', '<', days(7)).execute();
    await this.db.deleteFrom('mail_messages').where('created_utc', '<', days(30)).where('status', '!=', 'sending').execute();
  }
}
