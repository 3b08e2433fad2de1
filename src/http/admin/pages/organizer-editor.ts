import type { AppDeps } from '../../routes/index.ts';
import { organizerFields } from '../../../web/admin/record-fields.ts';
import { recordEditorPages } from '../record-editor.ts';
import type { AdminPage } from '../router.ts';

/** `/admin/organizers/new` and `/admin/organizers/{id}/` (100 §9); the list is w-admin-lists'. */
export function organizerEditorPages(_deps: AppDeps): AdminPage[] {
  return recordEditorPages({
    listPath: '/organizers/',
    collectionRoute: '/organizers',
    itemRoute: '/organizers/(?P<id>\\d+)',
    access: 'edit_posts',
    titles: { create: 'rec_new_organizer', edit: 'rec_edit_organizer' },
    removal: 'trash',
    fields: async (req) => organizerFields(req.t, req.user.role),
    linked: { param: 'organizer', heading: 'rec_organizer_events' },
  });
}
