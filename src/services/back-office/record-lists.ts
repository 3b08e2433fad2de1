import type { Kysely } from 'kysely';
import { canManageCategories, canManageTags, type Principal } from '../../domain/auth/capabilities.ts';
import { canDeleteRecord, canEditRecord } from '../../domain/auth/record-permissions.ts';
import { ownership, type LinkedPostType } from '../../domain/linked-posts/linked-post-type.ts';
import { defaultListStatuses } from '../../domain/status.ts';
import { venueSearchPieces } from '../../domain/text/search.ts';
import { loginsOf } from '../../storage/repositories/back-office-repository.ts';
import type { LinkedRecord } from '../../storage/repositories/linked-posts-repository.ts';
import type { CountedTerm } from '../../storage/repositories/terms-repository.ts';
import type { Database, Taxonomy } from '../../storage/schema.ts';
import { listLinkedPosts } from '../linked-posts-service.ts';
import { listTerms } from '../terms-service.ts';
import { ADMIN_PER_PAGE, one, positiveInt } from './event-list.ts';

type Query = Record<string, string | string[] | undefined>;

/** The query of a venue, organizer, category or tag list: search, page, and (venues, organizers) the Trash tab. */
export interface RecordListQuery {
  search?: string;
  paged: number;
  trash: boolean;
}

export function parseRecordListQuery(query: Query): RecordListQuery {
  return { search: one(query, 's'), paged: positiveInt(one(query, 'paged')) ?? 1, trash: one(query, 'status') === 'trash' };
}

export interface RecordListPage<T> {
  query: RecordListQuery;
  rows: { record: T; author?: string; changeable: boolean }[];
  total: number;
  totalPages: number;
  beyondLast: boolean;
}

function paging<T>(query: RecordListQuery, total: number, rows: RecordListPage<T>['rows']): RecordListPage<T> {
  const totalPages = Math.ceil(total / ADMIN_PER_PAGE);
  return { query, rows, total, totalPages, beyondLast: query.paged > Math.max(totalPages, 1) };
}

/**
 * A page of venues or organizers through the API's list query (`GET {ns}/venues` for this user:
 * every status they may list, or the Trash), newest first, with their authors: three statements.
 */
export async function loadLinkedListPage(db: Kysely<Database>, type: LinkedPostType, user: Principal, query: RecordListQuery, now: Date): Promise<RecordListPage<LinkedRecord>> {
  const filter = {
    statuses: query.trash ? ['trash' as const] : defaultListStatuses(user),
    ...(query.search === undefined ? {} : { searchPieces: venueSearchPieces(query.search) }),
  };
  const { records, total } = await listLinkedPosts(db, type, filter, query.paged, ADMIN_PER_PAGE, now);
  const logins = await loginsOf(db, records.map((record) => record.author));
  return paging(query, total, records.map((record) => ({
    record,
    author: logins.get(record.author) ?? '',
    changeable: canEditRecord(user, ownership(record)) || canDeleteRecord(user, ownership(record)),
  })));
}

/** Whether the user holds the right to change terms of a taxonomy (40 §2). */
export function mayManageTerms(user: Principal, taxonomy: Taxonomy): boolean {
  return taxonomy === 'tribe_events_cat' ? canManageCategories(user) : canManageTags(user);
}

/** A page of categories or tags through the API's term list query, by name: three statements. */
export async function loadTermListPage(db: Kysely<Database>, taxonomy: Taxonomy, user: Principal, query: RecordListQuery, now: Date): Promise<RecordListPage<CountedTerm>> {
  const { total, views } = await listTerms(db, taxonomy, { page: query.paged, perPage: ADMIN_PER_PAGE, search: query.search, hideEmpty: false, orderby: 'name' }, now);
  const changeable = mayManageTerms(user, taxonomy);
  return paging(query, total, views.map((view) => ({ record: view.term, changeable })));
}
