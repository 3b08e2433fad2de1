import type { AppDeps } from '../../routes/index.ts';
import type { AdminPage } from '../router.ts';
import { importPages } from './imports.ts';
import { organizerEditorPages } from './organizer-editor.ts';
import { profilePages } from './profile.ts';
import { termEditorPages } from './term-editor.ts';
import { usersPages } from './users.ts';
import { venueEditorPages } from './venue-editor.ts';
import { webhookPages } from './webhooks.ts';

/** w-admin-records' pages (100 §9, §10): the other editors, users, profile, webhooks, imports. */
export function recordsPages(deps: AppDeps): AdminPage[] {
  return [
    ...venueEditorPages(deps),
    ...organizerEditorPages(deps),
    ...termEditorPages(deps),
    ...usersPages(deps),
    ...profilePages(deps),
    ...webhookPages(deps),
    ...importPages(deps),
  ];
}
