/**
 * The columns of TEC's CSV importer (140 §7.3, R `Column_Mapper.php`): each field of a kind with
 * TEC's label, TEC's key and the API's name, any of which may head a column.
 */
export type CsvKind = 'events' | 'venues' | 'organizers';

export const CSV_KINDS: readonly CsvKind[] = ['events', 'venues', 'organizers'];

interface ColumnSpec {
  field: string;
  label: string;
  names: string[];
}

const column = (field: string, label: string, ...names: string[]): ColumnSpec => ({ field, label, names: [label, ...names] });

const IDENTITY = [column('uid', 'UID', 'Event UID', 'uid'), column('id', 'Event ID', 'id'), column('status', 'Status', 'status'), column('slug', 'Slug', 'slug')];

export const COLUMNS: Record<CsvKind, ColumnSpec[]> = {
  events: [
    column('title', 'Event Name', 'event_name', 'title'),
    column('description', 'Event Description', 'event_description', 'description'),
    column('excerpt', 'Event Excerpt', 'event_excerpt', 'excerpt'),
    column('start_date', 'Event Start Date', 'event_start_date', 'start_date'),
    column('start_time', 'Event Start Time', 'event_start_time'),
    column('end_date', 'Event End Date', 'event_end_date', 'end_date'),
    column('end_time', 'Event End Time', 'event_end_time'),
    column('timezone', 'Event Time Zone', 'event_timezone', 'timezone'),
    column('all_day', 'All Day Event', 'event_all_day', 'all_day'),
    column('hide_from_listings', 'Hide Event From Event Listings', 'event_hide', 'hide_from_listings'),
    column('sticky', 'Event Sticky in Month View', 'event_sticky', 'sticky'),
    column('featured', 'Feature Event', 'feature_event', 'featured'),
    column('show_map', 'Event Show Map', 'event_show_map', 'show_map'),
    column('show_map_link', 'Event Show Map Link', 'event_show_map_link', 'show_map_link'),
    column('venue', 'Event Venue Name', 'event_venue_name', 'venue'),
    column('organizer', 'Event Organizer Name(s) or ID(s)', 'Event Organizer Name', 'event_organizer_name', 'organizer'),
    column('cost', 'Event Cost', 'event_cost', 'cost'),
    column('currency_symbol', 'Event Currency Symbol', 'event_currency_symbol'),
    column('currency_position', 'Event Currency Position', 'event_currency_position'),
    column('currency_code', 'Event ISO Currency Code', 'event_currency_code'),
    column('categories', 'Event Category', 'event_category', 'categories'),
    column('tags', 'Event Tags', 'event_tags', 'tags'),
    column('website', 'Event Website', 'event_website', 'website'),
    column('image', 'Event Featured Image', 'featured_image', 'image'),
    column('comment_status', 'Event Allow Comments', 'event_comment_status'),
    column('ping_status', 'Event Allow Trackbacks and Pingbacks', 'event_ping_status'),
    ...IDENTITY,
  ],
  venues: [
    column('title', 'Venue Name', 'venue_name', 'venue'),
    column('description', 'Venue Description', 'venue_description', 'description'),
    column('country', 'Venue Country', 'venue_country', 'country'),
    column('address', 'Venue Address', 'venue_address', 'address'),
    column('address2', 'Venue Address 2', 'venue_address2', 'venue_address_2'),
    column('city', 'Venue City', 'venue_city', 'city'),
    column('stateprovince', 'Venue State/Province', 'venue_state', 'venue_province', 'stateprovince', 'state', 'province'),
    column('zip', 'Venue Zip', 'venue_zip', 'zip'),
    column('phone', 'Venue Phone', 'venue_phone', 'phone'),
    column('website', 'Venue Website', 'venue_url', 'venue_website', 'website'),
    column('image', 'Venue Featured Image', 'featured_image', 'image'),
    column('latitude', 'Venue Latitude', 'venue_latitude', 'latitude'),
    column('longitude', 'Venue Longitude', 'venue_longitude', 'longitude'),
    ...IDENTITY,
  ],
  organizers: [
    column('title', 'Organizer Name', 'organizer_name', 'organizer'),
    column('description', 'Organizer Description', 'organizer_description', 'description'),
    column('email', 'Organizer Email', 'organizer_email', 'email'),
    column('website', 'Organizer Website', 'organizer_website', 'website'),
    column('phone', 'Organizer Phone', 'organizer_phone', 'phone'),
    column('image', 'Organizer Featured Image', 'featured_image', 'image'),
    ...IDENTITY,
  ],
};

/** Fields a file of the kind must have a column for. */
export const REQUIRED: Record<CsvKind, string[]> = { events: ['title', 'start_date'], venues: ['title'], organizers: ['title'] };

/** Columns read and dropped with a warning (10: never set; no comments here). */
export const IGNORED_FIELDS = new Set(['currency_code', 'comment_status', 'ping_status']);

/** Header names match after trimming, case-folding and treating space, `_` and `-` alike. */
export function normalizeHeader(name: string): string {
  return name.trim().toLowerCase().replace(/[\s_-]+/g, ' ');
}

/** The field a header names for the kind, or undefined. */
export function fieldOfHeader(kind: CsvKind, header: string): string | undefined {
  const wanted = normalizeHeader(header);
  return COLUMNS[kind].find((spec) => spec.names.some((name) => normalizeHeader(name) === wanted))?.field;
}

export function labelOf(kind: CsvKind, field: string): string {
  return COLUMNS[kind].find((spec) => spec.field === field)!.label;
}

/** R `get_boolean_value_by_key`: yes, true, 1 in any case. */
export function csvBoolean(value: string): boolean {
  return ['yes', 'true', '1'].includes(value.trim().toLowerCase());
}
