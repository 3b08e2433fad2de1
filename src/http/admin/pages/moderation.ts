import { canModerate } from '../../../domain/auth/capabilities.ts';
import { translate } from '../../../i18n/catalog.ts';
import { SubmissionsRepository } from '../../../storage/repositories/submissions-repository.ts';
import { ModerationPage } from '../../../web/admin/moderation.tsx';
import { adminView } from '../admin-view.ts';
import { callApi } from '../call-api.ts';
import { adminErrorPage } from '../errors.ts';
import type { AdminPageModule } from '../router.ts';

/**
 * `/admin/events/{id}/moderate` (120 §8.1): the decision form and its POST, which runs the admin
 * API's moderation route in process (100 §11: one implementation).
 */
export const moderationPages: AdminPageModule = (deps) => [
  {
    path: '/events/:id(^\\d+)/moderate',
    access: canModerate,
    get: async (req) => {
      const id = Number(req.params.id);
      const event = await callApi(req, { method: 'GET', route: '/events/(?P<id>\\d+)', params: { id, context: 'edit' } });
      const submission = await new SubmissionsRepository(deps.storage.db).find(id);
      if (!event.ok || !submission) return adminErrorPage(req, 404, 'submission-not-found');
      const submitter = submission.member_id !== null ? `#${submission.member_id}` : [submission.submitter_name, submission.submitter_email && `<${submission.submitter_email}>`].filter(Boolean).join(' ');
      return {
        body: ModerationPage({
          view: adminView(req),
          model: { eventId: id, title: String(event.body.title ?? ''), submitter, submitted: submission.created_utc, edition: submission.edition, flags: submission.flags === '' ? [] : submission.flags.split(',') },
        }),
      };
    },
    post: async (req) => {
      const decision = req.form.get('decision') ?? '';
      const outcome = await callApi(req, {
        method: 'POST',
        route: '/events/(?P<id>\\d+)/moderation',
        namespace: 'admin',
        params: { id: Number(req.params.id), decision, ...(req.form.has('reason') && req.form.get('reason') !== '' ? { reason: req.form.get('reason') } : {}), notify: req.form.get('notify') === '1' },
      });
      if (!outcome.ok) return adminErrorPage(req, outcome.status, outcome.code, outcome.message || translate(req.lang, 'submission-already-decided'));
      return { redirect: req.adminUrl('/events/', { status: deps.config.submissions.status, submissions: 1, message: `moderated_${decision}` }) };
    },
  },
];
