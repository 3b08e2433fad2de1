import type { WebhookSettings } from '../../config.ts';
import { RestError } from '../../domain/errors.ts';
import { generateSecret, maskSecret, messageId } from '../../domain/webhooks/signing.ts';
import type { WebhookVisibility } from '../../domain/webhooks/subscription-rules.ts';
import { WebhooksRepository } from '../../storage/repositories/webhooks-repository.ts';
import type { Storage } from '../../storage/database.ts';
import type { WebhookAttemptRow, WebhookMessageRow, WebhookMessageStatus, WebhookRow } from '../../storage/schema.ts';
import { SecretBox } from './secret-box.ts';

/** How long a rotated-out secret keeps signing beside the new one (80 §4.1). */
const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

export interface WebhookInput {
  url: string;
  types: string[];
  visibility: WebhookVisibility;
  /** Upsert entries carry their objects (80 §4.2). */
  include_objects: boolean;
  active: boolean;
  description: string;
}

/** A subscription as administrators see it: the secret masked unless just generated. */
export interface WebhookView {
  id: number;
  url: string;
  description: string;
  types: string[];
  visibility: string;
  include_objects: boolean;
  active: boolean;
  disabled_reason: string | null;
  secret: string;
  created_at: string;
  last_success_at: string | null;
  last_failure_at: string | null;
  consecutive_failures: number;
}

export interface DeliveryView {
  id: number;
  webhook_id: string;
  type: string;
  record: string | null;
  status: WebhookMessageStatus;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

/** The position the change log stands at now: a new subscription starts there. */
export type ChangeHead = (storage: Storage) => Promise<string | null>;

/** Administration of webhook subscriptions and their delivery log (80 §4.1), for the admin API and the CLI. */
export class WebhooksService {
  private readonly repository: WebhooksRepository;
  private readonly secrets: SecretBox;

  constructor(
    private readonly storage: Storage,
    private readonly settings: WebhookSettings,
    private readonly changeHead: ChangeHead,
  ) {
    this.repository = new WebhooksRepository(storage.db);
    this.secrets = new SecretBox(settings.secretKey);
  }

  async create(input: WebhookInput): Promise<WebhookView> {
    if ((await this.repository.count()) >= this.settings.max) throw new RestError(400, 'webhook_limit_reached', { vars: { max: this.settings.max } });
    const secret = generateSecret();
    const now = await this.repository.now();
    const row = await this.repository.create({
      url: input.url,
      description: input.description,
      types: JSON.stringify(input.types),
      visibility: input.visibility,
      include_objects: input.include_objects ? 1 : 0,
      active: input.active ? 1 : 0,
      secret: this.secrets.seal(secret),
      change_position: await this.changeHead(this.storage),
      created_at: now.toISOString(),
    });
    return { ...view(row), secret };
  }

  async list(): Promise<WebhookView[]> {
    return (await this.repository.list()).map((row) => view(row, this.secrets.open(row.secret)));
  }

  async get(id: number): Promise<WebhookView> {
    const row = await this.row(id);
    return view(row, this.secrets.open(row.secret));
  }

  /** Changes what was sent; `active: true` re-enables a disabled subscription. */
  async update(id: number, changes: Partial<WebhookInput>): Promise<WebhookView> {
    const current = await this.row(id);
    const reactivated = changes.active === true && current.active === 0;
    const row = await this.repository.update(id, {
      ...(changes.url !== undefined ? { url: changes.url } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.types !== undefined ? { types: JSON.stringify(changes.types) } : {}),
      ...(changes.visibility !== undefined ? { visibility: changes.visibility } : {}),
      ...(changes.include_objects !== undefined ? { include_objects: changes.include_objects ? 1 : 0 } : {}),
      ...(changes.active !== undefined ? { active: changes.active ? 1 : 0 } : {}),
      // Back on: no stale reason, a fresh failure count, and only changes from now on.
      ...(reactivated ? { disabled_reason: null, consecutive_failures: 0, change_position: await this.changeHead(this.storage) } : {}),
    });
    if (!row) throw new RestError(404, 'webhook_invalid_id');
    return view(row, this.secrets.open(row.secret));
  }

