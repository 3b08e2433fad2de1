import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import { EDITION_PREFIXES, LANGUAGES, translate, type Language, type MessageKey } from '../../i18n/catalog.ts';
import type { Database, EventRow, SubmissionRow } from '../../storage/schema.ts';
import { queueMail, subjectTitle, type MailRequest } from '../mail/mail-messages.ts';
import type { StoredSubmission, SubmissionAlerts } from './submissions-service.ts';

const languageOf = (edition: string): Language => ((LANGUAGES as readonly string[]).includes(edition) ? (edition as Language) : 'en');
const when = (event: EventRow) => (event.start_local === event.end_local ? event.start_local.slice(0, 16) : `${event.start_local.slice(0, 16)} – ${event.end_local.slice(0, 16)}`);

/** 120 §10.1 `submission.new`: one alert per `CALENDAR_SUBMISSIONS_NOTIFY` address, in the form's edition. */
export function submissionAlerts(config: Config): SubmissionAlerts | undefined {
  if (config.submissions.notify.length === 0 || config.mail.smtp === null) return undefined;
  return async (trx: Kysely<Database>, { event, submission, form, ctx }: StoredSubmission) => {
    const lang = languageOf(submission.edition);
    const t = (key: MessageKey, vars?: Record<string, string | number>) => translate(lang, key, vars);
    const site = (config.publicUrl ?? ctx.urls.origin) + config.basePath + EDITION_PREFIXES[lang];
    const flags = submission.flags === '' ? [] : submission.flags.split(',');
    const submitter = submission.member_id !== null ? (ctx.user?.login ?? '') : [submission.submitter_name, submission.submitter_email && `<${submission.submitter_email}>`].filter(Boolean).join(' ');
    const venue = form.venue === 'new' ? form.venue_new.venue : form.venue;
    const organizer = form.organizer === 'new' ? form.organizer_new.organizer : form.organizer;
    const email = submission.member_id === null ? submission.submitter_email : ctx.user?.email || null;
    const requests: MailRequest[] = config.submissions.notify.map((to) => ({
      kind: 'submission.new',
      eventId: event.id,
      lang,
      to,
      replyTo: email ? { name: submission.submitter_name ?? '', address: email } : undefined,
      subject: t('mail_new_subject', { title: subjectTitle(form.title) }),
      content: {
        lang,
        heading: t('mail_new_subject', { title: subjectTitle(form.title) }),
        paragraphs: [t('mail_new_text')],
        facts: [
          { label: t('submit_title'), value: form.title },
          { label: t('mail_dates'), value: when(event) },
          ...(venue ? [{ label: t('submit_venue'), value: venue }] : []),
          ...(organizer ? [{ label: t('submit_organizer'), value: organizer }] : []),
          { label: t('mail_submitter'), value: submitter },
          ...(flags.length > 0 ? [{ label: t('mail_flags'), value: flags.map((flag) => t(`mail_flag_${flag}` as MessageKey)).join(', ') }] : []),
        ],
        links: [
          { label: t('mail_open_editor'), href: `${site}/admin/events/${event.id}/` },
          { label: t('mail_pending_list'), href: `${site}/admin/events/?status=${config.submissions.status}&submissions=1` },
        ],
      },
    }));
    await queueMail(trx, config.mail, requests);
  };
}

/** 120 §10.1 `submission.approved` / `submission.rejected` to the submitter (none without an address). */
export async function queueDecisionMail(
  trx: Kysely<Database>,
  config: Config,
  decision: { kind: 'approved' | 'rejected'; event: EventRow; submission: SubmissionRow; memberEmail: string | null; eventUrl: string; reason: string | null },
): Promise<boolean> {
  const to = decision.submission.member_id !== null ? decision.memberEmail : decision.submission.submitter_email;
  if (!to) return false;
  const lang = languageOf(decision.submission.edition);
  const t = (key: MessageKey, vars?: Record<string, string | number>) => translate(lang, key, vars);
  const approved = decision.kind === 'approved';
  const subject = t(approved ? 'mail_approved_subject' : 'mail_rejected_subject', { title: subjectTitle(decision.event.title) });
  const queued = await queueMail(trx, config.mail, [{
    kind: `submission.${decision.kind}`,
    eventId: decision.event.id,
    lang,
    to,
    subject,
    content: {
      lang,
      heading: subject,
      paragraphs: [t(approved ? 'mail_approved_text' : 'mail_rejected_text')],
      facts: [{ label: t('mail_dates'), value: when(decision.event) }, ...(!approved && decision.reason ? [{ label: t('mail_reason'), value: decision.reason }] : [])],
      links: approved ? [{ label: t('mail_view_event'), href: decision.eventUrl }] : [],
    },
  }]);
  return queued > 0;
}
