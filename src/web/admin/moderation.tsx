import { AdminFrame, type AdminView } from './frame.tsx';
import { Checkbox, CsrfField, Select, TextArea } from './form-parts.tsx';

/** A submission as moderators see it (120 §8.1). */
export interface ModerationModel {
  eventId: number;
  title: string;
  submitter: string;
  submitted: string;
  edition: string;
  flags: string[];
}

/**
 * The decision, the reason and the notify checkbox (checked) of 120 §8.1: on the review page, and
 * on each row of the pending list with `eventId` (their ids) and `form` (the row's form).
 */
export function DecisionFields({ t, rows, eventId, form }: { t: AdminView['t']; rows: number; eventId?: number; form?: string }) {
  const id = (name: string) => (eventId === undefined ? undefined : `field-${name}-${eventId}`);
  return (
    <>
      <Select name="decision" id={id('decision')} form={form} label={t('admin_moderate_decision')} errors={{}} value="approve" options={[
        { value: 'approve', label: t('admin_moderate_approve') },
        { value: 'reject', label: t('admin_moderate_reject') },
        { value: 'spam', label: t('admin_moderate_spam') },
      ]} />
      <TextArea name="reason" id={id('reason')} form={form} label={t('mail_reason')} hint={t('admin_moderate_reason_hint')} errors={{}} rows={rows} />
      <Checkbox name="notify" id={id('notify')} form={form} value="1" label={t('admin_moderate_notify')} checked errors={{}} />
    </>
  );
}

/** `/admin/events/{id}/moderate`: approve, reject with a reason, or spam. */
export function ModerationPage({ view, model }: { view: AdminView; model: ModerationModel }) {
  const { t } = view;
  return (
    <AdminFrame view={view} title={t('admin_moderate_title', { title: model.title })} current="events">
      <dl>
        <dt>{t('mail_submitter')}</dt><dd>{model.submitter}</dd>
        <dt>{t('admin_moderate_submitted')}</dt><dd>{model.submitted} ({model.edition})</dd>
        {model.flags.length > 0 ? <><dt>{t('mail_flags')}</dt><dd>{model.flags.map((flag) => t(`mail_flag_${flag}` as 'mail_flag_unverified')).join(', ')}</dd></> : null}
      </dl>
      <form method="post" action={view.adminUrl(`/events/${model.eventId}/moderate`)} class="admin-form">
        <CsrfField token={view.csrfToken} />
        <DecisionFields t={t} rows={4} />
        <p><button type="submit">{t('admin_moderate_send')}</button></p>
      </form>
    </AdminFrame>
  );
}

export interface MailRowView {
  id: number;
  kind: string;
  recipient: string;
  subject: string;
  status: string;
  attempts: number;
  created: string;
  lastError: string | null;
}

/** `/admin/mail/`: the outbox of the last 30 days, failed ones resendable with the same Message-ID. */
export function MailPage({ view, rows }: { view: AdminView; rows: MailRowView[] }) {
  const { t } = view;
  return (
    <AdminFrame view={view} title={t('admin_mail_title')}>
      <p><a href={view.adminUrl('/mail/', { status: 'failed' })}>{t('admin_mail_failed_only')}</a></p>
      <div class="admin-table-region" role="region" aria-label={t('admin_mail_title')} tabindex={0}>
        <table>
          <thead><tr><th scope="col">{t('admin_mail_created')}</th><th scope="col">{t('admin_mail_to')}</th><th scope="col">{t('admin_mail_subject')}</th><th scope="col">{t('admin_mail_status')}</th><th scope="col">{t('admin_mail_actions')}</th></tr></thead>
          <tbody>
            {rows.map((row) => (
              <tr>
                <td>{row.created}</td>
                <td>{row.recipient}</td>
                <td>{row.subject}</td>
                <td>{row.status}{row.lastError ? ` — ${row.lastError}` : ''}</td>
                <td>
                  {row.status === 'failed' ? (
                    <form method="post" action={view.adminUrl('/mail/')}>
                      <CsrfField token={view.csrfToken} />
                      <input type="hidden" name="resend" value={String(row.id)} />
                      <button type="submit" class="button-secondary">{t('admin_mail_resend')}</button>
                    </form>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </AdminFrame>
  );
}
