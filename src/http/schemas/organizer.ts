import { EMPTY_ARRAY, type JsonSchema } from './json-schema.ts';
import { postFields as post } from './post-fields.ts';

/** An organizer (20 §3). Members with an empty value are left out. */
export const Organizer: JsonSchema = {
  type: 'object',
  description: 'An organizer. Members without a value are left out.',
  properties: {
    id: post.id,
    author: post.author,
    status: post.status,
    date: post.date,
    date_utc: post.date_utc,
    modified: post.modified,
    modified_utc: post.modified_utc,
    url: post.url,
    organizer: { description: 'Organizer name; an empty array while password-protected.', oneOf: [{ type: 'string' }, EMPTY_ARRAY] },
    description: post.description,
    excerpt: post.excerpt,
    slug: post.slug,
    image: post.image,
    phone: post.phone,
    website: post.website,
    email: { type: 'string', description: 'E-mail address.' },
    json_ld: post.json_ld,
    global_id: post.global_id,
    global_id_lineage: post.global_id_lineage,
  },
};
