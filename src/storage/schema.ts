import type { ColumnType, Generated, Selectable } from 'kysely';
import type { EventSchedule } from '../domain/events/schedule.ts';

/**
 * The tables as Kysely sees them. Dates are stored as `YYYY-MM-DD HH:MM:SS` text (wall clock or
 * UTC as the column says), which sorts correctly as text on both dialects; flags are 0/1
 * integers so that the same query text runs on SQLite and PostgreSQL.
 */
export interface Database {
  settings: { key: string; value: string };
  users: {
    id: Generated<number>; login: string; email: string; role: string; created_utc: string; access_epoch: Defaulted;
    /** 100 §3.1: the back office sign-in password (`scrypt$…`); null = cannot sign in. */
    signin_hash: ColumnType<string | null, string | null | undefined, string | null>;
    signin_changed_utc: ColumnType<string | null, string | null | undefined, string | null>;
    last_signin_utc: ColumnType<string | null, string | null | undefined, string | null>;
  };
  /** Back office sessions (100 §4): the token's SHA-256, never the token. */
  sessions: SessionTable;
  /** One-time sign-in links (100 §3.4). */
  signin_links: SigninLinkTable;
  app_passwords: { id: Generated<number>; user_id: number; hash: string; created_utc: string; last_used_utc: string | null; name: Generated<string> };
  /** The shared id sequence of events, venues, organizers and media items (00-conventions). */
  objects: { id: Generated<number>; kind: ObjectKind };
  events: EventTable;
  venues: VenueRow;
  organizers: OrganizerRow;
  media: MediaTable;
  /** Every path ever issued to an upload (110-media §4.6); `media_id` null once the item is deleted. */
  media_paths: { path: string; slug: string; media_id: number | null; mime_type: string; byte_length: number; sha256: string };
  /** Stored files when CALENDAR_UPLOADS=database (§5.1). */
  media_files: { path: string; media_id: number; mime_type: string; bytes: Buffer; byte_length: number; sha256: string; created_utc: string };
  event_organizers: { event_id: number; organizer_id: number; position: number };
  /** `start_local` copies the event's (0018), filled by the database when an insert leaves it out. */
  event_terms: { event_id: number; term_id: number; position: number; start_local: ColumnType<string, string | null | undefined, string> };
  /** Categories and tags share this table and therefore the term id sequence. */
  terms: TermRow;
  /** Non-master events per clock, status, start day, end day and listing visibility (0011), kept by triggers. */
  event_day_counts: { clock: 'utc' | 'local'; status: string; start_day: string; end_day: string; hidden: number; n: number };
  ical_imports: IcalImportRow;
  /** The id map of site imports (90 §2.3). */
  import_records: ImportRecordRow;
  /** The keys of CSV imports (140 §7.5). */
  csv_imports: { kind: 'events' | 'venues' | 'organizers'; key: string; record_id: number; content_hash: string };
  /** The change log (80 §3), written by triggers in each writing transaction. */
  changes: ChangeTable;
  /** One row: the feed's epoch, pruned position and publication-job mark (80 §3.5, §3.8). */
  feed_meta: { id: number; epoch: string; oldest_txid: string; oldest_seq: number | string; published_through: string };
  webhooks: WebhookTable;
  webhook_messages: WebhookMessageTable;
  webhook_attempts: WebhookAttemptTable;
  /** SQLite only, one row: the number of the running write transaction, which groups its entries. */
  feed_tx: { id: number; next: number; tx: number | null };
  /** Visitor submissions (120 §7): the private submitter record of a submitted event. */
  submissions: SubmissionRow;
  /** Stored and dropped submissions per client key (120 §5 step 3); `token_id` consumes a form token. */
  submission_attempts: { id: Generated<number>; token_id: string | null; key_hash: string; outcome: string; created_utc: string };
  /** 120 §8.3: address and e-mail hashes marked as spam, for 30 days. */
  submission_spam_marks: { kind: 'address' | 'email'; hash: string; expires_utc: string };
  /** The mail outbox (120 §10.3). */
  mail_messages: MailMessageTable;
}

export interface SubmissionRow {
  event_id: number;
  edition: string;
  submitter_name: string | null;
  submitter_email: string | null;
  member_id: number | null;
  address_hash: string | null;
  email_hash: string | null;
  flags: string;
  created_utc: string;
  decision: 'approved' | 'rejected' | 'withdrawn' | null;
  decided_by: number | null;
  decided_utc: string | null;
  reason: string | null;
  created_venue_id: number | null;
  created_organizer_id: number | null;
}

export type MailStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'cancelled';

