import type { Kysely } from 'kysely';
import { can, type Principal } from '../../domain/auth/capabilities.ts';
import { formatWall } from '../../domain/dates/datetime-format.ts';
import { defaultListStatuses } from '../../domain/status.ts';
import type { RenderContext } from '../../render/context.ts';
import { listLatestChanges, type ChangeEntry } from '../../storage/repositories/changes-repository.ts';
import { eventStatusCounts, nextEvents, pendingRecords, recordTotals, type PendingRecord, type StatusCount } from '../../storage/repositories/back-office-repository.ts';
import type { Database, EventRow } from '../../storage/schema.ts';
import { changeObjects, objectKey } from '../change-objects.ts';
import { nowBound } from './event-list.ts';
import { loadSubmissionsSummary, type SubmissionsSummary } from './submission-review.ts';

export const NEXT_EVENTS = 5;
export const RECENT_CHANGES = 10;
export const REVIEW_ITEMS = 10;

/** A change-feed entry as the dashboard lists it: the record's name when the user may see it now. */
export interface RecentChange {
  entry: ChangeEntry;
  name?: string;
}

export interface Dashboard {
  counts: StatusCount[];
  totals: { venues: number; organizers: number; categories: number; tags: number };
  next: EventRow[];
  review: PendingRecord[];
  changes: RecentChange[];
  /** Moderators while submissions are on (120 §8.1). */
  submissions: SubmissionsSummary | null;
  /** Administrators while mail is on: messages that failed (120 §10.3). */
  failedMail: number | null;
}

/** The name an object of `changeObjects` carries, by kind. */
function nameOf(object: Record<string, unknown> | undefined, kind: ChangeEntry['kind']): string | undefined {
  if (object === undefined) return undefined;
  const value = kind === 'event' ? object.title : kind === 'venue' ? object.venue : kind === 'organizer' ? object.organizer : object.name;
  return typeof value === 'string' ? value : undefined;
}

/**
 * The dashboard of 100 §7.2 for this user: the list's status counts, record totals, the next
 * events (the list's statuses and start order, a series once), what awaits review, and the change feed's latest entries as this
 * user may see them (80 §3.4) with their objects — a fixed number of statements.
 */
export async function loadDashboard(
  db: Kysely<Database>,
  ctx: RenderContext & { user: Principal },
  siteZone: string,
  settings: { submissionsStatus: 'pending' | 'draft' | null; mail: boolean } = { submissionsStatus: null, mail: false },
): Promise<Dashboard> {
  const now = ctx.now;
  const nowUtc = formatWall(now);
  const user = ctx.user;
  const editor = can(user, 'edit_posts');
  const [counts, totals, next, review, entries, moderation] = await Promise.all([
    eventStatusCounts(db, nowUtc, nowBound(now, siteZone), siteZone === 'UTC'),
    recordTotals(db),
    nextEvents(db, defaultListStatuses(user), nowUtc, nowBound(now, siteZone), siteZone === 'UTC', NEXT_EVENTS),
    editor ? pendingRecords(db, can(user, 'edit_others_posts') ? null : user.id, REVIEW_ITEMS) : Promise.resolve([]),
    listLatestChanges(db, RECENT_CHANGES, { seesUnpublished: editor, nowUtc }),
    loadSubmissionsSummary(db, user, now, settings),
  ]);
  const objects = await changeObjects(db, entries, ctx);
  return {
    counts: counts.filter((count) => (editor ? count.status !== 'trash' || can(user, 'delete_posts') : count.status === 'publish')),
    totals,
    next,
    review,
    changes: entries.map((entry) => ({ entry, name: nameOf(objects.get(objectKey(entry.kind, entry.record_id)), entry.kind) })),
    ...moderation,
  };
}
