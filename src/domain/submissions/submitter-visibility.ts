import { can } from '../auth/capabilities.ts';
import type { User } from '../users/user.ts';

/**
 * 120 §7: who reads a submission's submitter data (name, e-mail, member, flags) — callers with
 * `edit_others_tribe_events` (editors, administrators), and only when they ask with `context=edit`.
 */
export function showsSubmission(user: User | null, context: unknown): boolean {
  return context === 'edit' && can(user, 'edit_others_posts');
}
