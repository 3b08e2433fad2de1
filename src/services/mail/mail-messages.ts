import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { MailSettings } from '../../submissions-config.ts';
import { singleLine } from '../../domain/submissions/normalize.ts';
import type { Language } from '../../i18n/catalog.ts';
import { MailRepository } from '../../storage/repositories/mail-repository.ts';
import { WebhooksRepository } from '../../storage/repositories/webhooks-repository.ts';
import type { Database } from '../../storage/schema.ts';
import { mailHtml, mailText, type MailContent } from '../../web/mail/mail-body.tsx';

/** A message as frozen at enqueue (120 §10.2): every retry sends exactly this. */
export interface FrozenMail {
  messageId: string;
  date: string;
  from: { name: string; address: string };
  to: string;
  replyTo?: { name: string; address: string };
  subject: string;
  lang: Language;
  text: string;
  html: string;
}

export interface MailRequest {
  kind: string;
  eventId: number | null;
  lang: Language;
  to: string;
  replyTo?: { name: string; address: string };
  subject: string;
  content: MailContent;
}

/** `{title}` in subjects is cut at 100 characters. */
export function subjectTitle(title: string): string {
  const line = singleLine(title);
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

/**
 * A message rendered and fixed for good (120 §10.2): its `Message-ID` on the domain of the From
 * address, dated `now`; every retry sends exactly this.
 */
export function freezeMail(from: { name: string; address: string }, request: Omit<MailRequest, 'kind' | 'eventId'>, now: Date): FrozenMail {
  return {
    messageId: `<${randomBytes(16).toString('hex')}@${from.address.split('@')[1]}>`,
    date: now.toISOString(),
    from,
    to: request.to,
    replyTo: request.replyTo,
    subject: singleLine(request.subject),
    lang: request.lang,
    text: mailText(request.content),
    html: mailHtml(request.content),
  };
}

/**
 * Renders and queues messages inside the caller's transaction, due at once. With no SMTP URL nothing is
 * queued (mail is off).
 */
export async function queueMail(trx: Kysely<Database>, settings: MailSettings, requests: readonly MailRequest[]): Promise<number> {
  if (settings.smtp === null || settings.from === null || requests.length === 0) return 0;
  // The database clock, as the outbox's claims and leases use (every instance alike).
  const now = await new WebhooksRepository(trx).now();
  const from = settings.from;
  await new MailRepository(trx).enqueue(requests.map((request) => {
    const frozen = freezeMail(from, request, now);
    return { kind: request.kind, event_id: request.eventId, lang: request.lang, message_id: frozen.messageId, recipient: request.to, subject: frozen.subject, body: JSON.stringify(frozen) };
  }), now);
  return requests.length;
}
