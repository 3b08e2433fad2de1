import { h } from 'preact';
import { loadEventListPage, parseEventListQuery } from '../../../services/back-office/event-list.ts';
import { EventListContent, eventListHref } from '../../../web/admin/event-list.tsx';
import { AdminFrame } from '../../../web/admin/frame.tsx';
import { bulkOutcomeOf } from '../../../web/admin/list-table.tsx';
import { adminView } from '../admin-view.ts';
import { runBulk, withQuery } from '../bulk.ts';
import { adminErrorPage } from '../errors.ts';
import type { AdminPageModule } from '../router.ts';
import { linkedListPages } from './linked-lists.ts';
import { termListPages } from './term-lists.ts';

/** `/admin/events/` (100 §7.3): the list and its bulk POST. */
export const eventListPages: AdminPageModule = (deps) => [
  {
    path: '/events/',
    access: 'edit_posts',
    get: async (req) => {
      const page = await loadEventListPage(deps.storage.db, { ...req.ctx, user: req.user }, parseEventListQuery(req.query), deps.config.timezone);
      if (page.beyondLast) return adminErrorPage(req, 404, 'admin_not_found');
      const view = adminView(req);
      return { body: AdminFrame({ view, title: req.t('admin_lists_events'), current: 'events', children: h(EventListContent, { view, page, outcome: bulkOutcomeOf(req.query) }) }) };
    },
    post: (req) => {
      const query = parseEventListQuery(req.query);
      return runBulk(req, 'events', (extra) => withQuery(eventListHref(req, query), extra));
    },
  },
];

/** Every list of 100 §7.3 (events, venues, organizers, categories, tags): one entry of ADMIN_PAGE_MODULES. */
export const listPages: AdminPageModule = (deps) => [...eventListPages(deps), ...linkedListPages(deps), ...termListPages(deps)];
