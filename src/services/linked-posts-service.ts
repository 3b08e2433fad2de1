import { aliasId, IMAGE_ALIAS_DESCRIPTION, IMAGE_ALIASES, imageFromAliases } from '../domain/media/image-aliases.ts';
import DataLoader from 'dataloader';
import type { Kysely } from 'kysely';
import { can, type Principal } from '../domain/auth/capabilities.ts';
import { canEditRecord, canReadRecord } from '../domain/auth/record-permissions.ts';
import { parseInstant } from '../domain/dates/date-input.ts';
import { formatWall } from '../domain/dates/datetime-format.ts';
import { utcToWall } from '../domain/dates/time-zone.ts';
import { InvalidParamsError, RestError, invalidParam, type ParamFailure, type Reason } from '../domain/errors.ts';
import { checkCoordinateField, COORDINATE_FIELD_NAMES, coordinateReason, readCoordinateChange } from '../domain/geo/geo-input.ts';
import { linkedField, oneOf, REASONS } from '../domain/reasons.ts';
import {
  ORGANIZER, VENUE, isWebsiteInput, ownership,
  type LinkedFlag, type LinkedPostType, type LinkedTextField,
} from '../domain/linked-posts/linked-post-type.ts';
import { resolvePublication } from '../domain/posts/publication.ts';
import { restoredSlug, trashed } from '../domain/posts/trash.ts';
import { isStatus, scaleRequestedStatus, STATUSES, type Status } from '../domain/status.ts';
import { filterRichHtml, stripAllTags } from '../domain/text/html-filter.ts';
import { slugify } from '../domain/text/slug.ts';
import { deriveStateProvince } from '../domain/text/stateprovince.ts';
import { isTruthy } from '../domain/text/truthy.ts';
import type { User } from '../domain/users/user.ts';
import type { RenderContext } from '../render/context.ts';
import { existingVenueAndOrganizerIds, LinkedPostsRepository, type LinkedListFilter, type LinkedRecord } from '../storage/repositories/linked-posts-repository.ts';
import { MediaRepository } from '../storage/repositories/media-repository.ts';
import { ObjectsRepository } from '../storage/repositories/objects-repository.ts';
import { findFreeSlug } from '../storage/repositories/slugs.ts';
import { UsersRepository } from '../storage/repositories/users-repository.ts';
import type { Database, MediaRow } from '../storage/schema.ts';
import { lockUntilCommit } from '../storage/locks.ts';
import { imagesOf } from '../read/linked-post-models.ts';

/** WordPress's post_name column length. */
const SLUG_MAX_LENGTH = 200;

/** What a write needs to know besides its input. */
export interface WriteEnv {
  principal: User;
  /** The request's instant. */
  now: Date;
  /** The site time zone S. */
  siteZone: string;
}

// ---------------------------------------------------------------------------------------------
// Field rules (20 §6.1), shared by the HTTP arguments and venues/organizers given inline in events.

/** true, false (the generic reason) or the precise reason (`data.details`). */
type FieldCheck = (value: unknown, db: Kysely<Database>, principal: Principal | null, now: Date) => boolean | ParamFailure | Promise<boolean | ParamFailure>;

export interface LinkedFieldRule {
  /** The type the reference declares, for the documentation. */
  docType: 'string' | 'integer' | 'number';
  description: string;
  check: FieldCheck;
  /** Why `check` refuses a value (`data.details`). */
  reason: Reason;
  extension?: boolean;
}

const DIGITS = /^\s*\d+\s*$/;

