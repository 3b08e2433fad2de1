import { EMPTY_ARRAY, ref, type JsonSchema } from './json-schema.ts';
import { postFields as post } from './post-fields.ts';

/**
 * A venue (20 §2). Members with an empty value are left out, except the map flags and global
 * IDs; a password-protected venue shows its name as [] and its map flags as null.
 */
export const Venue: JsonSchema = {
  type: 'object',
  description: 'A venue. Members without a value are left out.',
  properties: {
    id: post.id,
    author: post.author,
    status: post.status,
    date: post.date,
    date_utc: post.date_utc,
    modified: post.modified,
    modified_utc: post.modified_utc,
    url: post.url,
    venue: { description: 'Venue name; an empty array while password-protected.', oneOf: [{ type: 'string' }, EMPTY_ARRAY] },
    description: post.description,
    excerpt: post.excerpt,
    slug: post.slug,
    image: post.image,
    address: { type: 'string', description: 'Street address.' },
    city: { type: 'string', description: 'City.' },
    country: { type: 'string', description: 'Country, as free text.' },
    province: { type: 'string', description: 'Province.' },
    state: { type: 'string', description: 'State.' },
    zip: { type: 'string', description: 'Postal code.' },
    phone: post.phone,
    website: post.website,
    stateprovince: { type: 'string', description: 'State or province, as stored or derived from state and province.' },
    geo_lat: { type: 'number', description: 'Latitude in degrees, present when stored; 0 while password-protected.' },
    geo_lng: { type: 'number', description: 'Longitude in degrees, present when stored; 0 while password-protected.' },
    json_ld: post.json_ld,
    show_map: { type: 'boolean', nullable: true, description: 'Whether a map is shown; null while password-protected.' },
    show_map_link: { type: 'boolean', nullable: true, description: 'Whether a link to a map is shown; null while password-protected.' },
    global_id: post.global_id,
    global_id_lineage: post.global_id_lineage,
    geo_distance: { description: 'Distance from the search centre; only in a location search with a centre.', allOf: [ref('GeoDistance')] },
  },
};
