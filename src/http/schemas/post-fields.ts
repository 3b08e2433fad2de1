import { ref, type JsonSchema } from './json-schema.ts';

/** Members that events, venues and organizers share (10 §3.1, 20 §2-4), declared once. */
export const postFields = {
  id: { type: 'integer', description: 'Record ID, from the sequence shared by events, venues, organizers and images.' },
  author: { type: 'string', description: 'ID of the author user, as a string of digits.' },
  status: {
    type: 'string',
    enum: ['publish', 'future', 'draft', 'pending', 'private', 'trash'],
    description: 'Publication status.',
  },
  date: { type: 'string', description: 'Publication date in the site time zone (YYYY-MM-DD HH:MM:SS).' },
  date_utc: { type: 'string', description: 'Publication date in UTC (YYYY-MM-DD HH:MM:SS); 0000-00-00 00:00:00 for drafts and pending records without a set date.' },
  modified: { type: 'string', description: 'Date of the last change in the site time zone (YYYY-MM-DD HH:MM:SS).' },
  modified_utc: { type: 'string', description: 'Date of the last change in UTC (YYYY-MM-DD HH:MM:SS).' },
  url: { type: 'string', format: 'uri', description: 'Address of the public page.' },
  description: { type: 'string', description: 'Description as HTML paragraphs.' },
  excerpt: { type: 'string', description: 'Excerpt as HTML paragraphs.' },
  slug: { type: 'string', description: 'URL name; ends in __trashed while in the trash.' },
  image: { description: 'Featured image; false when there is none.', oneOf: [ref('Image'), { type: 'boolean', enum: [false] }] },
  phone: { type: 'string', description: 'Phone number.' },
  website: { type: 'string', description: 'Website address.' },
  json_ld: {
    type: 'object',
    additionalProperties: true,
    description: 'Structured data (schema.org); only in the response of a single read, when the record is readable without a password.',
  },
  global_id: { type: 'string', description: 'Global ID: host and base path of the site followed by ?id= and the ID.' },
  global_id_lineage: { type: 'array', items: { type: 'string' }, description: 'Global IDs of the record and of its sources; here only its own.' },
} satisfies Record<string, JsonSchema>;
