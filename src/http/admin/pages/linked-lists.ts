import { h } from 'preact';
import { can } from '../../../domain/auth/capabilities.ts';
import { ORGANIZER, VENUE } from '../../../domain/linked-posts/linked-post-type.ts';
import { loadLinkedListPage, parseRecordListQuery } from '../../../services/back-office/record-lists.ts';
import { AdminFrame } from '../../../web/admin/frame.tsx';
import { bulkOutcomeOf } from '../../../web/admin/list-table.tsx';
import { LinkedListContent, recordListHref } from '../../../web/admin/record-lists.tsx';
import { adminView } from '../admin-view.ts';
import { runBulk, withQuery } from '../bulk.ts';
import { adminErrorPage } from '../errors.ts';
import type { AdminPage, AdminPageModule } from '../router.ts';
import type { AppDeps } from '../../routes/index.ts';

function linkedList(deps: AppDeps, kind: 'venues' | 'organizers'): AdminPage {
  const type = kind === 'venues' ? VENUE : ORGANIZER;
  return {
    path: `/${kind}/`,
    access: 'edit_posts',
    get: async (req) => {
      const page = await loadLinkedListPage(deps.storage.db, type, req.user, parseRecordListQuery(req.query), req.ctx.now);
      if (page.beyondLast) return adminErrorPage(req, 404, 'admin_not_found');
      const view = adminView(req);
      return {
        body: AdminFrame({ view, title: req.t(`admin_lists_${kind}`), current: kind, children: h(LinkedListContent, { view, kind, page, outcome: bulkOutcomeOf(req.query), mayCreate: can(req.user, 'edit_posts') }) }),
      };
    },
    post: (req) => runBulk(req, kind, (extra) => withQuery(recordListHref(req, kind, parseRecordListQuery(req.query)), extra)),
  };
}

/** `/admin/venues/` and `/admin/organizers/` (100 §7.3, §9's lists): lists and their bulk POST. */
export const linkedListPages: AdminPageModule = (deps) => [linkedList(deps, 'venues'), linkedList(deps, 'organizers')];
