import { sql, type Kysely } from 'kysely';
import type { Database, SubmissionRow } from '../schema.ts';
import { toInt } from '../sql-helpers.ts';

/** A row of a member's list: the submission's decision and its event's title, status and schedule. */
export interface MemberSubmission {
  event_id: number;
  created_utc: string;
  decision: SubmissionRow['decision'];
  reason: string | null;
  title: string;
  status: string;
  slug: string;
  start_local: string;
  end_local: string;
  all_day: number;
  timezone: string;
  timezone_abbr: string;
}

export type AttemptOutcome = 'stored' | 'bad-token' | 'too-fast' | 'expired' | 'reused' | 'honeypot';

const SHOWN_COLUMNS = ['event_id', 'submitter_name', 'submitter_email', 'member_id', 'edition', 'flags', 'created_utc', 'decision', 'reason'] as const;

/** The columns of a submission an editor may read. */
export type ShownSubmission = Pick<SubmissionRow, (typeof SHOWN_COLUMNS)[number]>;

/** All SQL of submissions (120 §5, §7, §8.3). Times are UTC `YYYY-MM-DD HH:MM:SS`. */
export class SubmissionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Whether a non-trashed event other than `eventId` links the venue or organizer. */
  async linkedElsewhere(kind: 'venue' | 'organizer', linkedId: number, eventId: number): Promise<boolean> {
    const other = kind === 'venue'
      ? await this.db.selectFrom('events').select('id').where('venue_id', '=', linkedId).where('id', '!=', eventId).where('status', '!=', 'trash').executeTakeFirst()
      : await this.db.selectFrom('event_organizers').innerJoin('events', 'events.id', 'event_organizers.event_id').select('events.id').where('organizer_id', '=', linkedId).where('events.id', '!=', eventId).where('events.status', '!=', 'trash').executeTakeFirst();
    return other !== undefined;
  }

  /** The first organizer linked to an event (a submission links at most one). */
  async firstOrganizerOf(eventId: number): Promise<number | undefined> {
    return (await this.db.selectFrom('event_organizers').select('organizer_id').where('event_id', '=', eventId).executeTakeFirst())?.organizer_id;
  }

  /** How many of the ids are event categories. */
  async countCategories(ids: readonly number[]): Promise<number> {
    return (await this.db.selectFrom('terms').select('id').where('taxonomy', '=', 'tribe_events_cat').where('id', 'in', ids).execute()).length;
  }

  /** Stored and dropped attempts of a key since `since`, oldest first (the 429's `Retry-After`). */
  async attemptsSince(keyHash: string, since: string): Promise<{ count: number; oldest: string | null }> {
    const row = await this.db.selectFrom('submission_attempts')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.min('created_utc').as('oldest')])
      .where('key_hash', '=', keyHash).where('created_utc', '>', since)
      .executeTakeFirstOrThrow();
    return { count: toInt(row.n), oldest: (row.oldest as string | null) ?? null };
  }

  /** Records an attempt; false when its token id was already consumed (a reuse). */
  async recordAttempt(attempt: { token_id: string | null; key_hash: string; outcome: AttemptOutcome; created_utc: string }): Promise<boolean> {
    const result = await this.db.insertInto('submission_attempts').values(attempt)
      .onConflict((oc) => oc.column('token_id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  /** Inserts the stored attempt inside the submission's transaction: a duplicate token fails it. */
  async consumeToken(attempt: { token_id: string; key_hash: string; created_utc: string }): Promise<void> {
    await this.db.insertInto('submission_attempts').values({ ...attempt, outcome: 'stored' }).execute();
  }

  async tokenConsumed(tokenId: string): Promise<boolean> {
    return (await this.db.selectFrom('submission_attempts').select('id').where('token_id', '=', tokenId).executeTakeFirst()) !== undefined;
  }

  async insert(row: SubmissionRow): Promise<void> {
    await this.db.insertInto('submissions').values(row).execute();
  }

  find(eventId: number): Promise<SubmissionRow | undefined> {
    return this.db.selectFrom('submissions').selectAll().where('event_id', '=', eventId).executeTakeFirst();
  }

  async findMany(eventIds: readonly number[]): Promise<Map<number, SubmissionRow>> {
    if (eventIds.length === 0) return new Map();
    const rows = await this.db.selectFrom('submissions').selectAll().where('event_id', 'in', eventIds).execute();
    return new Map(rows.map((row) => [row.event_id, row]));
  }

  /**
   * What may be shown of the submissions of these events (120 §7), one statement: never the
   * address and e-mail hashes, which are not even read.
   */
  async shownOf(eventIds: readonly number[]): Promise<ShownSubmission[]> {
    if (eventIds.length === 0) return [];
    return this.db.selectFrom('submissions').select(SHOWN_COLUMNS).where('event_id', 'in', eventIds).execute();
  }

  /**
   * The submissions of a page's events with the member's login (the back office's review columns,
   * 120 §8.1): one statement, keyed by event id.
   */
  async reviewRows(eventIds: readonly number[]): Promise<Map<number, SubmissionRow & { member_login: string | null }>> {
    if (eventIds.length === 0) return new Map();
    const rows = await this.db.selectFrom('submissions').leftJoin('users', 'users.id', 'submissions.member_id')
      .selectAll('submissions').select('users.login as member_login')
      .where('submissions.event_id', 'in', eventIds).execute();
    return new Map(rows.map((row) => [row.event_id, { ...row, member_login: row.member_login ?? null }]));
  }

  /** Undecided submissions whose event has `status`, and how many of them carry a flag (the dashboard). */
  async awaitingReview(status: string): Promise<{ count: number; flagged: number }> {
    const row = await this.db.selectFrom('submissions').innerJoin('events', 'events.id', 'submissions.event_id')
      .select((eb) => [
        eb.fn.countAll().as('n'),
        eb.fn.sum(eb.case().when('submissions.flags', '!=', '').then(1).else(0).end()).as('flagged'),
      ])
      .where('events.status', '=', status).where('submissions.decision', 'is', null)
      .executeTakeFirstOrThrow();
    return { count: toInt(row.n), flagged: toInt(row.flagged ?? 0) };
  }

  /** Silently dropped attempts since `since`, by outcome (the dashboard, 120 §6.3). */
  async droppedSince(since: string): Promise<Map<AttemptOutcome, number>> {
    const rows = await this.db.selectFrom('submission_attempts')
      .select((eb) => ['outcome', eb.fn.countAll().as('n')])
      .where('outcome', '!=', 'stored').where('created_utc', '>', since)
      .groupBy('outcome').execute();
    return new Map(rows.map((row) => [row.outcome as AttemptOutcome, toInt(row.n)]));
  }

  async decide(eventId: number, decision: SubmissionRow['decision'], by: number | null, at: string, reason: string | null): Promise<void> {
    await this.db.updateTable('submissions').set({ decision, decided_by: by, decided_utc: at, reason }).where('event_id', '=', eventId).execute();
  }

  /** Records the venue or organizer a member's edit created (null = none new: the earlier one stays). */
  async noteCreated(eventId: number, created: Pick<SubmissionRow, 'created_venue_id' | 'created_organizer_id'>): Promise<void> {
    const set = Object.fromEntries(Object.entries(created).filter(([, value]) => value !== null));
    if (Object.keys(set).length > 0) await this.db.updateTable('submissions').set(set).where('event_id', '=', eventId).execute();
  }

  /**
   * One page of a member's submissions with what the list shows of each event (120 §9), newest
   * first: two statements whatever the page size (the rows with their events joined, the count).
   */
  async ofMember(memberId: number, limit: number, offset: number): Promise<{ rows: MemberSubmission[]; total: number }> {
    const rows = await this.db.selectFrom('submissions').innerJoin('events', 'events.id', 'submissions.event_id')
      .select(['submissions.event_id', 'submissions.created_utc', 'submissions.decision', 'submissions.reason',
        'events.title', 'events.status', 'events.slug', 'events.start_local', 'events.end_local', 'events.all_day', 'events.timezone', 'events.timezone_abbr'])
      .where('submissions.member_id', '=', memberId)
      .orderBy('submissions.created_utc', 'desc').orderBy('submissions.event_id', 'desc').limit(limit).offset(offset).execute();
    const total = await this.db.selectFrom('submissions').select((eb) => eb.fn.countAll().as('n')).where('member_id', '=', memberId).executeTakeFirstOrThrow();
    return { rows, total: toInt(total.n) };
  }

  /** Whether a hash was marked as spam and the mark has not expired. */
  async marked(kind: 'address' | 'email', hash: string | null, now: string): Promise<boolean> {
    if (hash === null) return false;
    return (await this.db.selectFrom('submission_spam_marks').select('hash').where('kind', '=', kind).where('hash', '=', hash).where('expires_utc', '>', now).executeTakeFirst()) !== undefined;
  }

  async mark(kind: 'address' | 'email', hash: string, expires: string): Promise<void> {
    await this.db.insertInto('submission_spam_marks').values({ kind, hash, expires_utc: expires })
      .onConflict((oc) => oc.columns(['kind', 'hash']).doUpdateSet({ expires_utc: expires }))
      .execute();
  }

  /** The daily job: expired marks, old attempts, and personal data of submissions decided before `decidedBefore`. */
  async prune(now: string, attemptsBefore: string, decidedBefore: string): Promise<void> {
    await this.db.deleteFrom('submission_spam_marks').where('expires_utc', '<=', now).execute();
    await this.db.deleteFrom('submission_attempts').where('created_utc', '<', attemptsBefore).execute();
    await this.db.updateTable('submissions').set({ submitter_name: null, submitter_email: null, address_hash: null, email_hash: null })
      .where('decided_utc', '<', decidedBefore).where((eb) => eb.or([eb('submitter_email', 'is not', null), eb('address_hash', 'is not', null), eb('submitter_name', 'is not', null)]))
      .execute();
  }

  /** Attempts by outcome since `since` (the dashboard's dropped count). */
  async outcomesSince(since: string): Promise<Record<string, number>> {
    const rows = await this.db.selectFrom('submission_attempts').select(['outcome', sql<number>`count(*)`.as('n')]).where('created_utc', '>', since).groupBy('outcome').execute();
    return Object.fromEntries(rows.map((row) => [row.outcome, toInt(row.n)]));
  }
}

/** What the form offers (120 §4): published venues and organizers by name, every category with its parent. */
export async function formChoices(db: Kysely<Database>): Promise<{
  venues: { id: number; name: string }[];
  organizers: { id: number; name: string }[];
  categories: { id: number; name: string; parent: number }[];
}> {
  const [venues, organizers, categories] = await Promise.all([
    db.selectFrom('venues').select(['id', 'name']).where('status', '=', 'publish').where('password', '=', '').orderBy('name').orderBy('id').execute(),
    db.selectFrom('organizers').select(['id', 'name']).where('status', '=', 'publish').where('password', '=', '').orderBy('name').orderBy('id').execute(),
    db.selectFrom('terms').select(['id', 'name', 'parent']).where('taxonomy', '=', 'tribe_events_cat').orderBy('name').orderBy('id').execute(),
  ]);
  return { venues, organizers, categories };
}
