import { sql, type Kysely, type Updateable } from 'kysely';
import type { Database, WebhookAttemptRow, WebhookAttemptTable, WebhookMessageRow, WebhookMessageStatus, WebhookRow, WebhookTable } from '../schema.ts';
import { isPostgres, toInt } from '../sql-helpers.ts';

export type NewWebhook = Omit<WebhookRow, 'id' | 'last_success_at' | 'last_failure_at' | 'consecutive_failures' | 'disabled_reason' | 'previous_secret' | 'previous_secret_until'>;

export interface NewMessage {
  subscription_id: number;
  webhook_id: string;
  type: string;
  record_key: string | null;
  payload: string;
  /** 1: the first attempt renders the objects of the entries into the payload (80 §4.2). */
  objects_pending?: number;
}

/** A message claimed for sending, with what the sender needs of its subscription. */
export interface ClaimedMessage extends WebhookMessageRow {
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: string | null;
  visibility: string;
}

/** Statuses a message can still change from by itself (it occupies its record's place in line). */
const OPEN: WebhookMessageStatus[] = ['pending', 'delivering'];

/** All SQL of webhook subscriptions and their outbox (80 §4). Times are ISO-8601 UTC text. */
export class WebhooksRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private get postgres(): boolean {
    return isPostgres(this.db);
  }

  /** The database clock, so that every instance measures leases and retries alike. */
  async now(): Promise<Date> {
    const query = this.postgres
      ? sql<{ now: string }>`select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as now`
      : sql<{ now: string }>`select strftime('%Y-%m-%dT%H:%M:%fZ', 'now') as now`;
    const { rows } = await query.execute(this.db);
    return new Date(rows[0]!.now);
  }

  async count(): Promise<number> {
    const row = await this.db.selectFrom('webhooks').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    return toInt(row.n);
  }

  create(webhook: NewWebhook): Promise<WebhookRow> {
    return this.db.insertInto('webhooks').values(webhook).returningAll().executeTakeFirstOrThrow();
  }

  list(): Promise<WebhookRow[]> {
    return this.db.selectFrom('webhooks').selectAll().orderBy('id').execute();
  }

  find(id: number): Promise<WebhookRow | undefined> {
    return this.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
  }

  update(id: number, changes: Updateable<WebhookTable>): Promise<WebhookRow | undefined> {
    return this.db.updateTable('webhooks').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
  }

  /** The subscription, its messages and their attempts; an in-flight send's result then finds nothing to write. */
  async delete(id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('webhook_attempts').where('message_id', 'in', trx.selectFrom('webhook_messages').select('id').where('subscription_id', '=', id)).execute();
      await trx.deleteFrom('webhook_messages').where('subscription_id', '=', id).execute();
      await trx.deleteFrom('webhooks').where('id', '=', id).execute();
    });
  }

  async countMessages(subscriptionId: number, status: WebhookMessageStatus | undefined): Promise<number> {
    let query = this.db.selectFrom('webhook_messages').where('subscription_id', '=', subscriptionId);
    if (status) query = query.where('status', '=', status);
    const row = await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    return toInt(row.n);
  }

  listMessages(subscriptionId: number, status: WebhookMessageStatus | undefined, offset: number, limit: number): Promise<WebhookMessageRow[]> {
    let query = this.db.selectFrom('webhook_messages').selectAll().where('subscription_id', '=', subscriptionId);
    if (status) query = query.where('status', '=', status);
    return query.orderBy('id', 'desc').offset(offset).limit(limit).execute();
  }

  findMessage(subscriptionId: number, id: number): Promise<WebhookMessageRow | undefined> {
    return this.db.selectFrom('webhook_messages').selectAll().where('subscription_id', '=', subscriptionId).where('id', '=', id).executeTakeFirst();
  }

  attempts(messageId: number): Promise<WebhookAttemptRow[]> {
    return this.db.selectFrom('webhook_attempts').selectAll().where('message_id', '=', messageId).orderBy('id').execute();
  }

  /** New messages, due at once; in the order given (ids follow it: per-record order relies on that). */
  async insertMessages(messages: readonly NewMessage[], now: Date): Promise<WebhookMessageRow[]> {
    if (messages.length === 0) return [];
    const at = now.toISOString();
    return this.db
      .insertInto('webhook_messages')
      .values(messages.map((message) => ({ ...message, status: 'pending' as const, attempts: 0, next_attempt_at: at, created_at: at })))
      .returningAll()
      .execute();
  }

  /** Back in line with a fresh set of attempts, under its own webhook-id. */
  async requeue(id: number, now: Date): Promise<WebhookMessageRow | undefined> {
    return this.db
      .updateTable('webhook_messages')
      .set({ status: 'pending', attempts: 0, next_attempt_at: now.toISOString(), lease_owner: null, lease_until: null, finished_at: null })
      .where('id', '=', id)
      .where('status', 'in', ['succeeded', 'failed', 'cancelled'])
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * Subscriptions whose change position can be advanced now, locked until `trx` ends; on
   * PostgreSQL a row another instance is fanning out is skipped, not waited for.
   */
  async lockActiveSubscriptions(trx: Kysely<Database>): Promise<WebhookRow[]> {
    const query = activeSubscriptions(trx).selectAll().orderBy('id');
    return this.postgres ? query.forUpdate().skipLocked().execute() : query.execute();
  }

  /** Whether any subscription is active, read without a lock or a transaction. */
  async hasActiveSubscriptions(): Promise<boolean> {
    return (await activeSubscriptions(this.db).select('id').limit(1).executeTakeFirst()) !== undefined;
  }

  async setChangePosition(trx: Kysely<Database>, id: number, position: string): Promise<void> {
    await trx.updateTable('webhooks').set({ change_position: position }).where('id', '=', id).execute();
  }

  /**
   * Claims one due message in one statement (80 §4.4 B): pending, or delivering with its lease run
   * out (its instance died); not while an earlier message for the same record is still open (per
   * record order); not while the subscription already has `perSubscription` sends in flight.
   */
  async claim(owner: string, now: Date, leaseUntil: Date, perSubscription: number): Promise<ClaimedMessage | undefined> {
    const at = now.toISOString();
    const lock = this.postgres ? sql`for update of m skip locked` : sql``;
    const { rows } = await sql<WebhookMessageRow>`
      update webhook_messages set status = 'delivering', lease_owner = ${owner}, lease_until = ${leaseUntil.toISOString()}, attempts = attempts + 1
      where id = (
        select m.id from webhook_messages m
        join webhooks w on w.id = m.subscription_id and w.active = 1
        where m.status in ('pending', 'delivering') and m.next_attempt_at <= ${at} and (m.lease_until is null or m.lease_until < ${at})
          and not exists (
            select 1 from webhook_messages e
            where e.subscription_id = m.subscription_id and e.record_key = m.record_key and e.id < m.id and e.status in ('pending', 'delivering'))
          and (select count(*) from webhook_messages f
            where f.subscription_id = m.subscription_id and f.status = 'delivering' and f.lease_until >= ${at}) < ${perSubscription}
        order by m.next_attempt_at, m.id
        limit 1
        ${lock}
      )
      and status in ('pending', 'delivering')
      returning *`.execute(this.db);
    const message = rows[0];
    if (!message) return undefined;
    const subscription = await this.db.selectFrom('webhooks').select(['url', 'secret', 'previous_secret', 'previous_secret_until', 'visibility']).where('id', '=', message.subscription_id).executeTakeFirst();
    return subscription ? { ...message, ...subscription } : undefined;
  }

  /**
   * 140 §5: the messages `owner` claimed and is not sending, back to `pending` at once in one
   * statement (an unsent claim is no attempt), so that any instance sends them without waiting for the lease.
   */
  async releaseUnsent(owner: string, sending: readonly number[]): Promise<number> {
    let query = this.db
      .updateTable('webhook_messages')
      .set((eb) => ({ status: 'pending', lease_owner: null, lease_until: null, attempts: eb('attempts', '-', 1) }))
      .where('lease_owner', '=', owner)
      .where('status', '=', 'delivering');
    if (sending.length > 0) query = query.where('id', 'not in', [...sending]);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * Freezes the body the first attempt built (objects rendered then), so retries send the same
   * bytes; answers false when the lease went to another instance, which renders its own.
   */
  async freezePayload(id: number, owner: string, attempt: number, payload: string): Promise<boolean> {
    const result = await this.heldByMe(this.db.updateTable('webhook_messages').set({ payload, objects_pending: 0 }), id, owner, attempt).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async recordAttempt(attempt: Omit<WebhookAttemptTable, 'id'>): Promise<void> {
    await this.db.insertInto('webhook_attempts').values(attempt).execute();
  }

  /**
   * Writes the outcome of a send, only while this instance still holds the lease of that attempt
   * (a late result after a takeover is dropped). Returns whether it was written.
   */
  async finish(id: number, owner: string, attempt: number, outcome: { status: WebhookMessageStatus; nextAttemptAt?: Date; error: string | null; at: Date }): Promise<boolean> {
    const done = outcome.status !== 'pending';
    const result = await this.heldByMe(
      this.db.updateTable('webhook_messages').set({
        status: outcome.status,
        lease_owner: null,
        lease_until: null,
        last_error: outcome.error,
        ...(outcome.nextAttemptAt ? { next_attempt_at: outcome.nextAttemptAt.toISOString() } : {}),
        ...(done ? { finished_at: outcome.at.toISOString() } : {}),
      }),
      id,
      owner,
      attempt,
    ).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  private heldByMe<Q extends { where: (...args: any[]) => any }>(query: Q, id: number, owner: string, attempt: number) {
    return query.where('id', '=', id).where('lease_owner', '=', owner).where('attempts', '=', attempt).where('status', '=', 'delivering') as Q & { execute(): Promise<unknown>; executeTakeFirst(): Promise<{ numUpdatedRows: bigint }> };
  }

  async noteSuccess(subscriptionId: number, at: Date): Promise<void> {
    await this.db.updateTable('webhooks').set({ last_success_at: at.toISOString(), consecutive_failures: 0 }).where('id', '=', subscriptionId).execute();
  }

  async noteFailure(subscriptionId: number, at: Date): Promise<void> {
    await this.db
      .updateTable('webhooks')
      .set((eb) => ({ last_failure_at: at.toISOString(), consecutive_failures: eb('consecutive_failures', '+', 1) }))
      .where('id', '=', subscriptionId)
      .execute();
  }

  /** Failed messages of the subscription since `since` (its last success, or its creation). */
  async countFailedSince(subscriptionId: number, since: string): Promise<number> {
    const row = await this.db
      .selectFrom('webhook_messages')
      .where('subscription_id', '=', subscriptionId)
      .where('status', '=', 'failed')
      .where('finished_at', '>=', since)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return toInt(row.n);
  }

  /** Stops a subscription and cancels what it had waiting (`receiver-gone`, `failing`). */
  async disable(subscriptionId: number, reason: string, at: Date): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('webhooks').set({ active: 0, disabled_reason: reason }).where('id', '=', subscriptionId).execute();
      await trx
        .updateTable('webhook_messages')
        .set({ status: 'cancelled', lease_owner: null, lease_until: null, finished_at: at.toISOString() })
        .where('subscription_id', '=', subscriptionId)
        .where('status', 'in', OPEN)
        .execute();
    });
  }

  /** Retention (80 §4.4): attempt rows after `logDays`, payloads of succeeded messages after 7 days. */
  async prune(attemptsBefore: Date, payloadsBefore: Date): Promise<void> {
    await this.db.deleteFrom('webhook_attempts').where('started_at', '<', attemptsBefore.toISOString()).execute();
    await this.db.updateTable('webhook_messages').set({ payload: null }).where('status', '=', 'succeeded').where('finished_at', '<', payloadsBefore.toISOString()).where('payload', 'is not', null).execute();
  }
}

function activeSubscriptions(db: Kysely<Database>) {
  return db.selectFrom('webhooks').where('active', '=', 1);
}
