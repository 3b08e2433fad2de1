import type { AppDeps } from '../../routes/index.ts';
import { termFields } from '../../../web/admin/record-fields.ts';
import type { AdminRequest } from '../admin-request.ts';
import { callApi } from '../call-api.ts';
import { recordEditorPages } from '../record-editor.ts';
import type { AdminPage } from '../router.ts';

/** The categories a category may hang below (every one but itself), through the API's list. */
async function parentChoices(req: AdminRequest): Promise<{ id: number; name: string }[]> {
  const outcome = await callApi(req, { method: 'GET', route: '/categories', params: { per_page: 100, hide_empty: false } });
  if (!outcome.ok) return [];
  const own = Number(req.params.id ?? 0);
  return (outcome.body.categories as { id: number; name: string }[]).filter((term) => term.id !== own).map(({ id, name }) => ({ id, name }));
}

/** `/admin/categories/new`, `/admin/categories/{id}/`, `/admin/tags/new`, `/admin/tags/{id}/` (100 §9). */
export function termEditorPages(_deps: AppDeps): AdminPage[] {
  return [
    ...recordEditorPages({
      listPath: '/categories/',
      collectionRoute: '/categories',
      itemRoute: '/categories/(?P<id>\\d+)',
      // 40 §2's derived category right: edit_posts and publish_posts (publish_posts implies the other).
      access: 'publish_posts',
      titles: { create: 'rec_new_category', edit: 'rec_edit_category' },
      removal: 'delete',
      fields: async (req) => termFields(req.t, await parentChoices(req)),
      // An empty slug keeps the stored one (a term needs one); an empty description clears it.
      omitWhenEmpty: ['slug'],
    }),
    ...recordEditorPages({
      listPath: '/tags/',
      collectionRoute: '/tags',
      itemRoute: '/tags/(?P<id>\\d+)',
      access: 'manage_categories',
      titles: { create: 'rec_new_tag', edit: 'rec_edit_tag' },
      removal: 'delete',
      fields: async (req) => termFields(req.t, null),
      // An empty slug keeps the stored one (a term needs one); an empty description clears it.
      omitWhenEmpty: ['slug'],
    }),
  ];
}
