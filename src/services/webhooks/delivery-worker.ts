import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { WebhookSettings } from '../../config.ts';
import { parseRetryAfter, retryDelaySeconds } from '../../domain/webhooks/retry.ts';
import { signedHeaders } from '../../domain/webhooks/signing.ts';
import type { Storage } from '../../storage/database.ts';
import { WebhooksRepository, type ClaimedMessage } from '../../storage/repositories/webhooks-repository.ts';
import { SecretBox } from './secret-box.ts';
import type { MessageObjects } from './message-objects.ts';
import { postMessage, type SendResult } from './sender.ts';

/** Sends in flight per instance and per subscription (80 §4.4 B). */
const PER_INSTANCE = 8;
const PER_SUBSCRIPTION = 2;
/** A subscription with no success for this long and this many failed messages is disabled (`failing`). */
const FAILING_AFTER_MS = 5 * 24 * 3600 * 1000;
const FAILING_MESSAGES = 20;
const PRUNE_EVERY_MS = 3600 * 1000;
const SUCCEEDED_PAYLOAD_DAYS = 7;
const DAY_MS = 24 * 3600 * 1000;

/** Turns new change-log entries into outbox messages (80 §4.2); runs before every claim round. */
export type FanOut = () => Promise<void>;

export interface DeliveryOptions {
  storage: Storage;
  settings: WebhookSettings;
  fanOut?: FanOut;
  /** Renders the objects of `include_objects` messages at their first attempt. */
  objects?: MessageObjects;
  onError: (error: unknown) => void;
  /** Told how each finished attempt ended (the metrics, 140 §4.2). */
  onOutcome?: (outcome: DeliveryOutcome) => void;
}

/** How a finished attempt ended (140 §4.2 `calendar_webhook_deliveries_total`). */
export type DeliveryOutcome = 'success' | 'http_error' | 'timeout' | 'network_error' | 'refused' | 'lease_lost';

function outcomeOf(result: SendResult): Exclude<DeliveryOutcome, 'lease_lost'> {
  if (result.status !== null) return result.status >= 200 && result.status < 300 ? 'success' : 'http_error';
  if (result.error?.startsWith('timeout')) return 'timeout';
  return result.error?.startsWith('refused') ? 'refused' : 'network_error';
}

/**
 * The delivery engine every instance runs (80 §4.4): fan out new changes, claim due messages under
 * a lease, send them signed, record the attempt, then succeed, retry later or give up. Nothing
 * correctness-relevant lives in memory: a killed instance's claimed messages go to whichever
 * instance finds their lease expired.
 */
export class WebhookDelivery {
  /** Lease owner name: unique per process run, readable in the attempt log. */
  readonly instance = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private readonly repository: WebhooksRepository;
  private readonly secrets: SecretBox;
  private readonly inFlight = new Set<Promise<void>>();
  /** The messages whose send has begun (a stop lets them finish; the other claims are released). */
  private readonly sending = new Set<number>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = false;
  private lastPrune = 0;

  constructor(private readonly options: DeliveryOptions) {
    this.repository = new WebhooksRepository(options.storage.db);
    this.secrets = new SecretBox(options.settings.secretKey);
  }

  start(): () => Promise<void> {
    const loop = async () => {
      await this.round();
      if (!this.stopped) this.timer = setTimeout(loop, this.options.settings.pollMs);
    };
    this.timer = setTimeout(loop, 0);
    return async () => {
      this.stopped = true;
      clearTimeout(this.timer);
      await this.repository.releaseUnsent(this.instance, [...this.sending]).catch(this.options.onError);
      await Promise.allSettled([...this.inFlight]);
    };
  }

  /** One pass: fan out, then claim until the instance is busy or nothing is due. Never throws. */
  async round(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = true;
    try {
      await this.options.fanOut?.();
      await this.prune();
      while (!this.stopped && this.inFlight.size < PER_INSTANCE) {
        const now = await this.repository.now();
        const message = await this.repository.claim(this.instance, now, new Date(now.getTime() + this.options.settings.leaseSeconds * 1000), PER_SUBSCRIPTION);
        if (!message) break;
        // Claimed while a stop began: the stop's release may have run before this claim committed.
        if (this.stopped) {
          await this.repository.releaseUnsent(this.instance, [...this.sending]);
          break;
        }
        this.sending.add(message.id);
        const send = this.send(message, now)
          .catch(this.options.onError)
          .finally(() => {
            this.sending.delete(message.id);
            this.inFlight.delete(send);
            // A finished send may unblock the next message of its record.
            void this.round();
          });
        this.inFlight.add(send);
      }
    } catch (error) {
      this.options.onError(error);
    } finally {
      this.running = false;
    }
  }