  async delete(id: number): Promise<WebhookView> {
    const row = await this.row(id);
    await this.repository.delete(id);
    return view(row, this.secrets.open(row.secret));
  }

  /** A new secret, shown once; the old one signs alongside for 24 hours. */
  async rotateSecret(id: number): Promise<WebhookView> {
    const current = await this.row(id);
    const secret = generateSecret();
    const now = await this.repository.now();
    const row = await this.repository.update(id, {
      secret: this.secrets.seal(secret),
      previous_secret: current.secret,
      previous_secret_until: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
    });
    if (!row) throw new RestError(404, 'webhook_invalid_id');
    return { ...view(row), secret };
  }

  /** Enqueues a `calendar.ping` message. */
  async ping(id: number): Promise<DeliveryView> {
    await this.row(id);
    const now = await this.repository.now();
    const webhookId = messageId();
    const payload = JSON.stringify({ type: 'calendar.ping', timestamp: now.toISOString().replace(/\.\d+Z$/, 'Z'), data: { webhook: id } });
    const [message] = await this.repository.insertMessages([{ subscription_id: id, webhook_id: webhookId, type: 'calendar.ping', record_key: null, payload }], now);
    return deliveryView(message!);
  }

  async deliveries(id: number, status: WebhookMessageStatus | undefined, page: number, perPage: number): Promise<{ items: DeliveryView[]; total: number }> {
    await this.row(id);
    const [rows, total] = await Promise.all([this.repository.listMessages(id, status, (page - 1) * perPage, perPage), this.repository.countMessages(id, status)]);
    return { items: rows.map(deliveryView), total };
  }

  /** One message with its attempts and the body it sends. */
  async delivery(id: number, messageId: number): Promise<DeliveryView & { payload: unknown; attempt_log: AttemptView[] }> {
    const message = await this.message(id, messageId);
    const attempts = await this.repository.attempts(message.id);
    return { ...deliveryView(message), payload: message.payload === null ? null : JSON.parse(message.payload), attempt_log: attempts.map(attemptView) };
  }

  /** Back in line with the same webhook-id (the receiver dedupes by it). */
  async redeliver(id: number, messageId: number): Promise<DeliveryView> {
    const message = await this.message(id, messageId);
    if (message.payload === null) throw new RestError(409, 'webhook_payload_expired');
    const requeued = await this.repository.requeue(message.id, await this.repository.now());
    if (!requeued) throw new RestError(409, 'webhook_not_redeliverable');
    return deliveryView(requeued);
  }

  private async row(id: number): Promise<WebhookRow> {
    const row = await this.repository.find(id);
    if (!row) throw new RestError(404, 'webhook_invalid_id');
    return row;
  }

  private async message(id: number, messageId: number): Promise<WebhookMessageRow> {
    await this.row(id);
    const message = await this.repository.findMessage(id, messageId);
    if (!message) throw new RestError(404, 'webhook_delivery_invalid_id');
    return message;
  }
}

function view(row: WebhookRow, secret?: string): WebhookView {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    types: JSON.parse(row.types) as string[],
    visibility: row.visibility,
    include_objects: row.include_objects === 1,
    active: row.active === 1,
    disabled_reason: row.disabled_reason,
    secret: secret === undefined ? '' : maskSecret(secret),
    created_at: row.created_at,
    last_success_at: row.last_success_at,
    last_failure_at: row.last_failure_at,
    consecutive_failures: row.consecutive_failures,
  };
}

function deliveryView(row: WebhookMessageRow): DeliveryView {
  return {
    id: row.id,
    webhook_id: row.webhook_id,
    type: row.type,
    record: row.record_key,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' || row.status === 'delivering' ? row.next_attempt_at : null,
    last_error: row.last_error,
    created_at: row.created_at,
    finished_at: row.finished_at,
  };
}

interface AttemptView {
  attempt: number;
  started_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
  instance: string;
}

function attemptView(row: WebhookAttemptRow): AttemptView {
  return { attempt: row.attempt, started_at: row.started_at, duration_ms: row.duration_ms, status_code: row.status_code, error: row.error, response_excerpt: row.excerpt, instance: row.instance };
}
