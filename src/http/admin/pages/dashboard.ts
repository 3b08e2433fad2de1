import { h } from 'preact';
import { can, canManageCategories, canManageTags } from '../../../domain/auth/capabilities.ts';
import { loadDashboard } from '../../../services/back-office/dashboard.ts';
import { DashboardContent } from '../../../web/admin/dashboard.tsx';
import { AdminFrame } from '../../../web/admin/frame.tsx';
import { adminView } from '../admin-view.ts';
import type { AdminPageModule } from '../router.ts';

/** `/admin/` (100 §7.2): every signed-in user; what each block offers follows the role. */
export const dashboardPages: AdminPageModule = (deps) => [
  {
    path: '/',
    access: 'signed-in',
    get: async (req) => {
      const data = await loadDashboard(deps.storage.db, { ...req.ctx, user: req.user }, deps.config.timezone, {
        submissionsStatus: deps.config.submissions.mode === 'off' ? null : deps.config.submissions.status,
        mail: deps.config.mail.smtp !== null,
      });
      const lists = can(req.user, 'edit_posts');
      const rights = {
        events: lists,
        venues: lists,
        organizers: lists,
        // Contributors open the term lists read-only; the links follow the list access.
        categories: lists || canManageCategories(req.user),
        tags: lists || canManageTags(req.user),
        publish: can(req.user, 'publish_posts'),
      };
      const view = adminView(req);
      return { body: AdminFrame({ view, title: req.t('admin_lists_dashboard'), current: 'dashboard', children: h(DashboardContent, { view, data, rights, role: req.user.role }) }) };
    },
  },
];