  /** Waits until nothing claimed by this instance is still being sent (tests). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0 || this.running) await Promise.allSettled([...this.inFlight, new Promise((resolve) => setTimeout(resolve, 5))]);
  }

  private async send(message: ClaimedMessage, claimedAt: Date): Promise<void> {
    const { repository } = this;
    const payload = await this.frozenPayload(message, claimedAt);
    if (payload === null) return;
    const secrets = [this.secrets.open(message.secret)];
    if (message.previous_secret && message.previous_secret_until && message.previous_secret_until > claimedAt.toISOString()) secrets.push(this.secrets.open(message.previous_secret));
    const headers = signedHeaders(secrets, message.webhook_id, Math.floor(claimedAt.getTime() / 1000), payload);
    const result = await postMessage(message.url, headers, payload, { allowPrivate: this.options.settings.allowInsecure, timeoutMs: this.options.settings.timeoutMs });
    const now = await repository.now();
    await repository.recordAttempt({
      message_id: message.id,
      attempt: message.attempts,
      started_at: claimedAt.toISOString(),
      duration_ms: result.durationMs,
      status_code: result.status,
      error: result.error,
      excerpt: result.excerpt,
      instance: this.instance,
    });
    const finish = async (outcome: Parameters<WebhooksRepository['finish']>[3]) => {
      const written = await repository.finish(message.id, this.instance, message.attempts, outcome);
      this.options.onOutcome?.(written ? outcomeOf(result) : 'lease_lost');
      return written;
    };

    if (result.status !== null && result.status >= 200 && result.status < 300) {
      if (await finish({ status: 'succeeded', error: null, at: now })) await repository.noteSuccess(message.subscription_id, now);
      return;
    }
    const error = result.error ?? `HTTP ${result.status}`;
    if (result.status === 410) {
      // The receiver says it is gone for good: stop the subscription (80 §4.4).
      if (await finish({ status: 'failed', error, at: now })) await repository.disable(message.subscription_id, 'receiver-gone', now);
      return;
    }
    const retryAfter = result.status === 429 || result.status === 503 ? parseRetryAfter(result.retryAfter, now) : null;
    const delay = retryDelaySeconds(this.options.settings.retrySchedule, message.attempts, retryAfter);
    const written = delay === null
      ? await finish({ status: 'failed', error, at: now })
      : await finish({ status: 'pending', error, at: now, nextAttemptAt: new Date(now.getTime() + delay * 1000) });
    if (!written) return;
    await repository.noteFailure(message.subscription_id, now);
    if (delay === null) await this.disableWhenFailing(message.subscription_id, now);
  }

  /**
   * The body to send: as stored, or for a message still waiting for its objects, rendered now and
   * stored before the send (80 §4.2), so that every later attempt sends these bytes. Null when the
   * lease was lost meanwhile: the instance holding it renders and sends.
   */
  private async frozenPayload(message: ClaimedMessage, claimedAt: Date): Promise<string | null> {
    const stored = message.payload ?? '{}';
    const objects = this.options.objects;
    if (message.objects_pending !== 1 || objects === undefined || message.payload === null) return stored;
    const rendered = await objects(stored, message.visibility, claimedAt);
    return (await this.repository.freezePayload(message.id, this.instance, message.attempts, rendered)) ? rendered : null;
  }

  /** No success for 5 days and at least 20 failed messages: the subscription is disabled (`failing`). */
  private async disableWhenFailing(subscriptionId: number, now: Date): Promise<void> {
    const subscription = await this.repository.find(subscriptionId);
    if (!subscription || subscription.active === 0) return;
    const since = subscription.last_success_at ?? subscription.created_at;
    if (now.getTime() - Date.parse(since) < FAILING_AFTER_MS) return;
    if ((await this.repository.countFailedSince(subscriptionId, since)) >= FAILING_MESSAGES) await this.repository.disable(subscriptionId, 'failing', now);
  }

  private async prune(): Promise<void> {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    const now = await this.repository.now();
    await this.repository.prune(new Date(now.getTime() - this.options.settings.logDays * DAY_MS), new Date(now.getTime() - SUCCEEDED_PAYLOAD_DAYS * DAY_MS));
  }
}