export interface MailMessageTable {
  id: Generated<number>;
  kind: string;
  event_id: number | null;
  lang: string;
  message_id: string;
  recipient: string;
  subject: string;
  body: string | null;
  status: MailStatus;
  attempts: Defaulted;
  next_attempt_utc: string;
  lease_owner: string | null;
  lease_until: string | null;
  smtp_response: string | null;
  last_error: string | null;
  created_utc: string;
  finished_utc: string | null;
}
export type MailMessageRow = Selectable<MailMessageTable>;
export interface SessionTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_utc: string;
  last_seen_utc: string;
  expires_utc: string;
  remember: number;
  user_agent: string;
  ip: string;
}

export interface SigninLinkTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  purpose: 'invite' | 'reset';
  created_utc: string;
  expires_utc: string;
  used_utc: string | null;
}

/** A column the database fills when an insert leaves it out (revisions start at 0). */
type Defaulted = ColumnType<number, number | undefined, number>;

export type ChangeKind = 'event' | 'venue' | 'organizer' | 'category' | 'tag';
export type ChangeOp = 'create' | 'update' | 'trash' | 'restore' | 'delete';

/** One entry of the change log (80 §3.4): what happened, and the state needed for each caller's effect. */
export interface ChangeRow {
  /** bigint: a string on PostgreSQL. */
  seq: number | string;
  /** PostgreSQL: the writing transaction's xid8 (as text); absent on SQLite. */
  txid?: string;
  /** SQLite: the write transaction's number; absent on PostgreSQL. */
  tx?: number | null;
  kind: ChangeKind;
  record_id: number;
  op: ChangeOp;
  /** UTC `YYYY-MM-DD HH:MM:SS` of the write. */
  at: string;
  post_parent: number;
  is_master: number;
  before_status: string | null;
  after_status: string | null;
  before_author: number | null;
  after_author: number | null;
  before_password: number | null;
  after_password: number | null;
  before_hidden: number | null;
  after_hidden: number | null;
  before_date_utc: string | null;
  after_date_utc: string | null;
}

type ChangeTable = Omit<ChangeRow, 'seq' | 'txid' | 'tx' | 'post_parent' | 'is_master'> & {
  seq: Generated<number | string>;
  txid: Generated<string>;
  tx: number | null | undefined;
  post_parent: Defaulted;
  is_master: Defaulted;
};


/** A webhook subscription (80 §4.1); `types` is a JSON array of `kind.op` patterns. */
export interface WebhookTable {
  id: Generated<number>;
  url: string;
  description: string;
  types: string;
  visibility: string;
  active: number;
  disabled_reason: string | null;
  /** Signing secret (`whsec_…`), encrypted when CALENDAR_SECRET_KEY is set. */
  secret: string;
  previous_secret: string | null;
  previous_secret_until: string | null;
  change_position: string | null;
  /** 1: upsert entries carry their objects (80 §4.2). */
  include_objects: Generated<number>;
  created_at: string;
  last_success_at: string | null;
  last_failure_at: string | null;
  consecutive_failures: Generated<number>;
}
export type WebhookRow = Selectable<WebhookTable>;

export type WebhookMessageStatus = 'pending' | 'delivering' | 'succeeded' | 'failed' | 'cancelled';

/** One message of the outbox (80 §4.4). */
export interface WebhookMessageTable {
  id: Generated<number>;
  subscription_id: number;
  webhook_id: string;
  type: string;
  record_key: string | null;
  payload: string | null;
  /** 1 until the first attempt rendered the objects of its entries into `payload` (migration 0024). */
  objects_pending: Generated<number>;
  status: WebhookMessageStatus;
  attempts: number;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}
export type WebhookMessageRow = Selectable<WebhookMessageTable>;

export interface WebhookAttemptTable {
  id: Generated<number>;
  message_id: number;
  attempt: number;
  started_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  excerpt: string | null;
  instance: string;
}
export type WebhookAttemptRow = Selectable<WebhookAttemptTable>;

/** Which event an imported iCalendar component became (50 C.6); instance_key '' = a plain event. */
export interface IcalImportRow {
  uid: string;
  instance_key: string;
  event_id: number;
  content_hash: string;
  sequence: number;
  /** LAST-MODIFIED of the component as written, '' when absent. */
  last_modified: string;
  imported_at: string;
}

export type ImportKind = 'category' | 'tag' | 'venue' | 'organizer' | 'event';
/** What `import_records` maps: the records, and the images `--copy-images` copied (110-media §7.3). */
export type ImportMapKind = ImportKind | 'media';

export interface ImportRecordRow {
  /** The normalised namespace root URL of the source. */
  source: string;
  kind: ImportMapKind;
  source_id: number;
  local_id: number;
  /** The source's `modified_utc`, or for terms (which carry none) a fingerprint of the copied fields. */
  source_modified_utc: string;
}

export type ObjectKind = 'event' | 'venue' | 'organizer' | 'media';
export type Taxonomy = 'tribe_events_cat' | 'post_tag';

