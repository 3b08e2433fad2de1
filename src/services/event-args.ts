import type { Kysely } from 'kysely';
import { can } from '../domain/auth/capabilities.ts';
import { isCalendarDate } from '../domain/dates/wall-clock.ts';
import { computeDateWindow } from '../domain/dates/date-window.ts';
import { parseTimeZone } from '../domain/dates/time-zone.ts';
import { RecurrenceError } from '../domain/recurrence/recurrence-error.ts';
import { isRecurrenceRemoval, MAX_DATES, readRecurrence } from '../domain/recurrence/recurrence-input.ts';
import { isAbsoluteHttpUrl, isValidWebsite } from '../domain/events/event-web.ts';
import { oneOf, pageSize, REASONS } from '../domain/reasons.ts';
import { isStatus, STATUSES } from '../domain/status.ts';
import { normalizeSlugLookup } from '../domain/text/slug.ts';
import type { EventFields, EventsService } from './events-service.ts';
import { validateEventOrganizerInput, validateEventVenueInput } from './linked-posts-service.ts';
import type { EventLookups } from './event-lookups.ts';
import { MediaRepository } from '../storage/repositories/media-repository.ts';
import { UsersRepository } from '../storage/repositories/users-repository.ts';
import type { Database, Taxonomy } from '../storage/schema.ts';
import type { ArgSpec, ArgSpecs, Verdict } from '../args/arg-spec.ts';
import type { Reason } from '../domain/errors.ts';
import { parseList } from '../args/coerce.ts';
import type { RenderContext } from '../render/context.ts';
import type { Params } from '../args/validate-args.ts';
import { aliasId, IMAGE_ALIAS_DESCRIPTION, IMAGE_ALIASES, imageFromAliases } from '../domain/media/image-aliases.ts';
import { dateRule, isDateInput, isPositiveInteger, nonEmptyStringRule, positiveIntegerRule, rule, statusFilterRule } from '../args/validators.ts';

/** The largest page of the event list (10-events §4.1); larger asks get this many. */
export const MAX_EVENTS_PER_PAGE = 50;

/** What the event validators look things up in. */
export interface EventArgsDeps {
  db: Kysely<Database>;
  events: EventsService;
  lookups: EventLookups;
}


/** A list of positive integers (`include`, `venue`, `organizer`), or null when any entry is not one. */
function positiveIntegers(value: unknown): number[] | null {
  const items = parseList(value);
  return items.length > 0 && items.every(isPositiveInteger) ? items.map(Number) : null;
}



/** The path slug of a by-slug route, normalised as stored slugs are (10-events §5). */
export function slugLookup(params: Params): string {
  return normalizeSlugLookup(params.get<string>('slug'));
}

export const idArg: ArgSpec = { type: 'integer', required: true, in: 'path', description: 'Unique identifier for the event.' };

/** An unknown slug is a 400 on GET and DELETE by slug (§5, §8), before any permission check. */
export function existingSlugArg(deps: EventArgsDeps): ArgSpec {
  return {
    type: 'string',
    required: true,
    in: 'path',
    description: 'The event slug.',
    validate: rule(async (value, ctx) => typeof value === 'string' && (await deps.lookups.idBySlug(ctx, normalizeSlugLookup(value))) !== undefined, REASONS.unknownEvent),
  };
}

/** By-slug updates report an unknown slug as 404 after the permission check (§7.5). */
export const slugPathArg: ArgSpec = { type: 'string', required: true, in: 'path', description: 'The event slug.' };

export const contextArg: ArgSpec = {
  type: 'string',
  description: 'Scope of the request; with "edit", callers who may edit a password-protected event see it whole.',
};

// --- the list (10-events §4.1) ---

/**
 * The entries of a `categories`/`tags` filter. Unlike other lists a string is split at commas
 * only (§2.3), so that a term name with spaces stays one entry.
 */
function termEntries(value: unknown): string[] {
  const items = typeof value === 'string' ? value.split(',') : parseList(value);
  return items.map((item) => String(item).trim()).filter((item) => item !== '');
}

