import { mailLog } from '../../../services/mail/mail-log.ts';
import { MailPage } from '../../../web/admin/moderation.tsx';
import { adminView } from '../admin-view.ts';
import type { AdminPageModule } from '../router.ts';

/** `/admin/mail/` (120 §10.3): administrators see the outbox and resend failed messages with their Message-ID. */
export const mailPages: AdminPageModule = (deps) => {
  const log = mailLog(deps.storage);
  return [
    {
      path: '/mail/',
      access: 'administrator',
      get: async (req) => {
        const rows = await log.list(req.query.status === 'failed' ? 'failed' : undefined);
        return {
          body: MailPage({
            view: adminView(req),
            rows: rows.map((row) => ({ id: row.id, kind: row.kind, recipient: row.recipient, subject: row.subject, status: row.status, attempts: row.attempts, created: row.created_utc.slice(0, 16).replace('T', ' '), lastError: row.last_error })),
          }),
        };
      },
      post: async (req) => {
        const id = Number(req.form.get('resend'));
        const resent = Number.isInteger(id) && id > 0 && (await log.resend(id));
        return { redirect: req.adminUrl('/mail/', { message: resent ? 'mail_resent' : 'mail_not_resent' }) };
      },
    },
  ];
};
