import type { MailSettings } from '../../submissions-config.ts';
import { translate, type Language } from '../../i18n/catalog.ts';
import { describeSmtpError, sendFrozen, smtpTransport } from './mail-outbox.ts';
import { freezeMail } from './mail-messages.ts';

export type TestMailResult = { ok: true; response: string } | { ok: false; reason: string };

/**
 * 120 §10.3 `test`: one message sent at once with the configured SMTP settings, past the outbox
 * (nothing queued, nothing retried), and the server's answer — what an operator checks a setup with.
 */
export async function sendTestMail(settings: MailSettings, to: string, lang: Language, now: Date): Promise<TestMailResult> {
  if (settings.smtp === null || settings.from === null) return { ok: false, reason: translate(lang, 'mail_test_off') };
  const transport = smtpTransport(settings.smtp, settings.timeoutMs);
  try {
    const heading = translate(lang, 'mail_test_subject');
    const mail = freezeMail(settings.from, { lang, to, subject: heading, content: { lang, heading, paragraphs: [translate(lang, 'mail_test_text')], facts: [], links: [] } }, now);
    return { ok: true, response: await sendFrozen(transport, mail) };
  } catch (error) {
    return { ok: false, reason: describeSmtpError(error) };
  } finally {
    transport.close();
  }
}
