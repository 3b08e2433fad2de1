import { WEBSITE_SCHEMES } from './events/event-web.ts';
import type { Reason } from './errors.ts';

/**
 * The reasons a parameter is refused (`data.details[name]`), one place for all routes. Codes are
 * stable for clients; messages are catalogue keys, translated when the response is written.
 */
export const REASONS = {
  positiveInteger: { code: 'rest_not_positive_integer', messageKey: 'reason_positive_integer' },
  notEmpty: { code: 'rest_empty_value', messageKey: 'reason_not_empty' },
  string: { code: 'rest_not_string', messageKey: 'reason_string' },
  integer: { code: 'rest_not_integer', messageKey: 'reason_integer' },
  number: { code: 'rest_not_number', messageKey: 'reason_number' },
  boolean: { code: 'rest_not_boolean', messageKey: 'reason_boolean' },
  object: { code: 'rest_not_object', messageKey: 'reason_object' },
  scalar: { code: 'rest_not_scalar', messageKey: 'reason_scalar' },
  date: { code: 'rest_invalid_date', messageKey: 'reason_date' },
  timezone: { code: 'rest_invalid_timezone', messageKey: 'reason_timezone' },
  website: { code: 'rest_invalid_url', messageKey: 'reason_website', vars: { schemes: [...WEBSITE_SCHEMES].join(', ') } },
  image: { code: 'rest_invalid_image', messageKey: 'reason_image' },
  strictDates: { code: 'rest_invalid_strict_dates', messageKey: 'reason_strict_dates' },
  ticketsInactive: { code: 'event-tickets-not-active', messageKey: 'event-tickets-not-active' },
  recurrenceScope: { code: 'recurrence-bad-scope', messageKey: 'recurrence-bad-scope' },
  unknownEvent: { code: 'rest_unknown_event', messageKey: 'reason_unknown_event' },
  unknownVenue: { code: 'rest_unknown_venue', messageKey: 'reason_unknown_venue' },
  unknownOrganizer: { code: 'rest_unknown_organizer', messageKey: 'reason_unknown_organizer' },
  unknownUser: { code: 'rest_unknown_user', messageKey: 'reason_unknown_user' },
  unknownTerm: { code: 'rest_unknown_term', messageKey: 'reason_unknown_term' },
  unknownTerms: { code: 'rest_unknown_terms', messageKey: 'reason_unknown_terms' },
  unknownVenues: { code: 'rest_unknown_venues', messageKey: 'reason_unknown_venues' },
  unknownOrganizers: { code: 'rest_unknown_organizers', messageKey: 'reason_unknown_organizers' },
  oneVenue: { code: 'rest_one_venue', messageKey: 'reason_one_venue' },
  venueInput: { code: 'rest_invalid_venue', messageKey: 'reason_venue_input' },
  organizerInput: { code: 'rest_invalid_organizer', messageKey: 'reason_organizer_input' },
  login: { code: 'invalid_login', messageKey: 'invalid_login' },
  email: { code: 'invalid_email', messageKey: 'invalid_email' },
  cursor: { code: 'rest_invalid_cursor', messageKey: 'reason_cursor' },
  cursorWithStart: { code: 'rest_cursor_conflict', messageKey: 'reason_cursor_with_start' },
} as const satisfies Record<string, Reason>;

export function oneOf(values: readonly string[]): Reason {
  return { code: 'rest_not_in_enum', messageKey: 'reason_one_of', vars: { values: values.join(', ') } };
}

/** A status filter: one or more known statuses (or `any`); callers who may not edit see `publish` only. */
export function statusFilter(values: readonly string[], mayEdit: boolean): Reason {
  return mayEdit
    ? { code: 'rest_invalid_status', messageKey: 'reason_status_filter', vars: { values: values.join(', ') } }
    : { code: 'rest_invalid_status', messageKey: 'reason_status_publish_only' };
}

export function pageSize(max: number): Reason {
  return { code: 'rest_invalid_page_size', messageKey: 'reason_page_size', vars: { max } };
}

export function tooSmall(min: number): Reason {
  return { code: 'rest_too_small', messageKey: 'reason_too_small', vars: { min } };
}

export function tooLarge(max: number): Reason {
  return { code: 'rest_too_large', messageKey: 'reason_too_large', vars: { max } };
}

export function tooManyItems(max: number): Reason {
  return { code: 'rest_too_many_items', messageKey: 'reason_too_many_items', vars: { max } };
}

/** A field of a venue or organizer given inline in an event, with the field's own reason. */
export function linkedField(kind: 'venue' | 'organizer', field: string): Reason {
  return { code: `rest_invalid_${kind}_field`, messageKey: kind === 'venue' ? 'reason_venue_field' : 'reason_organizer_field', vars: { field } };
}

/** A list of known values, one or more (the change feed's `types`). */
export function someOf(values: readonly string[]): Reason {
  return { code: 'rest_not_in_enum', messageKey: 'reason_change_types', vars: { values: values.join(', ') } };
}
