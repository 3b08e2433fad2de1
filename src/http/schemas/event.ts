import { EMPTY_ARRAY, ref, type JsonSchema } from './json-schema.ts';
import { postFields as post } from './post-fields.ts';

const details = (description: string): JsonSchema => ({ description, allOf: [ref('DateDetails')] });
const flag = (description: string): JsonSchema => ({ type: 'boolean', nullable: true, description });

/** An event (10 §3.1), in the order the service emits its members. */
export const Event: JsonSchema = {
  type: 'object',
  description: 'An event. In lists, a password-protected event shows its content members emptied and its flags as null.',
  properties: {
    id: post.id,
    global_id: post.global_id,
    global_id_lineage: post.global_id_lineage,
    author: post.author,
    status: post.status,
    date: post.date,
    date_utc: post.date_utc,
    modified: post.modified,
    modified_utc: post.modified_utc,
    url: post.url,
    rest_url: { type: 'string', format: 'uri', description: 'API address of the event.' },
    title: { type: 'string', description: 'Event title.' },
    description: post.description,
    excerpt: post.excerpt,
    slug: { type: 'string', description: 'URL name; empty for drafts created without one, ends in __trashed while in the trash.' },
    image: post.image,
    all_day: flag('Whether the event lasts all day.'),
    start_date: { type: 'string', description: 'Start in the event time zone (YYYY-MM-DD HH:MM:SS).' },
    start_date_details: details('Parts of the start date.'),
    end_date: { type: 'string', description: 'End in the event time zone (YYYY-MM-DD HH:MM:SS).' },
    end_date_details: details('Parts of the end date.'),
    utc_start_date: { type: 'string', description: 'Start in UTC (YYYY-MM-DD HH:MM:SS).' },
    utc_start_date_details: details('Parts of the UTC start date.'),
    utc_end_date: { type: 'string', description: 'End in UTC (YYYY-MM-DD HH:MM:SS).' },
    utc_end_date_details: details('Parts of the UTC end date.'),
    timezone: { type: 'string', description: 'Event time zone: an IANA name such as Europe/Rome, UTC, or an offset such as UTC+2.' },
    timezone_abbr: { type: 'string', description: 'Abbreviation of the time zone at the start, e.g. CET.' },
    cost: { type: 'string', description: 'Formatted cost, e.g. €15 – €25; empty when none.' },
    cost_details: { description: 'The cost broken down.', allOf: [ref('CostDetails')] },
    website: { type: 'string', description: 'Event website; the event page address when none was ever given.' },
    show_map: flag('Whether a map is shown.'),
    show_map_link: flag('Whether a link to a map is shown.'),
    hide_from_listings: flag('Whether the event is left out of lists.'),
    sticky: flag('Whether the event is pinned in calendar views.'),
    featured: flag('Whether the event is featured.'),
    categories: { type: 'array', items: ref('EventTerm'), description: 'Event categories, by name.' },
    tags: { type: 'array', items: ref('EventTerm'), description: 'Event tags, by name.' },
    venue: { description: 'The venue; an empty array when there is none.', oneOf: [ref('Venue'), EMPTY_ARRAY] },
    organizer: { type: 'array', items: ref('Organizer'), description: 'The organizers, in the order they were linked.' },
    custom_fields: { ...EMPTY_ARRAY, description: 'Custom fields; always an empty array.' },
    json_ld: post.json_ld,
  },
};
