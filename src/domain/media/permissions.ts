import { can, type Principal } from '../auth/capabilities.ts';

/**
 * R's attachment rights (110-media §1.1): uploaders edit and delete their own items; editors and
 * administrators anyone's.
 */
export function mayEditMedia(principal: Principal | null, author: number): boolean {
  return can(principal, 'upload_files') && (can(principal, 'edit_others_posts') || principal!.id === author);
}
