import type { EventFormCore } from '../../domain/events/event-form-core.ts';
import { EMPTY_BUILDER, type BuilderFields } from '../../domain/recurrence/builder.ts';

/**
 * The event editor's form (100 §8.1) as values: what the fields show, read back from a POST, or
 * made from the API's event object (reopen, duplicate). Strings as typed; nothing is checked here.
 */
export interface EventFormValues extends EventFormCore {
  excerpt: string;
  /** `''` (none), a venue id, or `new`. */
  venue: string;
  venue_new: VenueDraft;
  organizer: string[];
  organizer_new: { organizer: string; email: string };
  categories: string[];
  tags: string;
  cost: string;
  website: string;
  featured: boolean;
  sticky: boolean;
  hide_from_listings: boolean;
  status: string;
  publish_date: string;
  publish_time: string;
  password: string;
  image: string;
  recurrence: BuilderFields;
  recurrence_remove_confirm: boolean;
  /** On occurrences only: `this` | `following` | `all`. */
  scope: string;
  /** The ETag the form was opened with; '' on new events. */
  revision: string;
}

export const VENUE_DRAFT_FIELDS = ['venue', 'address', 'city', 'country', 'zip', 'geo_lat', 'geo_lng'] as const;
export type VenueDraft = Record<(typeof VENUE_DRAFT_FIELDS)[number], string>;

export const emptyVenue = (): VenueDraft => Object.fromEntries(VENUE_DRAFT_FIELDS.map((name) => [name, ''])) as VenueDraft;

/** The values of a new event's form: `draft` selected, the site zone. */
export function emptyEventForm(siteZone: string): EventFormValues {
  return {
    title: '', description: '', excerpt: '',
    start_date: '', start_time: '', end_date: '', end_time: '', all_day: false, timezone: siteZone,
    venue: '', venue_new: emptyVenue(), organizer: [], organizer_new: { organizer: '', email: '' },
    categories: [], tags: '', cost: '', website: '',
    featured: false, sticky: false, hide_from_listings: false,
    status: 'draft', publish_date: '', publish_time: '', password: '', image: '',
    recurrence: { ...EMPTY_BUILDER }, recurrence_remove_confirm: false, scope: 'this', revision: '',
  };
}
