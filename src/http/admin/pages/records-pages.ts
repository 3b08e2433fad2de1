import type { AppDeps } from '../../routes/index.ts';
import type { AdminPage } from '../router.ts';
import { importPages } from './imports.ts';
import { linkedPostEditorPages } from './linked-post-editors.ts';
import { profilePages } from './profile.ts';
import { termEditorPages } from './term-editor.ts';
import { usersPages } from './users.ts';
import { webhookPages } from './webhooks.ts';

/** w-admin-records' pages (100 §9, §10): the other editors, users, profile, webhooks, imports. */
export function recordsPages(deps: AppDeps): AdminPage[] {
  return [
    ...linkedPostEditorPages(deps),
    ...termEditorPages(deps),
    ...usersPages(deps),
    ...profilePages(deps),
    ...webhookPages(deps),
    ...importPages(deps),
  ];
}
