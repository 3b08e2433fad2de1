import { h } from 'preact';
import { loadTermListPage, mayManageTerms, parseRecordListQuery } from '../../../services/back-office/record-lists.ts';
import { AdminFrame } from '../../../web/admin/frame.tsx';
import { bulkOutcomeOf } from '../../../web/admin/list-table.tsx';
import { recordListHref, TermListContent } from '../../../web/admin/record-lists.tsx';
import { adminView } from '../admin-view.ts';
import { runBulk, withQuery } from '../bulk.ts';
import { adminErrorPage } from '../errors.ts';
import type { AdminPage, AdminPageModule } from '../router.ts';
import type { AppDeps } from '../../routes/index.ts';

function termList(deps: AppDeps, kind: 'categories' | 'tags'): AdminPage {
  const taxonomy = kind === 'categories' ? 'tribe_events_cat' : 'post_tag';
  return {
    path: `/${kind}/`,
    // Contributors and up see the list; changing needs the term right (read-only below it, 100 §2).
    access: 'edit_posts',
    get: async (req) => {
      const page = await loadTermListPage(deps.storage.db, taxonomy, req.user, parseRecordListQuery(req.query), req.ctx.now);
      if (page.beyondLast) return adminErrorPage(req, 404, 'admin_not_found');
      const view = adminView(req);
      return {
        body: AdminFrame({ view, title: req.t(`admin_lists_${kind}`), current: kind, children: h(TermListContent, { view, kind, page, outcome: bulkOutcomeOf(req.query), mayManage: mayManageTerms(req.user, taxonomy) }) }),
      };
    },
    // The API's gate refuses each id for a user without the term right: reported per id.
    post: (req) => runBulk(req, kind, (extra) => withQuery(recordListHref(req, kind, parseRecordListQuery(req.query)), extra)),
  };
}

/** `/admin/categories/` and `/admin/tags/`: lists and their bulk delete. */
export const termListPages: AdminPageModule = (deps) => [termList(deps, 'categories'), termList(deps, 'tags')];
