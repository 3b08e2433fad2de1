/**
 * The WordPress role model for posts (40-auth-and-status §2). The reference grants the same set
 * separately for events, venues and organizers; the grants are identical, so one table serves all.
 */
export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const;
export type Role = (typeof ROLES)[number];

export type Capability =
  | 'read'
  | 'edit_posts'
  | 'delete_posts'
  | 'publish_posts'
  | 'edit_published_posts'
  | 'delete_published_posts'
  | 'edit_others_posts'
  | 'delete_others_posts'
  | 'read_private_posts'
  | 'edit_private_posts'
  | 'delete_private_posts'
  | 'upload_files'
  | 'manage_categories'
  | 'unfiltered_html'
  | 'list_users'
  | 'create_users'
  | 'delete_users';

const CAPABILITIES: Record<Role, ReadonlySet<Capability>> = {
  administrator: new Set<Capability>([
    'read', 'edit_posts', 'delete_posts', 'publish_posts', 'edit_published_posts', 'delete_published_posts',
    'edit_others_posts', 'delete_others_posts', 'read_private_posts', 'edit_private_posts', 'delete_private_posts',
    'upload_files', 'manage_categories', 'unfiltered_html', 'list_users', 'create_users', 'delete_users',
  ]),
  editor: new Set<Capability>([
    'read', 'edit_posts', 'delete_posts', 'publish_posts', 'edit_published_posts', 'delete_published_posts',
    'edit_others_posts', 'delete_others_posts', 'read_private_posts', 'edit_private_posts', 'delete_private_posts',
    'upload_files', 'manage_categories', 'unfiltered_html',
  ]),
  author: new Set<Capability>([
    'read', 'edit_posts', 'delete_posts', 'publish_posts', 'edit_published_posts', 'delete_published_posts', 'upload_files',
  ]),
  contributor: new Set<Capability>(['read', 'edit_posts', 'delete_posts']),
  subscriber: new Set<Capability>(['read']),
};

/** The caller as the domain sees it; `null` is a visitor, who has no capability at all. */
export interface Principal {
  id: number;
  role: Role;
}

export function can(principal: Principal | null, capability: Capability): boolean {
  return principal !== null && CAPABILITIES[principal.role].has(capability);
}

/** Term rights derived from post capabilities (40 §2, "Derived term rights"). */
export function canManageCategories(principal: Principal | null): boolean {
  return can(principal, 'edit_posts') && can(principal, 'publish_posts');
}

/** Who decides visitor submissions and sees their submitter (120 §7, §8.1): editors and administrators. */
export function canModerate(principal: Principal | null): boolean {
  return can(principal, 'publish_posts') && can(principal, 'edit_others_posts');
}

export function canManageTags(principal: Principal | null): boolean {
  return can(principal, 'edit_posts') && can(principal, 'manage_categories');
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Every capability of a role (WordPress core's `users/me` in edit context lists them). */
export function capabilitiesOf(role: Role): Capability[] {
  return [...CAPABILITIES[role]];
}
