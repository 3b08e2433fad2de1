import { can, type Principal } from './auth/capabilities.ts';

/** The six post statuses this service accepts (40 §6.1; WordPress-internal ones are refused). */
export const STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const;
export type Status = (typeof STATUSES)[number];

/** What editor-capable callers see in lists when they ask for no status (40 §7). */
export const DEFAULT_EDITOR_LIST_STATUSES: readonly Status[] = ['publish', 'future', 'draft', 'pending', 'private'];

export function isStatus(value: unknown): value is Status {
  return typeof value === 'string' && (STATUSES as readonly string[]).includes(value);
}

/**
 * The `status` list filter for a role (40 §7): visitors and subscribers may only ask for exactly
 * `publish`; editor-capable callers give a comma list or array of known statuses, or `any`.
 * Returns null when the value must be refused with `rest_invalid_param`.
 */
export function parseStatusFilter(value: unknown, principal: Principal | null): Status[] | null {
  if (!can(principal, 'edit_posts')) return value === 'publish' ? ['publish'] : null;
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : null;
  if (items === null) return null;
  const trimmed = items.map((item) => (typeof item === 'string' ? item.trim() : item));
  if (trimmed.length === 1 && trimmed[0] === '') return [...DEFAULT_EDITOR_LIST_STATUSES];
  const statuses: Status[] = [];
  for (const item of trimmed) {
    if (item === 'any') statuses.push(...DEFAULT_EDITOR_LIST_STATUSES);
    else if (isStatus(item)) statuses.push(item);
    else return null;
  }
  return [...new Set(statuses)];
}

/** Statuses a list shows when `status` is absent. */
export function defaultListStatuses(principal: Principal | null): Status[] {
  return can(principal, 'edit_posts') ? [...DEFAULT_EDITOR_LIST_STATUSES] : ['publish'];
}

/**
 * The reference's "scale back" of a requested status by the publish right (40 §9): contributors
 * asking for `publish`/`future` get `pending`. `requested` undefined means "not sent".
 */
export function scaleRequestedStatus(requested: Status | undefined, principal: Principal, isCreate: boolean): Status | undefined {
  const publisher = can(principal, 'publish_posts');
  if (requested === undefined) return isCreate ? (publisher ? 'publish' : 'draft') : undefined;
  if (!publisher && (requested === 'publish' || requested === 'future')) return 'pending';
  return requested;
}

/**
 * Date adjustments after scaling (40 §9): `publish` dated at least a minute ahead becomes
 * `future`; `future` not in the future becomes `publish`. Dates are UTC `YYYY-MM-DD HH:MM:SS`.
 */
export function adjustStatusForDate(status: Status, publicationUtc: string, nowUtc: string): Status {
  if (status === 'publish' && publicationUtc > addMinute(nowUtc)) return 'future';
  if (status === 'future' && publicationUtc <= nowUtc) return 'publish';
  return status;
}

function addMinute(utc: string): string {
  const date = new Date(`${utc.replace(' ', 'T')}Z`);
  date.setUTCMinutes(date.getUTCMinutes() + 1);
  return date.toISOString().slice(0, 19).replace('T', ' ');
}
