import { randomBytes } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import type { MailSettings, SmtpSettings } from '../../submissions-config.ts';
import type { Storage } from '../../storage/database.ts';
import { MailRepository } from '../../storage/repositories/mail-repository.ts';
import type { MailMessageRow } from '../../storage/schema.ts';
import { WebhooksRepository } from '../../storage/repositories/webhooks-repository.ts';
import type { FrozenMail } from './mail-messages.ts';

/** Messages claimed per instance (120 §10.3). */
const IN_FLIGHT = 4;
/** The pool's connections (120 §10.3): as many sends at once. */
const CONNECTIONS = 2;

export type DeliveryOutcome = 'sent' | 'temporary' | 'permanent' | 'lease_lost';

/** One pooled transport (≤ 2 connections); STARTTLS required except to a loopback host; certificates verified. */
export function smtpTransport(smtp: SmtpSettings, timeoutMs: number): Transporter {
  return nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    requireTLS: !smtp.secure && !smtp.loopback,
    ignoreTLS: !smtp.secure && smtp.loopback,
    auth: smtp.user === null ? undefined : { user: smtp.user, pass: smtp.password ?? '' },
    pool: true,
    maxConnections: CONNECTIONS,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    tls: { rejectUnauthorized: true },
  });
}

/** Sends one frozen message: structured addresses, the envelope exactly the `To`. */
export async function sendFrozen(transport: Transporter, mail: FrozenMail): Promise<string> {
  const info = await transport.sendMail({
    messageId: mail.messageId,
    date: new Date(mail.date),
    from: { name: mail.from.name, address: mail.from.address },
    to: { name: '', address: mail.to },
    replyTo: mail.replyTo ? { name: mail.replyTo.name, address: mail.replyTo.address } : undefined,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    envelope: { from: mail.from.address, to: [mail.to] },
    headers: { 'Auto-Submitted': 'auto-generated', 'Content-Language': mail.lang },
  });
  return String(info.response ?? '');
}

/** 5xx for the recipient: no retry will help. */
function permanent(error: unknown): boolean {
  const code = (error as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** What `last_error` keeps and `calendar mail test` prints: never credentials (the URL is not in any message nodemailer writes). */
export function describeSmtpError(error: unknown): string {
  const { message, responseCode, code } = error as { message?: string; responseCode?: number; code?: string };
  return [code, responseCode, message].filter((part) => part !== undefined).join(' ').slice(0, 500);
}

/**
 * The durable outbox (120 §10.3, 80 §4.4's pattern): every instance polls, claims due rows under a
 * lease (database clock), sends, and writes the outcome only while it still holds the lease. A
 * claimed message waits for one of the pool's connections before its send begins; a stop (140 §5)
 * hands back the claims not yet begun in one statement and lets the begun ones finish.
 */
export class MailOutbox {
  private readonly owner = `${process.pid}-${randomBytes(4).toString('hex')}`;
  /** Every claimed message until its delivery ends (begun or waiting for a connection). */
  private readonly claimed = new Map<number, Promise<void>>();
  /** The claimed messages whose send has begun. */
  private readonly begun = new Set<number>();
  private connectionsInUse = 0;
  private readonly waitingForConnection: Array<() => void> = [];
  private polling: Promise<number> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly transport: Transporter;

  constructor(
    private readonly storage: Storage,
    private readonly settings: MailSettings & { smtp: SmtpSettings },
    private readonly options: { onError?: (error: unknown) => void; onOutcome?: (outcome: DeliveryOutcome) => void; transport?: Transporter } = {},
  ) {
    this.transport = options.transport ?? smtpTransport(settings.smtp, settings.timeoutMs);
  }

  start(): () => Promise<void> {
    const tick = () => {
      if (this.stopped) return;
      this.poll().catch((error) => this.options.onError?.(error)).finally(() => {
        if (!this.stopped) this.timer = setTimeout(tick, this.settings.pollMs);
      });
    };
    tick();
    return () => this.stop();
  }

  /**
   * 140 §5: no new claims; claims whose send has not begun go back to `pending` (lease cleared,
   * the attempt not counted) so any instance sends them at once; begun sends are awaited.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    // A claim still being written would escape the release.
    await this.polling?.catch(() => 0);
    try {
      await new MailRepository(this.storage.db).releaseUnsent(this.owner, [...this.begun]);
    } catch (error) {
      this.options.onError?.(error);
    }
    await Promise.allSettled(this.claimed.values());
    this.transport.close();
  }

  /** One round: claim what is due (up to the free places) and start delivering it. */
  poll(): Promise<number> {
    if (this.stopped) return Promise.resolve(0);
    this.polling = this.claimDue();
    return this.polling;
  }

  private async claimDue(): Promise<number> {
    const repo = new MailRepository(this.storage.db);
    const now = await new WebhooksRepository(this.storage.db).now();
    const claimed = await repo.claim(this.owner, now, new Date(now.getTime() + this.settings.leaseSeconds * 1000), IN_FLIGHT - this.claimed.size);
    for (const row of claimed) {
      const delivery = this.whenConnectionFree(row).catch((error) => this.options.onError?.(error)).finally(() => this.claimed.delete(row.id));
      this.claimed.set(row.id, delivery);
    }
    return claimed.length;
  }

  /** Waits for the deliveries in flight (tests). */
  async idle(): Promise<void> {
    await Promise.allSettled(this.claimed.values());
  }

  /** Sends once one of the pool's connections is free, unless a stop came first (the stop released the claim). */
  private async whenConnectionFree(row: MailMessageRow): Promise<void> {
    if (this.connectionsInUse < CONNECTIONS) this.connectionsInUse++;
    else await new Promise<void>((resolve) => this.waitingForConnection.push(resolve));
    try {
      if (this.stopped) return;
      this.begun.add(row.id);
      await this.deliver(row);
    } finally {
      this.begun.delete(row.id);
      // The connection passes to the next waiting claim, else it is free.
      const next = this.waitingForConnection.shift();
      if (next) next();
      else this.connectionsInUse--;
    }
  }

  private async deliver(row: MailMessageRow): Promise<void> {
    const repo = new MailRepository(this.storage.db);
    const clock = new WebhooksRepository(this.storage.db);
    let outcome: DeliveryOutcome;
    let written: boolean;
    try {
      if (row.body === null) throw Object.assign(new Error('the message body was pruned'), { responseCode: 554 });
      const response = await sendFrozen(this.transport, JSON.parse(row.body) as FrozenMail);
      written = await repo.finish(row.id, this.owner, row.attempts, { status: 'sent', at: await clock.now(), response: response.slice(0, 500) });
      outcome = 'sent';
    } catch (error) {
      const at = await clock.now();
      const schedule = this.settings.retrySchedule;
      const exhausted = row.attempts > schedule.length;
      if (permanent(error) || exhausted) {
        written = await repo.finish(row.id, this.owner, row.attempts, { status: 'failed', at, error: describeSmtpError(error) });
        outcome = 'permanent';
      } else {
        const wait = schedule[row.attempts - 1] * (0.8 + Math.random() * 0.4);
        written = await repo.finish(row.id, this.owner, row.attempts, { status: 'pending', at, error: describeSmtpError(error), nextAttempt: new Date(at.getTime() + wait * 1000) });
        outcome = 'temporary';
      }
    }
    this.options.onOutcome?.(written ? outcome : 'lease_lost');
  }
}