function termFilterArg(deps: EventArgsDeps, taxonomy: Taxonomy, description: string): ArgSpec {
  return {
    type: 'array',
    description,
    sanitize: termEntries,
    validate: rule(async (value, ctx) => {
      const entries = termEntries(value);
      return entries.length > 0 && (await deps.lookups.termFilter(ctx, taxonomy, entries)) !== null;
    }, REASONS.unknownTerms),
  };
}

function linkedFilterArg(deps: EventArgsDeps, kind: 'venue' | 'organizer', description: string): ArgSpec {
  return {
    type: 'array',
    items: { type: 'integer' },
    description,
    validate: rule(async (value, ctx) => {
      const ids = positiveIntegers(value);
      return ids !== null && deps.events.allOfKind(ids, kind, ctx.now);
    }, kind === 'venue' ? REASONS.unknownVenues : REASONS.unknownOrganizers),
  };
}

const windowDate = (description: string): ArgSpec => ({ description, validate: dateRule });

/** `geoArgs`: the location search parameters (70-geo §3.1), shared with the venue list. */
export function listArgs(deps: EventArgsDeps, geoArgs: ArgSpecs): ArgSpecs {
  return {
    page: { type: 'integer', default: 1, description: 'The archive page to return.', validate: positiveIntegerRule },
    per_page: { type: 'integer', default: 10, description: 'The number of events to return on each page (at most 50).', validate: rule(isPositiveInteger, pageSize(MAX_EVENTS_PER_PAGE)) },
    start_date: windowDate('Events should start on or after the specified date.'),
    end_date: windowDate('Events should end on or before the specified date.'),
    search: { type: 'string', description: 'Events should contain the specified string in the title, excerpt or description.', validate: nonEmptyStringRule },
    categories: termFilterArg(deps, 'tribe_events_cat', 'Events should be assigned one of the specified category IDs or slugs.'),
    tags: termFilterArg(deps, 'post_tag', 'Events should be assigned one of the specified tag IDs or slugs.'),
    venue: linkedFilterArg(deps, 'venue', 'Events should take place at one of the specified venue IDs.'),
    organizer: linkedFilterArg(deps, 'organizer', 'Events should be organized by one of the specified organizer IDs.'),
    featured: { type: 'boolean', description: 'Only featured events (true) or only events that are not featured (false).' },
    status: {
      description: 'The statuses of the events to return; only "publish" unless the caller may edit events ("any": every status but trash).',
      validate: statusFilterRule,
    },
    // geoloc, geoloc_lat, geoloc_lng at the reference's place; the extensions of 70-geo follow them.
    ...geoArgs,
    include: {
      items: { type: 'integer' },
      description: 'Only the events with these IDs.',
      validate: rule((value) => positiveIntegers(value) !== null, REASONS.positiveInteger),
    },
    post_parent: {
      type: 'integer',
      description: 'Only the events whose parent is this event.',
      validate: rule(async (value, ctx) => isPositiveInteger(value) && deps.events.allOfKind([Number(value)], 'event', ctx.now), REASONS.unknownEvent),
    },
    strict_dates: {
      type: 'string',
      default: 'false',
      description: 'Whether the date filters use the exact times given (true) or whole days (false).',
      validate: rule((value, ctx) => !('error' in computeDateWindow({ strict_dates: value, hasInclude: false }, 'UTC', ctx.now)), REASONS.strictDates),
    },
    ticketed: {
      type: 'boolean',
      description: 'Requires a ticketing extension; only "false" is accepted (without effect).',
      validate: (value) =>
        value === true || value === 1 || (typeof value === 'string' && /^(true|1)$/i.test(value))
          ? { messageKey: 'event-tickets-not-active', reason: REASONS.ticketsInactive }
          : true,
    },
    hide_subsequent_recurrences: {
      type: 'boolean',
      extension: true,
      description: 'Of each recurring series, only the earliest occurrence that passes the other filters.',
    },
    starts_before: windowDate('Events should start before the specified date.'),
    starts_after: windowDate('Events should start after the specified date.'),
    ends_before: windowDate('Events should end before the specified date.'),
    ends_after: windowDate('Events should end after the specified date.'),
  };
}

// --- create and update (10-events §6.1) ---

