import type { Status } from '../../domain/status.ts';
import { rowsForBulk } from '../../storage/repositories/back-office-repository.ts';
import type { AdminAnswer, AdminRequest } from './admin-request.ts';
import { callApi } from './call-api.ts';
import { adminErrorPage } from './errors.ts';

export const BULK_ACTIONS = ['publish', 'trash', 'restore', 'delete'] as const;
/** The decisions of 120 §8.2 on submitted events. */
export const MODERATION_ACTIONS = ['approve', 'reject', 'spam'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number] | (typeof MODERATION_ACTIONS)[number];

/** The lists that take bulk actions, and which actions each takes (100 §7.3). */
export type BulkList = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';

const ALLOWED: Record<BulkList, readonly BulkAction[]> = {
  events: [...BULK_ACTIONS, ...MODERATION_ACTIONS],
  // Publish serves the dashboard's review block; the lists offer trash, restore and delete.
  venues: BULK_ACTIONS,
  organizers: BULK_ACTIONS,
  categories: ['delete'],
  tags: ['delete'],
};

/** What a bulk action does to one record: an API call, or a refusal decided from its row. */
export type BulkStep =
  | { call: { method: 'POST' | 'DELETE'; route: string; params: Record<string, unknown>; namespace: 'events' | 'admin' } }
  | { refused: string };

interface BulkRow {
  status: Status;
  pre_trash_status: Status | null;
}

/**
 * The API operation of one id (100 §7.3): publish = update `status=publish` (the API scales a
 * contributor's to pending, 40 §9); trash = DELETE; restore = update to the status before
 * trashing (⚠ 100 §16 #1; the API scales it for the caller); delete = DELETE `force=true`, only
 * for records already in the Trash. Terms have no trash: delete is permanent (`force=true`).
 * Approve, reject and spam (events only) = the admin API's moderation route, with the mail to the
 * submitter (120 §8.2; a bulk rejection carries no reason).
 * `row` is undefined for an id that names no record: the API then answers its not-found code.
 */
export function bulkStep(list: BulkList, action: BulkAction, id: number, row: BulkRow | undefined): BulkStep {
  const route = `/${list}/(?P<id>\\d+)`;
  const call = (method: 'POST' | 'DELETE', params: Record<string, unknown>, namespace: 'events' | 'admin' = 'events', path = route): BulkStep => ({ call: { method, route: path, params: { id, ...params }, namespace } });
  if (list === 'categories' || list === 'tags') return call('DELETE', { force: true });
  switch (action) {
    case 'publish':
      return call('POST', { status: 'publish' });
    case 'trash':
      return call('DELETE', {});
    case 'restore':
      if (row !== undefined && row.status !== 'trash') return { refused: 'admin_not_in_trash' };
      return call('POST', { status: row?.pre_trash_status ?? 'draft' });
    case 'delete':
      if (row !== undefined && row.status !== 'trash') return { refused: 'admin_not_in_trash' };
      return call('DELETE', { force: true });
    case 'approve':
    case 'reject':
    case 'spam':
      return call('POST', { decision: action, notify: true }, 'admin', '/events/(?P<id>\\d+)/moderation');
  }
}

/** The list's address `href` with the bulk outcome's parameters appended (the 303 target). */
export function withQuery(href: string, extra: Record<string, string | number | undefined>): string {
  const added = new URLSearchParams();
  for (const [name, value] of Object.entries(extra)) if (value !== undefined) added.set(name, String(value));
  return `${href}${href.includes('?') ? '&' : '?'}${added.toString()}`;
}

/** The selected ids of a bulk form: `ids[]` (or `ids`), positive integers, each once, in order. */
export function selectedIds(values: readonly string[]): number[] {
  const ids = values.flatMap((value) => (/^\d{1,12}$/.test(value.trim()) && Number(value) > 0 ? [Number(value)] : []));
  return [...new Set(ids)];
}

/**
 * A bulk POST of a list: each id is one API operation with that id's rights, in its own
 * transaction (the endpoint's), then a 303 back to `back` with the counts, each refused id with
 * its code, and after a trash the ids to undo. Unknown `bulk_action` → 422; nothing selected → 303.
 */
export async function runBulk(req: AdminRequest, list: BulkList, back: (extra: Record<string, string | number | undefined>) => string): Promise<AdminAnswer> {
  const action = req.form.get('bulk_action') ?? '';
  const ids = selectedIds([...req.form.all('ids[]'), ...req.form.all('ids')]);
  if (!(ALLOWED[list] as readonly string[]).includes(action)) {
    return adminErrorPage(req, 422, 'rest_invalid_param', req.t('admin_lists_bulk_invalid_action'));
  }
  if (ids.length === 0) return { redirect: back({ message: 'nothing_selected' }), status: 303 };
  const rows = list === 'events' || list === 'venues' || list === 'organizers' ? await rowsForBulk(req.deps.storage.db, list, ids) : new Map();
  let done = 0;
  const refused: string[] = [];
  const undo: number[] = [];
  for (const id of ids) {
    const step = bulkStep(list, action as BulkAction, id, rows.get(id));
    if ('refused' in step) {
      refused.push(`${id}:${step.refused}`);
      continue;
    }
    const outcome = await callApi(req, step.call);
    if (outcome.ok) {
      done += 1;
      if (action === 'trash') undo.push(id);
    } else {
      refused.push(`${id}:${outcome.code}`);
    }
  }
  return {
    redirect: back({ message: 'bulk', done, refused: refused.length > 0 ? refused.join(',') : undefined, undo: undo.length > 0 ? undo.join(',') : undefined }),
    status: 303,
  };
}
