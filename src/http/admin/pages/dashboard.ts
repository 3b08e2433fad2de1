import { h } from 'preact';
import { AdminFrame } from '../../../web/admin/frame.tsx';
import { adminView } from '../admin-view.ts';
import type { AdminPageModule } from '../router.ts';

/**
 * `/admin/` — a minimal placeholder so that sign-in lands somewhere; the dashboard of 100 §7.2
 * (w-admin-lists) replaces this file.
 */
export const dashboardPages: AdminPageModule = () => [
  {
    path: '/',
    access: 'signed-in',
    get: async (req) => {
      const view = adminView(req);
      return { body: AdminFrame({ view, title: req.t('admin_dashboard_title'), current: 'dashboard', children: h('p', null, req.t('admin_dashboard_welcome', { login: req.user.login })) }) };
    },
  },
];