const flagArg = (description: string): ArgSpec => ({ type: 'boolean', description });

const DESCRIPTION_NOTE = 'An empty text or null is accepted as no description, as a published client sends it for events without one.';

/** The writable fields; `required` marks the three a create needs. */
export function writeArgs(deps: Pick<EventArgsDeps, 'db' | 'events'>, create: boolean): ArgSpecs {
  const media = new MediaRepository(deps.db);
  const users = new UsersRepository(deps.db);
  // The reference refuses "" (§6.1); on update an empty text clears the field (§7.2, 00-conventions).
  const anyString = rule((value) => typeof value === 'string', REASONS.string);
  const clearable = create ? nonEmptyStringRule : anyString;
  return {
    title: { type: 'string', required: create, description: 'The event title.', validate: nonEmptyStringRule },
    start_date: { required: create, description: 'The event start date and time, in the event time zone.', validate: dateRule },
    end_date: { required: create, description: 'The event end date and time, in the event time zone.', validate: dateRule },
    // Extension: ESIPFed's create_events.py sends "" for events without one (null is absent already).
    description: { type: 'string', description: 'The event description (HTML).', validate: anyString, ...(create ? { extensionNote: DESCRIPTION_NOTE } : {}) },
    excerpt: { type: 'string', description: 'The event excerpt (HTML).', validate: clearable },
    slug: { type: 'string', description: 'The event slug.', validate: nonEmptyStringRule },
    author: {
      type: 'integer',
      description: 'The ID of the event author; defaults to the caller.',
      validate: rule(async (value) => isPositiveInteger(value) && (await users.findById(Number(value))) !== undefined, REASONS.unknownUser),
    },
    status: { type: 'string', description: 'The event status: publish, future, draft, pending, private or trash.', validate: rule(isStatus, oneOf(STATUSES)) },
    date: {
      type: 'string',
      description: 'The publication date, in the site time zone.',
      validate: rule((value, ctx) => typeof value === 'string' && isDateInput(value, ctx), REASONS.date),
    },
    date_utc: { description: 'The publication date in UTC.', validate: dateRule },
    timezone: {
      type: 'string',
      description: 'The event time zone: an IANA name, UTC, or an offset such as UTC+2; empty means the site time zone.',
      validate: rule((value) => typeof value === 'string' && (value === '' || parseTimeZone(value) !== null), REASONS.timezone),
    },
    all_day: flagArg('Whether the event lasts all day.'),
    image: {
      description: 'The featured image: the ID of an existing image, or an image URL (callers who may upload files).',
      validate: rule(async (value, ctx) => {
        if (value === '' || value === 0 || value === '0') return true;
        if (isPositiveInteger(value)) return media.exists(Number(value));
        return typeof value === 'string' && isAbsoluteHttpUrl(value.trim()) && can(ctx.user, 'upload_files');
      }, REASONS.image),
    },
    ...Object.fromEntries(IMAGE_ALIASES.map((name) => [name, {
      description: IMAGE_ALIAS_DESCRIPTION,
      validate: rule(async (value) => {
        const id = aliasId(value);
        return id === 0 || (id !== undefined && media.exists(id));
      }, REASONS.image),
    }])),
    cost: { description: 'The event cost: a text, a number, or a list of them.' },
    website: {
      type: 'string',
      description: 'The event website: an absolute URL.',
      validate: rule((value) => typeof value === 'string' && (value.trim() === '' || isValidWebsite(value.trim())), REASONS.website),
    },
    show_map: flagArg('Whether the event shows a map of its venue.'),
    show_map_link: flagArg('Whether the event shows a link to a map of its venue.'),
    hide_from_listings: flagArg('Whether the event is hidden from lists.'),
    sticky: flagArg('Whether the event is pinned in calendar views.'),
    featured: flagArg('Whether the event is featured.'),
    categories: { description: 'Event categories by ID, slug or name (new names create categories).' },
    tags: { description: 'Tags by ID, slug or name (new names create tags).' },
    venue: {
      description: 'The venue: an ID, an object with an ID, or the data of a new venue.',
      extensionNote: 'A list of one venue is accepted as that venue; a list of several is refused, since an event has one venue.',
      validate: async (value, ctx) => refusedFor(await validateEventVenueInput(deps.db, value, ctx.user, ctx.now)),
    },
    organizer: {
      description: 'The organizers: a list of IDs, objects with an ID, or the data of new organizers.',
      extensionNote: 'One organizer object (or ID) is accepted as a list of one.',
      validate: async (value, ctx) => refusedFor(await validateEventOrganizerInput(deps.db, value, ctx.user, ctx.now)),
    },
    password: { type: 'string', extension: true, description: 'Protects the event with this password; empty removes it.' },
    recurrence: {
      extension: true,
      description: 'Makes the event a recurring series: {"rrule", "rdate", "exdate"} or RFC 5545 lines (RRULE, RDATE, EXDATE); null, "", [] or false removes it.',
      validate: (value, ctx, raw) => recurrenceCheck(value, ctx, raw),
    },
    ...(create ? {} : { scope: scopeArg }),
  };
}

