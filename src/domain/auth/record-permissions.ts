import type { Status } from '../status.ts';
import { can, type Principal } from './capabilities.ts';

/** What the object-level rules of 40 §5 need to know about an event, venue or organizer. */
export interface OwnedRecord {
  author: number;
  status: Status;
  /** The status before trashing, for trashed records (decides whether the trash was published). */
  preTrashStatus: Status | null;
}

function isOwn(principal: Principal, record: OwnedRecord): boolean {
  return record.author !== 0 && record.author === principal.id;
}

/** The status whose rules apply: a trashed record is judged by what it was before the trash. */
function effectiveStatus(record: OwnedRecord): Status {
  return record.status === 'trash' ? (record.preTrashStatus ?? 'draft') : record.status;
}

function mayChange(principal: Principal | null, record: OwnedRecord, verb: 'edit' | 'delete'): boolean {
  if (principal === null || !can(principal, `${verb}_posts`)) return false;
  const status = effectiveStatus(record);
  const published = status === 'publish' || status === 'future';
  if (isOwn(principal, record)) {
    return published ? can(principal, `${verb}_published_posts`) : true;
  }
  if (!can(principal, `${verb}_others_posts`)) return false;
  if (published && !can(principal, `${verb}_published_posts`)) return false;
  if (status === 'private' && !can(principal, `${verb}_private_posts`)) return false;
  return true;
}

/** WordPress `edit_post` (40 §5.1). */
export function canEditRecord(principal: Principal | null, record: OwnedRecord): boolean {
  return mayChange(principal, record, 'edit');
}

/** WordPress `delete_post` (40 §5.2). */
export function canDeleteRecord(principal: Principal | null, record: OwnedRecord): boolean {
  return mayChange(principal, record, 'delete');
}

/**
 * Whether the terms of a record may be listed (WordPress's check_read_terms_permission_for_post):
 * a readable record, and for a password-protected one the right to edit it.
 */
export function canReadTermsOf(principal: Principal | null, record: OwnedRecord & { password: string }): boolean {
  return record.password === '' ? canReadRecord(principal, record) : canEditRecord(principal, record);
}

/**
 * WordPress `read_post` (40 §5.3): published records are public; own records are readable by
 * any signed-in user; others' private ones need `read_private`, others' drafts, pending,
 * scheduled and trashed ones need the edit-others right.
 */
export function canReadRecord(principal: Principal | null, record: OwnedRecord): boolean {
  if (record.status === 'publish') return true;
  if (principal === null) return false;
  if (isOwn(principal, record)) return can(principal, 'read');
  if (record.status === 'private') return can(principal, 'read_private_posts');
  return can(principal, 'edit_others_posts');
}
