import type { AppDeps } from '../../routes/index.ts';
import { venueFields } from '../../../web/admin/record-fields.ts';
import { recordEditorPages } from '../record-editor.ts';
import type { AdminPage } from '../router.ts';

/** `/admin/venues/new` and `/admin/venues/{id}/` (100 §9); the list is w-admin-lists'. */
export function venueEditorPages(_deps: AppDeps): AdminPage[] {
  return recordEditorPages({
    listPath: '/venues/',
    collectionRoute: '/venues',
    itemRoute: '/venues/(?P<id>\\d+)',
    access: 'edit_posts',
    titles: { create: 'rec_new_venue', edit: 'rec_edit_venue' },
    removal: 'trash',
    fields: async (req) => venueFields(req.t, req.user.role),
    linked: { param: 'venue', heading: 'rec_venue_events' },
  });
}
