import type { Status } from '../status.ts';

const TRASHED_SUFFIX = '__trashed';

/** The columns trashing and restoring change. */
export interface TrashState {
  status: Status;
  slug: string;
  pre_trash_status: Status | null;
  pre_trash_slug: string | null;
}

/**
 * Moving to the trash appends `__trashed` to the slug and remembers the old slug and status,
 * so that a restore gives them back (10-events §8, 20 §4.2).
 */
export function trashed(current: { status: Status; slug: string }): TrashState {
  return {
    status: 'trash',
    slug: current.slug === '' ? '' : `${current.slug}${TRASHED_SUFFIX}`,
    pre_trash_status: current.status,
    pre_trash_slug: current.slug,
  };
}

/** The slug to give back when a trashed record leaves the trash (uniquified by the caller). */
export function restoredSlug(current: { slug: string; pre_trash_slug: string | null }): string {
  if (current.pre_trash_slug !== null) return current.pre_trash_slug;
  return current.slug.endsWith(TRASHED_SUFFIX) ? current.slug.slice(0, -TRASHED_SUFFIX.length) : current.slug;
}
