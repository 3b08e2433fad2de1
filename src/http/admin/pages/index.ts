import type { AdminPageModule, PublicPage } from '../router.ts';
import { dashboardPages } from './dashboard.ts';
import { eventEditorPages } from './event-editor.ts';
import { listPages } from './event-list.ts';
import { invitePublicPages } from './invite.ts';
import { logoutPages } from './logout.ts';
import { moderationPages } from './moderation.ts';
import { mailPages } from './mail.ts';
import { recordsPages } from './records-pages.ts';
import { signinPublicPages } from './signin.ts';

/**
 * Every back office page module: each area adds ONE import and ONE entry line. The router walks
 * this list; so do the tests of 100 §17 (every POST refuses a missing token, a foreign origin …).
 */
export const ADMIN_PAGE_MODULES: AdminPageModule[] = [
  logoutPages,
  dashboardPages,
  eventEditorPages,
  listPages,
  moderationPages, mailPages,
  recordsPages,
];

/** Pages without a session: sign-in and one-time links (they check their own form token). */
export const PUBLIC_PAGES: PublicPage[] = [...signinPublicPages, ...invitePublicPages];