/** `?date=` of a by-slug read: a real calendar date, YYYY-MM-DD (60 §2). */
export const occurrenceDateArg: ArgSpec = {
  type: 'string',
  format: 'date',
  extension: true,
  description: 'On a recurring series: the occurrence on this local date (YYYY-MM-DD) instead of the series.',
  validate: rule(isLocalDate, { code: 'by-slug-date-invalid', messageKey: 'by-slug-date-invalid' }),
};

function isLocalDate(value: unknown): boolean {
  const match = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  return match !== null && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

function refusedFor(verdict: true | Reason): Verdict {
  return verdict === true || { reason: verdict };
}

/** Which members of a series a write on an occurrence reaches (60 §6). */
export const scopeArg: ArgSpec = {
  type: 'string',
  enum: ['this', 'following', 'all'],
  extension: true,
  description: 'On an occurrence of a recurring series: this occurrence (default), this and the following ones, or the whole series.',
  validate: (value) => value === 'this' || value === 'following' || value === 'all' || { messageKey: 'recurrence-bad-scope', reason: REASONS.recurrenceScope },
};

/**
 * The spelling of a `recurrence` (60 §3), checked before anything is written; rules that need the
 * event's start (UNTIL before it, emptiness, the cap) are checked by the service.
 */
function recurrenceCheck(value: unknown, ctx: RenderContext, raw: Readonly<Record<string, unknown>>): Verdict {
  if (isRecurrenceRemoval(value)) return true;
  const zone = typeof raw.timezone === 'string' && parseTimeZone(raw.timezone) !== null ? raw.timezone : 'UTC';
  try {
    readRecurrence(value, zone, ctx.now);
    return true;
  } catch (error) {
    if (!(error instanceof RecurrenceError)) throw error;
    const vars = { cap: '', max: MAX_DATES };
    return { messageKey: error.code, vars, reason: { code: error.code, messageKey: error.code, vars } };
  }
}

/** Fields whose JSON `null` on update clears them, as an empty value does (00-conventions). */
const CLEARABLE = new Set(['recurrence', 'description', 'excerpt', 'image', 'cost', 'website', 'categories', 'tags', 'venue', 'organizer', 'timezone', 'password']);

/**
 * The event fields a create or update request sent. On the by-slug update route the path owns
 * `slug`, and a body `slug` (shadowed by the path) is the new slug (⚠ 10-events §7.5).
 */
export function eventFields(params: Params, specs: ArgSpecs, options: { update: boolean; slugInPath?: boolean }): EventFields {
  const fields: Record<string, unknown> = {};
  for (const name of Object.keys(specs)) {
    if (name === 'id' || (name === 'slug' && options.slugInPath) || (IMAGE_ALIASES as readonly string[]).includes(name)) continue;
    if (params.has(name)) fields[name] = params.get(name);
    else if (options.update && CLEARABLE.has(name) && params.raw[name] === null) fields[name] = '';
  }
  if (options.slugInPath && params.shadowed.slug !== undefined) fields.slug = params.shadowed.slug;
  if (fields.image === undefined && specs.image !== undefined) fields.image = imageFromAliases((name) => (params.has(name) ? params.get(name) : undefined));
  return fields as EventFields;
}