/** Columns every post-like record (event, venue, organizer) has. */
export interface PostColumns {
  id: number;
  author: number;
  status: string;
  /** Status before trashing; decides restore and the rights on trashed records. */
  pre_trash_status: string | null;
  slug: string;
  /** Slug before trashing, given back on restore. */
  pre_trash_slug: string | null;
  /** '' = not protected. */
  password: string;
  description: string;
  excerpt: string;
  /** Publication date in the site zone, and in UTC ('0000-00-00 00:00:00' while a draft floats). */
  date_local: string;
  date_utc: string;
  modified_local: string;
  modified_utc: string;
  image_id: number | null;
  /** 80 §1.1: 0 on create, raised by the database on every write of the row or its links. */
  revision?: number;
}

export interface EventRow extends PostColumns, EventSchedule {
  title: string;
  all_day: number;
  /** JSON array of the stored cost values. */
  cost: string;
  currency_symbol: string;
  currency_position: string;
  /** null = never stored (then the event url is shown), '' = stored empty. */
  website: string | null;
  /** null = never stored (reads back true). */
  show_map: number | null;
  show_map_link: number | null;
  hide_from_listings: number;
  sticky: number;
  featured: number;
  venue_id: number | null;
  /** 0, or the series master of an occurrence (60 §2). */
  post_parent: number;
  /** 1 on a series master, which lists never show (60 §2). */
  is_series_master: number;
  /** Occurrence: `YYYY-MM-DD#n`, unique per master, keeps its id across re-expansion (60 §6.3). */
  recurrence_key: string | null;
  /** Occurrence: its original local start per the rule (RECURRENCE-ID). */
  recurrence_id: string | null;
  /** Master: the rule with UTC UNTIL ('' when only rdate), JSON arrays of wall clocks in T. */
  recurrence_rrule: string | null;
  recurrence_rdate: string | null;
  recurrence_exdate: string | null;
  /** Master: the last date occurrences were materialised through (60 §4.1). */
  recurrence_horizon: string | null;
  /** Master: 1 when the rule ends before the horizon (nothing left to extend). */
  recurrence_complete: number;
  /** Master: 1 when the cap stopped the series from growing. */
  recurrence_truncated: number;
  /** Occurrence: JSON array of the fields set on it alone (60 §6.1), null when none. */
  overridden: string | null;
}

/** The recurrence flags default to 0 on insert, so plain events need not name them. */
type DefaultedFlag = ColumnType<number, number | undefined, number>;
export type EventTable = Omit<EventRow, 'is_series_master' | 'recurrence_complete' | 'recurrence_truncated'> & {
  is_series_master: DefaultedFlag;
  recurrence_complete: DefaultedFlag;
  recurrence_truncated: DefaultedFlag;
};

export interface VenueRow extends PostColumns {
  name: string;
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  zip: string;
  phone: string;
  website: string;
  stateprovince: string;
  show_map: number;
  show_map_link: number;
  /** Degrees; both set or both null (70-geo §4.1). */
  geo_lat: number | null;
  geo_lng: number | null;
}

export interface OrganizerRow extends PostColumns {
  name: string;
  phone: string;
  website: string;
  email: string;
}

export interface MediaTable {
  id: number;
  /** The registered URL; for an upload, the full file's path (unique as well). */
  url: string;
  extension: string;
  width: number | null;
  height: number | null;
  filesize: number | null;
  created_utc: string;
  source: WithDefault<MediaSource>;
  original_url: WithDefault<string>;
  /** `YYYY/MM/{slug}.{ext}` of an upload's full image; '' for URL items. */
  file: WithDefault<string>;
  mime_type: WithDefault<string>;
  slug: WithDefault<string>;
  title: WithDefault<string>;
  alt_text: WithDefault<string>;
  author: WithDefault<number>;
  /** JSON array of StoredSize, in R's creation order. */
  sizes: WithDefault<string>;
  modified_utc: string | null;
}

/** A column the database fills when an insert leaves it out. */
type WithDefault<T> = ColumnType<T, T | undefined, T>;

export type MediaSource = 'upload' | 'sideload' | 'url';
export type MediaRow = Selectable<MediaTable>;

/** One size of an upload as the media row keeps it. */
export interface StoredSize {
  name: string;
  width: number;
  height: number;
  mime_type: string;
  filesize: number;
  file: string;
}

export interface TermRow {
  id: Generated<number>;
  taxonomy: Taxonomy;
  name: string;
  slug: string;
  description: string;
  parent: number;
  /** 80 §1.1, as on posts. */
  revision: Defaulted;
  /** Published events (series once) carrying the term, kept by triggers (migration 0008). */
  published_count: Generated<number>;
}
