import type { AppDeps } from '../../routes/index.ts';
import { organizerFields, venueFields } from '../../../web/admin/record-fields.ts';
import { recordEditorPages } from '../record-editor.ts';
import type { AdminPage } from '../router.ts';

/** Venues and organizers are edited alike (100 §9): only their names and fields differ. */
function linkedPostEditor(kind: 'venue' | 'organizer', fields: typeof venueFields): AdminPage[] {
  return recordEditorPages({
    listPath: `/${kind}s/`,
    collectionRoute: `/${kind}s`,
    itemRoute: `/${kind}s/(?P<id>\\d+)`,
    access: 'edit_posts',
    titles: { create: `rec_new_${kind}`, edit: `rec_edit_${kind}` },
    removal: 'trash',
    fields: async (req) => fields(req.t, req.user.role),
    linked: { param: kind, heading: `rec_${kind}_events` },
  });
}

/** `/admin/venues/new`, `/admin/venues/{id}/`, `/admin/organizers/new`, `/admin/organizers/{id}/`; the lists are linked-lists.ts'. */
export function linkedPostEditorPages(_deps: AppDeps): AdminPage[] {
  return [...linkedPostEditor('venue', venueFields), ...linkedPostEditor('organizer', organizerFields)];
}