/** A positive integer id as a JSON number or a digit string, else undefined. */
export function idOf(value: unknown): number | undefined {
  const id = typeof value === 'number' ? value : typeof value === 'string' && DIGITS.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

const isString = (value: unknown): boolean => typeof value === 'string';

function isDateInput(value: unknown, _db: Kysely<Database>, _principal: Principal | null, now: Date): boolean {
  return typeof value === 'string' && parseInstant(value, 'UTC', now) !== null;
}

async function isAuthor(value: unknown, db: Kysely<Database>): Promise<boolean> {
  const id = idOf(value);
  return id !== undefined && (await new UsersRepository(db).findById(id)) !== undefined;
}

/** Empty; an existing image id; or an http(s) URL from a caller who may upload (40 §9). */
async function isImageInput(value: unknown, db: Kysely<Database>, principal: Principal | null): Promise<boolean> {
  if (value === '') return true;
  const id = idOf(value);
  if (id !== undefined) return new MediaRepository(db).exists(id);
  return typeof value === 'string' && isHttpUrl(value) && can(principal, 'upload_files');
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const TEXT_DESCRIPTIONS: Record<LinkedTextField, string> = {
  address: 'Street address.',
  city: 'City.',
  country: 'Country, as free text.',
  province: 'Province.',
  state: 'State.',
  zip: 'Postal code.',
  phone: 'Phone number.',
  website: 'Website address: an absolute URL.',
  stateprovince: 'State or province; derived from state, province and country when not given.',
  email: 'E-mail address.',
};

const FLAG_DESCRIPTIONS: Record<LinkedFlag, string> = {
  show_map: 'Whether a map is shown (default true).',
  show_map_link: 'Whether a link to a map is shown (default true).',
};

/** Every writable field of a type, in the reference's declaration order (name first). */
export function linkedFieldRules(type: LinkedPostType): Record<string, LinkedFieldRule> {
  const rules: Record<string, LinkedFieldRule> = {
    [type.nameKey]: {
      docType: 'string',
      description: `The ${type.kind} name.`,
      check: (value) => typeof value === 'string' && value.trim() !== '',
      reason: REASONS.notEmpty,
    },
    author: { docType: 'integer', description: `The ID of the ${type.kind} author; defaults to the caller.`, check: isAuthor, reason: REASONS.unknownUser },
    date: { docType: 'string', description: 'The publication date, in the site time zone.', check: isDateInput, reason: REASONS.date },
    date_utc: { docType: 'string', description: 'The publication date in UTC.', check: isDateInput, reason: REASONS.date },
    description: { docType: 'string', description: `The ${type.kind} description (HTML).`, check: isString, reason: REASONS.string },
    status: { docType: 'string', description: `The ${type.kind} status: publish, future, draft, pending, private or trash.`, check: isStatus, reason: oneOf(STATUSES) },
  };
  for (const flag of type.flags) {
    rules[flag] = {
      docType: 'string',
      description: FLAG_DESCRIPTIONS[flag],
      check: (value) => typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number',
      reason: REASONS.scalar,
    };
  }
  for (const field of type.textFields) {
    rules[field] =
      field === 'website'
        ? { docType: 'string', description: TEXT_DESCRIPTIONS[field], check: isWebsiteInput, reason: REASONS.website }
        : { docType: 'string', description: TEXT_DESCRIPTIONS[field], check: isString, reason: REASONS.string };
  }
  if (type.coordinates) {
    const descriptions: Record<string, string> = {
      geo_lat: 'Latitude in degrees, -90 to 90; empty clears. Sent with geo_lng.',
      latitude: 'Alias of geo_lat.',
      geo_lng: 'Longitude in degrees, -180 to 180; empty clears. Sent with geo_lat.',
      longitude: 'Alias of geo_lng.',
    };
    for (const [name, description] of Object.entries(descriptions)) {
      rules[name] = { docType: 'number', description, check: (value) => checkCoordinateField(name, value), reason: coordinateReason(name), extension: true };
    }
  }
  rules.image = {
    docType: 'string',
    description: 'The featured image: the ID of an existing image, or an image URL (callers who may upload files).',
    check: isImageInput,
    reason: REASONS.image,
  };
  for (const name of IMAGE_ALIASES) {
    rules[name] = {
      docType: 'integer',
      description: IMAGE_ALIAS_DESCRIPTION,
      check: async (value, db) => {
        const id = aliasId(value);
        return id === 0 || (id !== undefined && new MediaRepository(db).exists(id));
      },
      reason: REASONS.image,
      extension: true,
    };
  }
  rules.password = {
    docType: 'string',
    description: `Protects the ${type.kind} with this password; empty removes it.`,
    check: isString,
    reason: REASONS.string,
    extension: true,
  };
  return rules;
}

// ---------------------------------------------------------------------------------------------
// Input

/** The fields one request sends, sanitised for storage. Absent = not sent. */
export interface LinkedPostInput {
  name?: string;
  /** '' clears. */
  description?: string;
  author?: number;
  /** Publication date as a site-zone wall clock / as UTC. */
  dateLocal?: string;
  dateUtc?: string;
  status?: Status;
  text: Partial<Record<LinkedTextField, string>>;
  flags: Partial<Record<LinkedFlag, boolean>>;
  /** Raw image value; '' or null removes the image. */
  image?: unknown;
  /** '' removes the password. */
  password?: string;
  /** The coordinate fields sent (venues), checked against the stored pair when applied. */
  coordinates?: Readonly<Record<string, unknown>>;
  /** The slug to start from instead of the name's (imports keep the source's slugs, 90 §2.2). */
  slug?: string;
}

/** Names and descriptions keep their HTML only for callers with unfiltered_html (40 §9). */
function richText(value: string, principal: Principal): string {
  return can(principal, 'unfiltered_html') ? value : filterRichHtml(value);
}

/**
 * Reads the validated fields of a request body (or of an inline object). `null` is "not sent",
 * except for the fields where it clears the value (00-conventions: description, text fields,
 * image).
 */
export function readLinkedPostInput(type: LinkedPostType, source: Readonly<Record<string, unknown>>, env: WriteEnv): LinkedPostInput {
  const input: LinkedPostInput = { text: {}, flags: {} };
  const value = (key: string): unknown => source[key];
  const name = value(type.nameKey);
  if (typeof name === 'string') input.name = richText(name, env.principal).trim();
  const description = value('description');
  if (typeof description === 'string') input.description = richText(description, env.principal);
  else if (description === null) input.description = '';
  const author = idOf(value('author'));
  if (author !== undefined) input.author = author;
  const date = value('date');
  if (typeof date === 'string') {
    const utc = parseInstant(date, env.siteZone, env.now);
    if (utc !== null) input.dateLocal = utcToWall(utc, env.siteZone);
  }
  const dateUtc = value('date_utc');
  if (typeof dateUtc === 'string') input.dateUtc = parseInstant(dateUtc, 'UTC', env.now) ?? undefined;
  const status = value('status');
  if (isStatus(status)) input.status = status;
  for (const field of type.textFields) {
    const text = value(field);
    if (typeof text === 'string') input.text[field] = stripAllTags(text);
    else if (text === null) input.text[field] = '';
  }
  for (const flag of type.flags) {
    const flagValue = value(flag);
    if (flagValue !== undefined && flagValue !== null) input.flags[flag] = isTruthy(flagValue);
  }
  const image = value('image') !== undefined ? value('image') : imageFromAliases(value);
  if (image !== undefined) input.image = image;
  const password = value('password');
  if (typeof password === 'string') input.password = password;
  if (type.coordinates) {
    const sent = Object.keys(COORDINATE_FIELD_NAMES).filter((name) => value(name) !== undefined && value(name) !== null);
    if (sent.length > 0) input.coordinates = Object.fromEntries(sent.map((name) => [name, value(name)]));
  }
  return input;
}

function hasFields(input: LinkedPostInput): boolean {
  const { text, flags, ...rest } = input;
  return Object.keys(text).length > 0 || Object.keys(flags).length > 0 || Object.values(rest).some((value) => value !== undefined);
}

// ---------------------------------------------------------------------------------------------
// Writes

function utcNow(env: WriteEnv): string {
  return formatWall(env.now);
}

export function repository(db: Kysely<Database>, type: LinkedPostType, now: Date): LinkedPostsRepository {
  return new LinkedPostsRepository(db, type, formatWall(now));
}

async function resolveImage(db: Kysely<Database>, value: unknown, env: WriteEnv): Promise<number | null> {
  if (value === null || value === '') return null;
  const id = idOf(value);
  if (id !== undefined) return id;
  return new MediaRepository(db).registerUrl(String(value).trim(), utcNow(env));
}

function floats(status: Status): boolean {
  return status === 'draft' || status === 'pending';
}

/**
 * The duplicate of a create among the records the caller may read (20 §6.5): same name and, when
 * a description is sent, same description; the oldest wins.
 */
async function findDuplicate(repo: LinkedPostsRepository, input: LinkedPostInput, principal: User): Promise<LinkedRecord | undefined> {
  const description = input.description === '' ? undefined : input.description;
  const candidates = await repo.findDuplicateCandidates(input.name ?? '', description);
  return candidates.find((candidate) => canReadRecord(principal, ownership(candidate)));
}

/**
 * Create (20 §6.2). A duplicate (§6.5) is returned instead of a new record; the sent fields are
 * applied to it only when the caller may edit it. An import asks for `distinct` records: a copy
 * must never merge into (and later update) a record it did not create (90 §2.3, 50 C.6).
 */
export async function createLinkedPost(
  db: Kysely<Database>,
  type: LinkedPostType,
  input: LinkedPostInput,
  env: WriteEnv,
  options: { distinct?: boolean } = {},
): Promise<LinkedRecord> {
  const repo = repository(db, type, env.now);
  await lockUntilCommit(db, `duplicate:${type.kind}:${(input.name ?? '').toLowerCase()}`);
  const match = options.distinct ? undefined : await findDuplicate(repo, input, env.principal);
  if (match) {
    // Name and description are what matched; rewriting their letter case is no update anyone asked for.
    const { name: _name, description: _description, ...rest } = input;
    if (!hasFields(rest) || !canEditRecord(env.principal, ownership(match))) return match;
    return updateLinkedPost(db, type, match, rest, env);
  }

  const requested = scaleRequestedStatus(input.status, env.principal, true)!;
  const publication = resolvePublication({
    status: requested === 'trash' ? 'draft' : requested,
    dateLocal: input.dateLocal,
    dateUtc: input.dateUtc,
    siteZone: env.siteZone,
    now: env.now,
  });
  const id = await new ObjectsRepository(db).allocate(type.kind);
  const base = slugify(input.slug || input.name || '', SLUG_MAX_LENGTH) || String(id);
  const nowUtc = utcNow(env);
  const record: LinkedRecord = {
    id,
    author: input.author ?? env.principal.id,
    status: publication.status,
    pre_trash_status: null,
    slug: base,
    pre_trash_slug: null,
    password: input.password ?? '',
    name: input.name ?? '',
    description: input.description ?? '',
    excerpt: '',
    date_local: publication.date_local,
    date_utc: publication.date_utc,
    modified_local: utcToWall(nowUtc, env.siteZone),
    modified_utc: nowUtc,
    image_id: input.image === undefined ? null : await resolveImage(db, input.image, env),
  };
  for (const field of type.textFields) record[field] = input.text[field] ?? '';
  if (type.textFields.includes('stateprovince')) record.stateprovince = deriveStateProvince(input.text);
  for (const flag of type.flags) record[flag] = input.flags[flag] === false ? 0 : 1;
  if (type.coordinates) Object.assign(record, { geo_lat: null, geo_lng: null }, coordinateChanges(input, { geo_lat: null, geo_lng: null }));
  if (requested === 'trash') Object.assign(record, trashed({ status: publication.status, slug: base }));
  else if (!floats(publication.status)) record.slug = await findFreeSlug(db, type.collection, base, id, SLUG_MAX_LENGTH);
  await repo.insert(record);
  return (await repo.findById(id))!;
}

/** The coordinate columns a write sets (70-geo §2.1); the pair must end up complete or empty. */
function coordinateChanges(input: LinkedPostInput, stored: Pick<LinkedRecord, 'geo_lat' | 'geo_lng'>): Pick<LinkedRecord, 'geo_lat' | 'geo_lng'> {
  if (input.coordinates === undefined) return {};
  const change = readCoordinateChange(input.coordinates, { lat: stored.geo_lat ?? null, lng: stored.geo_lng ?? null });
  const columns: Pick<LinkedRecord, 'geo_lat' | 'geo_lng'> = {};
  if (change.lat !== undefined) columns.geo_lat = change.lat;
  if (change.lng !== undefined) columns.geo_lng = change.lng;
  return columns;
}

/** The region fields whose presence recomputes `stateprovince` from this request (20 §6.3). */
const REGION_FIELDS: readonly LinkedTextField[] = ['stateprovince', 'state', 'province', 'country'];

/**
 * Partial update (20 §6.4): only the sent fields change. Status and dates follow 40 §9; leaving
 * the trash gives the slug back, becoming public makes it unique (20 §4.2).
 */
export async function updateLinkedPost(
  db: Kysely<Database>,
  type: LinkedPostType,
  current: LinkedRecord,
  input: LinkedPostInput,
  env: WriteEnv,
): Promise<LinkedRecord> {
  const repo = repository(db, type, env.now);
  const nowUtc = utcNow(env);
  const changes: Partial<LinkedRecord> = { modified_local: utcToWall(nowUtc, env.siteZone), modified_utc: nowUtc };
  if (input.name !== undefined) changes.name = input.name;
  if (input.description !== undefined) changes.description = input.description;
  if (input.author !== undefined) changes.author = input.author;
  if (input.password !== undefined) changes.password = input.password;
  for (const field of type.textFields) {
    if (input.text[field] !== undefined) changes[field] = input.text[field];
  }
  if (type.textFields.includes('stateprovince') && REGION_FIELDS.some((field) => input.text[field] !== undefined)) {
    changes.stateprovince = deriveStateProvince(input.text);
  }
  for (const flag of type.flags) {
    if (input.flags[flag] !== undefined) changes[flag] = input.flags[flag] ? 1 : 0;
  }
  if (input.image !== undefined) changes.image_id = await resolveImage(db, input.image, env);
  Object.assign(changes, coordinateChanges(input, current));

  const requested = input.status === undefined ? undefined : scaleRequestedStatus(input.status, env.principal, false);
  if (requested !== undefined || input.dateLocal !== undefined || input.dateUtc !== undefined) {
    const target = requested ?? current.status;
    // A trashed record keeps the dating rules of what it was before the trash.
    const beforeTrash = current.status === 'trash' ? (current.pre_trash_status ?? 'draft') : current.status;
    const publication = resolvePublication({
      status: target === 'trash' ? beforeTrash : target,
      dateLocal: input.dateLocal,
      dateUtc: input.dateUtc,
      previous: { date_local: current.date_local, date_utc: current.date_utc },
      siteZone: env.siteZone,
      now: env.now,
    });
    changes.date_local = publication.date_local;
    changes.date_utc = publication.date_utc;
    const final = target === 'trash' ? 'trash' : publication.status;
    if (final === 'trash') {
      if (current.status !== 'trash') Object.assign(changes, trashed(current));
    } else {
      changes.status = final;
      const leavingTrash = current.status === 'trash';
      let slug = leavingTrash ? restoredSlug(current) : current.slug;
      if (!floats(final) && (leavingTrash || floats(current.status))) {
        slug = await findFreeSlug(db, type.collection, slug, current.id, SLUG_MAX_LENGTH);
      }
      changes.slug = slug;
      if (leavingTrash) Object.assign(changes, { pre_trash_status: null, pre_trash_slug: null });
    }
  }
  await repo.update(current.id, changes);
  return (await repo.findById(current.id))!;
}

/** DELETE without force (20 §8.2): to the trash, links to events kept. */
export async function trashLinkedPost(db: Kysely<Database>, type: LinkedPostType, current: LinkedRecord, env: WriteEnv): Promise<LinkedRecord> {
  const repo = repository(db, type, env.now);
  const nowUtc = utcNow(env);
  await repo.update(current.id, { ...trashed(current), modified_local: utcToWall(nowUtc, env.siteZone), modified_utc: nowUtc });
  return (await repo.findById(current.id))!;
}

/** DELETE with force=true (20 §8.2 extension): gone, with exactly its own links. */
export async function deleteLinkedPost(db: Kysely<Database>, type: LinkedPostType, current: LinkedRecord, now: Date): Promise<void> {
  await repository(db, type, now).deletePermanently(current.id);
}

// ---------------------------------------------------------------------------------------------
// Reads

export function findLinkedPostById(db: Kysely<Database>, type: LinkedPostType, id: number, now: Date): Promise<LinkedRecord | undefined> {
  return repository(db, type, now).findById(id);
}

export function findLinkedPostBySlug(db: Kysely<Database>, type: LinkedPostType, slug: string, now: Date): Promise<LinkedRecord | undefined> {
  return repository(db, type, now).findBySlug(slug);
}

export function eventExists(db: Kysely<Database>, id: number, now: Date): Promise<boolean> {
  return repository(db, VENUE, now).eventExists(id);
}

/** One list page with the images of its records: a fixed number of queries (two). */
export async function listLinkedPosts(
  db: Kysely<Database>,
  type: LinkedPostType,
  filter: LinkedListFilter,
  page: number,
  perPage: number,
  now: Date,
): Promise<{ records: LinkedRecord[]; total: number; images: Map<number, MediaRow>; distances?: Map<number, number> }> {
  const { records, total, distances } = await repository(db, type, now).list(filter, (page - 1) * perPage, perPage);
  const images = await imagesOf(db, records);
  return { records, total, images, distances };
}


// ---------------------------------------------------------------------------------------------
// Venues and organizers given inline with an event (10-events §6.3)

type LinkedForm =
  | { kind: 'none' }
  | { kind: 'id'; id: number }
  | { kind: 'data'; fields: Record<string, unknown> }
  /** Passes validation, then cannot be created (the reference's could-not-create-*). */
  | { kind: 'uncreatable' }
  | { kind: 'invalid'; reason: Reason };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** One venue, or one item of an organizer list: an id, `{id}`, or the fields of a new record. */
function itemForm(type: LinkedPostType, value: unknown): LinkedForm {
  const invalid: LinkedForm = { kind: 'invalid', reason: type === VENUE ? REASONS.venueInput : REASONS.organizerInput };
  if (isPlainObject(value)) {
    const id = value.id;
    if (id === undefined || id === null || id === '') return { kind: 'data', fields: value };
    const known = idOf(id);
    return known === undefined ? invalid : { kind: 'id', id: known };
  }
  const id = idOf(value);
  return id === undefined ? invalid : { kind: 'id', id };
}

function isNothing(value: unknown): boolean {
  return value === undefined || value === null || value === '' || value === 0 || value === '0' || (Array.isArray(value) && value.length === 0);
}

/**
 * ⚠ Extension: published clients send a venue as a list of one (`[12]`, `[{"venue":"Hall"}]`),
 * which means that venue; the reference answers could-not-create-venue. A list or comma string
 * of several is refused: an event has one venue.
 */
function venueForm(value: unknown): LinkedForm {
  if (isNothing(value) || (isPlainObject(value) && Object.keys(value).length === 0)) return { kind: 'none' };
  const items = Array.isArray(value) ? value : typeof value === 'string' && value.includes(',') ? value.split(',').filter((part) => part.trim() !== '') : [value];
  if (items.length > 1) return { kind: 'invalid', reason: REASONS.oneVenue };
  return itemForm(VENUE, items[0]);
}

/**
 * ⚠ Extension: one organizer object (`{"organizer":"Name"}`) means a list of one; the reference
 * answers could-not-create-organizer and loses it. A comma string still cannot be created.
 */
function organizerForms(value: unknown): LinkedForm[] {
  if (isNothing(value)) return [];
  if (typeof value === 'string' && value.includes(',')) return [{ kind: 'uncreatable' }];
  if (Array.isArray(value)) return value.map((item) => itemForm(ORGANIZER, item));
  return [itemForm(ORGANIZER, value)];
}

/** Whether an inline form is acceptable (known ids of the type, fields valid as on POST, 20 §6.1), or why not. */
async function formVerdict(db: Kysely<Database>, type: LinkedPostType, form: LinkedForm, principal: Principal | null, now: Date, exists: IdCheck): Promise<true | Reason> {
  switch (form.kind) {
    case 'none':
    case 'uncreatable':
      return true;
    case 'invalid':
      return form.reason;
    case 'id': {
      return (await exists(form.id)) || (type === VENUE ? REASONS.unknownVenue : REASONS.unknownOrganizer);
    }
    case 'data': {
      const name = form.fields[type.nameKey];
      if (name === undefined || name === null) return linkedField(type.kind, type.nameKey);
      for (const [field, rule] of Object.entries(linkedFieldRules(type))) {
        const value = form.fields[field];
        if (value === undefined || value === null) continue;
        const verdict = await rule.check(value, db, principal, now);
        if (verdict === false) return linkedField(type.kind, field);
        if (verdict !== true) return verdict.reason;
      }
      return true;
    }
  }
}

/** The validators never depend on "now" except through far-fetched overflow; any instant will do. */
const VALIDATION_INSTANT = new Date(0);

/** Whether a record of the type has this id. */
type IdCheck = (id: number) => Promise<boolean> | boolean;

const validationChecks = new WeakMap<Kysely<Database>, Map<string, DataLoader<number, boolean>>>();

/**
 * The step-5 existence checks of requests validated in the same turn of the event loop, in one
 * query per type: creates arriving together (16 clients) each checked their venue and their
 * organizer with a query of their own. Only outside a transaction (a transaction sees its own
 * writes); nothing is remembered from one turn to the next.
 */
function validationCheck(db: Kysely<Database>, type: LinkedPostType): IdCheck {
  let byType = validationChecks.get(db);
  if (byType === undefined) validationChecks.set(db, (byType = new Map()));
  let loader = byType.get(type.kind);
  if (loader === undefined) {
    loader = new DataLoader<number, boolean>(
      async (ids) => {
        const found = await repository(db, type, VALIDATION_INSTANT).existingIds(ids);
        return ids.map((id) => found.has(id));
      },
      { cache: false, batchScheduleFn: (run) => setImmediate(run) },
    );
    byType.set(type.kind, loader);
  }
  return (id) => loader.load(id);
}

/** Inside a transaction: the ids a group already looked up, or one query. */
function transactionCheck(trx: Kysely<Database>, type: LinkedPostType, now: Date, known: ReadonlySet<number> | undefined): IdCheck {
  return known === undefined ? async (id) => (await repository(trx, type, now).existingIds([id])).has(id) : (id) => known.has(id);
}

/** Step-5 validator of an event's `venue` (10-events §6.3). */
export function validateEventVenueInput(db: Kysely<Database>, input: unknown, principal: Principal | null, now: Date = VALIDATION_INSTANT): Promise<true | Reason> {
  return formVerdict(db, VENUE, venueForm(input), principal, now, validationCheck(db, VENUE));
}

/** Step-5 validator of an event's `organizer` (10-events §6.3): the first refused item's reason. */
export async function validateEventOrganizerInput(db: Kysely<Database>, input: unknown, principal: Principal | null, now: Date = VALIDATION_INSTANT): Promise<true | Reason> {
  const check = validationCheck(db, ORGANIZER);
  const verdicts = await Promise.all(organizerForms(input).map((form) => formVerdict(db, ORGANIZER, form, principal, now, check)));
  return verdicts.find((verdict) => verdict !== true) ?? true;
}

/** The id a valid inline form stands for, creating (or matching, 20 §6.5) a record from its fields. */
async function resolveValidForm(trx: Kysely<Database>, type: LinkedPostType, form: LinkedForm, env: WriteEnv): Promise<number | null> {
  switch (form.kind) {
    case 'none':
      return null;
    case 'uncreatable':
      throw new RestError(400, `could-not-create-${type.kind}`);
    case 'id':
      return form.id;
    case 'data':
      try {
        return (await createLinkedPost(trx, type, readLinkedPostInput(type, form.fields, env), env)).id;
      } catch (error) {
        // A reason about a field of the inline record is a reason about the event's parameter.
        if (error instanceof InvalidParamsError) throw new InvalidParamsError({ [type.kind]: Object.values(error.failures)[0] });
        throw error;
      }
    case 'invalid':
      throw invalidParam(type.kind, form.reason);
  }
}

/** Of the venue and organizer ids some events' inputs name, those that exist. */
export interface KnownLinkedIds {
  venues: ReadonlySet<number>;
  organizers: ReadonlySet<number>;
}

/** `KnownLinkedIds` for a group of creates: one query for both types instead of one per id. */
export async function knownLinkedIds(db: Kysely<Database>, inputs: ReadonlyArray<{ venue?: unknown; organizer?: unknown }>): Promise<KnownLinkedIds> {
  const named = (forms: LinkedForm[]) => forms.flatMap((form) => (form.kind === 'id' ? [form.id] : []));
  const venueIds = named(inputs.flatMap(({ venue }) => (venue === undefined ? [] : [venueForm(venue)])));
  const organizerIds = named(inputs.flatMap(({ organizer }) => (organizer === undefined ? [] : organizerForms(organizer))));
  return existingVenueAndOrganizerIds(db, { venues: venueIds, organizers: organizerIds });
}

/**
 * The venue id an event's `venue` input stands for (10-events §6.3), null for none. Inline data
 * creates a venue (or reuses its duplicate) in `trx`; bad input throws `rest_invalid_param`
 * (`venue`), a list or comma string `could-not-create-venue`.
 */
export async function resolveEventVenue(trx: Kysely<Database>, input: unknown, principal: User, ctx: RenderContext, siteZone: string, known?: KnownLinkedIds): Promise<number | null> {
  const form = venueForm(input);
  const verdict = await formVerdict(trx, VENUE, form, principal, ctx.now, transactionCheck(trx, VENUE, ctx.now, known?.venues));
  if (verdict !== true) throw invalidParam('venue', verdict);
  return resolveValidForm(trx, VENUE, form, { principal, now: ctx.now, siteZone });
}

/**
 * The organizer ids an event's `organizer` input stands for (10-events §6.3), in order, without
 * duplicates. Bad input throws `rest_invalid_param` (`organizer`), a bare object or comma
 * string `could-not-create-organizer`.
 */
export async function resolveEventOrganizers(trx: Kysely<Database>, input: unknown, principal: User, ctx: RenderContext, siteZone: string, known?: KnownLinkedIds): Promise<number[]> {
  const env: WriteEnv = { principal, now: ctx.now, siteZone };
  const forms = organizerForms(input);
  // Every item is checked before anything is created.
  for (const form of forms) {
    const verdict = await formVerdict(trx, ORGANIZER, form, principal, ctx.now, transactionCheck(trx, ORGANIZER, ctx.now, known?.organizers));
    if (verdict !== true) throw invalidParam('organizer', verdict);
  }
  const ids: number[] = [];
  for (const form of forms) {
    const id = await resolveValidForm(trx, ORGANIZER, form, env);
    if (id !== null && !ids.includes(id)) ids.push(id);
  }
  return ids;
}
